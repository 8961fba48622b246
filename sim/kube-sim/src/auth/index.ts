export type { UserInfo } from './user-info.js';
export type { StaticToken } from './static-token-file.js';
export { TokenAuthenticator } from './token-authenticator.js';
export { validateTokenRequest } from './token-request.js';
export { authorize, forbiddenMessage } from './rbac-authorizer.js';
export { bootstrapRbac } from './bootstrap-rbac.js';
export type { RbacObjects, RequestAttributes } from './rbac-objects.js';
