import type { IncomingMessage, ServerResponse } from 'node:http';
import { authorize, forbiddenMessage, type RequestAttributes, type UserInfo } from './auth/index.js';
import { apiGroup, apiGroupList, apiResourceList, coreApiVersions, versionInfo } from './discovery.js';
import { openApiV3Document, openApiV3Index } from './openapi.js';
import { openApiV2Document } from './openapi-v2.js';
import { encodeOpenApiV2, OPENAPI_V2_PROTOBUF } from './openapi-v2-protobuf.js';
import { parseRequestInfo, type RequestInfo } from './request-info.js';
import { handleResource, resourceNotFound, type ResourceHandlerDeps } from './resource-handler.js';
import { resourceKey } from './resource-type.js';
import { forbidden, StatusError, unauthorized } from './status-error.js';

export interface ApiHandlerDeps extends ResourceHandlerDeps {
  /** `host:port` clients reach the server at, for `/api`. */
  serverAddress: () => string;
}

/** kube-apiserver's limit on request bodies (3 MiB). */
const MAX_BODY_BYTES = 3 * 1024 * 1024;
const SERVICE_ACCOUNT_USER = /^system:serviceaccount:([^:]+):([^:]+)$/;

/** The request pipeline: body, authentication, request info, RBAC, the handler, and errors as Status objects. */
export function createApiHandler(
  deps: ApiHandlerDeps,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    const warnings: string[] = [];
    try {
      const method = (req.method ?? 'GET').toUpperCase();
      const url = new URL(req.url ?? '/', 'http://kube-sim');
      const body = await readBody(req);
      const user = authenticate(deps, req.headers.authorization);
      const info = parseRequestInfo(method, url);
      authorizeRequest(deps, user, info);
      if (!info.resourceRequest) {
        nonResource(deps, info, req.headers.accept, res);
        return;
      }
      const reply = handleResource(deps, { info, url, headers: req.headers, body, user }, res);
      if (reply === 'streaming') return;
      warnings.push(...(reply.warnings ?? []));
      sendJson(res, reply.status, reply.body, warnings);
    } catch (e: unknown) {
      const error =
        e instanceof StatusError
          ? e
          : new StatusError(
              500,
              'InternalError',
              `Internal error occurred: ${e instanceof Error ? e.message : String(e)}`,
            );
      if (res.headersSent) {
        res.destroy();
        return;
      }
      sendJson(res, error.code, error.toStatus(), warnings);
    }
  };
}

function authenticate(deps: ApiHandlerDeps, authorization: string | undefined): UserInfo {
  const user = deps.authenticator.authenticate(authorization, new Date(), (namespace, name, uid) => {
    const account = deps.store.get(resourceKey('', 'serviceaccounts'), namespace, name);
    return account?.metadata.uid === uid;
  });
  if (!user) throw unauthorized();
  // Tokens of service accounts are checked against the live object even if the authenticator did not.
  const sa = SERVICE_ACCOUNT_USER.exec(user.username);
  if (sa && !deps.store.get(resourceKey('', 'serviceaccounts'), sa[1] ?? '', sa[2] ?? ''))
    throw unauthorized();
  return user;
}

function authorizeRequest(deps: ApiHandlerDeps, user: UserInfo, info: RequestInfo): void {
  const attrs: RequestAttributes = info.resourceRequest
    ? {
        user,
        verb: info.verb,
        resourceRequest: true,
        apiGroup: info.apiGroup,
        apiVersion: info.apiVersion,
        ...(info.resource !== undefined ? { resource: info.resource } : {}),
        ...(info.subresource !== undefined ? { subresource: info.subresource } : {}),
        ...(info.namespace !== undefined ? { namespace: info.namespace } : {}),
        ...(info.name !== undefined ? { name: info.name } : {}),
      }
    : { user, verb: info.verb, resourceRequest: false, path: info.path };
  const decision = authorize(attrs, deps.rbac.objects);
  if (decision.allowed) return;
  throw forbidden(forbiddenMessage(attrs, decision.reason), {
    ...(info.name !== undefined ? { name: info.name } : {}),
    ...(info.resourceRequest ? { group: info.apiGroup, kind: info.resource ?? '' } : {}),
  });
}

/** Discovery, version, health and OpenAPI paths. */
function nonResource(
  deps: ApiHandlerDeps,
  info: RequestInfo,
  accept: string | undefined,
  res: ServerResponse,
): void {
  const path = info.path.replace(/\/+$/, '') || '/';
  const segments = path.split('/').filter((s) => s !== '');
  if (info.verb !== 'get')
    throw new StatusError(
      405,
      'MethodNotAllowed',
      `the server does not allow this method on the requested resource`,
    );
  if (['/healthz', '/livez', '/readyz'].includes(path)) {
    res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('ok');
    return;
  }
  if (path === '/openapi/v2') {
    sendOpenApiV2(res, openApiV2Document(deps.registry), accept);
    return;
  }
  let body: unknown;
  if (path === '/version') body = versionInfo();
  else if (path === '/api') body = coreApiVersions(deps.serverAddress());
  else if (path === '/apis') body = apiGroupList(deps.registry);
  else if (segments[0] === 'api' && segments.length === 2)
    body = apiResourceList(deps.registry, '', segments[1] ?? '');
  else if (segments[0] === 'apis' && segments.length === 2) body = apiGroup(deps.registry, segments[1] ?? '');
  else if (segments[0] === 'apis' && segments.length === 3)
    body = apiResourceList(deps.registry, segments[1] ?? '', segments[2] ?? '');
  else if (path === '/openapi/v3') body = openApiV3Index(deps.registry);
  else if (segments[0] === 'openapi' && segments[1] === 'v3')
    body = openApiV3Document(deps.registry, segments.slice(2).join('/'));
  if (body === undefined) throw resourceNotFound();
  sendJson(res, 200, body, []);
}

/** kubectl asks for protobuf (two spellings across versions); other clients get JSON. */
function sendOpenApiV2(
  res: ServerResponse,
  document: Record<string, unknown>,
  accept: string | undefined,
): void {
  if (!accept?.includes('com.github.proto-openapi.spec.v2')) {
    sendJson(res, 200, document, []);
    return;
  }
  const body = encodeOpenApiV2(document);
  res.writeHead(200, {
    'Content-Type': OPENAPI_V2_PROTOBUF,
    'Cache-Control': 'no-cache, private',
    'Content-Length': String(body.length),
  });
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, body: unknown, warnings: string[]): void {
  const text = JSON.stringify(body);
  const headers: Record<string, string | string[]> = {
    'Content-Type': 'application/json',
    'Cache-Control': 'no-cache, private',
    'Content-Length': String(Buffer.byteLength(text)),
  };
  if (warnings.length > 0) headers.Warning = warnings.map((w) => `299 - ${JSON.stringify(w)}`);
  res.writeHead(status, headers);
  res.end(text);
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      throw new StatusError(
        413,
        'RequestEntityTooLarge',
        `Request entity too large: limit is ${MAX_BODY_BYTES}`,
      );
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
