export { ProxmoxClient, createProxmoxClient } from './proxmox-client.js';
export type { CallOptions } from './proxmox-client.js';
export type { ProxmoxClientOptions } from './client-options.js';
export type { ApiToken } from './api-token.js';
export type { Ticket } from './ticket-session.js';
export type { TaskResult, WaitForTaskOptions } from './task-waiter.js';
export { OPERATOR_PRIVILEGES, OPERATOR_ROLES } from './operator-privileges.js';
export type { RequiredPrivileges } from './operator-privileges.js';
export { formatUpid, isUpid, parseUpid } from './upid.js';
export type { Upid } from './upid.js';
export { decodeSshKeys, encodeSshKeys } from './ssh-keys.js';
export { normalizeFingerprint } from './tls-pinning.js';
export {
  PveInvalidArgumentError,
  InvalidUpidError,
  LockedError,
  MalformedResponseError,
  PveNotFoundError,
  NotImplementedError,
  ParameterError,
  PvePermissionDeniedError,
  ProxmoxError,
  TaskFailedError,
  TaskTimeoutError,
  TlsFingerprintMismatchError,
  PveUnauthorizedError,
  UnreachableError,
  VmNotRunningError,
  VmRunningError,
  VmidTakenError,
} from './errors.js';
export type { ProxmoxErrorCode, UnreachableReason } from './errors.js';
export type * from './types.js';
export { buildIso9660Image, Iso9660Error } from './iso9660-image.js';
export type { Iso9660File, Iso9660ImageOptions, Iso9660ErrorCode } from './iso9660-image.js';
export { buildNoCloudSeed } from './nocloud-seed.js';
export type { NoCloudSeed } from './nocloud-seed.js';
