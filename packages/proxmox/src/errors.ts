/**
 * The one catalogue of errors this package throws, and the only place that reads Proxmox's message texts.
 * Callers branch on the class (or its stable `code`), never on `message`.
 */

/** Where a failed call was going; absent for errors that are not about one request. */
export interface RequestContext {
  method?: string | undefined;
  path?: string | undefined;
}

interface ProxmoxErrorInit extends RequestContext {
  /** Proxmox's own text (trailing newline removed), or our description when Proxmox said nothing. */
  pveMessage: string;
  status?: number | undefined;
  /** Added to `message` only, so that `pveMessage` stays Proxmox's text. */
  detail?: string | undefined;
  cause?: unknown;
}

export type ProxmoxErrorCode =
  | 'PVE_ERROR'
  | 'PVE_NOT_FOUND'
  | 'PVE_LOCKED'
  | 'PVE_VMID_TAKEN'
  | 'PVE_VM_RUNNING'
  | 'PVE_VM_NOT_RUNNING'
  | 'PVE_PERMISSION_DENIED'
  | 'PVE_UNAUTHORIZED'
  | 'PVE_PARAMETER'
  | 'PVE_NOT_IMPLEMENTED'
  | 'PVE_TASK_FAILED'
  | 'PVE_TASK_TIMEOUT'
  | 'PVE_UNREACHABLE'
  | 'PVE_TLS_FINGERPRINT_MISMATCH'
  | 'PVE_MALFORMED_RESPONSE'
  | 'PVE_INVALID_UPID'
  | 'PVE_INVALID_ARGUMENT';

export class ProxmoxError extends Error {
  readonly code: ProxmoxErrorCode = 'PVE_ERROR';
  /** HTTP status, when the error came from an HTTP answer. */
  readonly status: number | undefined;
  readonly method: string | undefined;
  readonly path: string | undefined;
  readonly pveMessage: string;

  constructor(init: ProxmoxErrorInit) {
    super(describe(init), init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.status = init.status;
    this.method = init.method;
    this.path = init.path;
    this.pveMessage = init.pveMessage;
  }
}

function describe(init: ProxmoxErrorInit): string {
  const where = init.method !== undefined && init.path !== undefined ? `${init.method} ${init.path}: ` : '';
  const status = init.status === undefined ? '' : `${init.status} `;
  const detail = init.detail === undefined ? '' : ` (${init.detail})`;
  return `${where}${status}${init.pveMessage}${detail}`;
}

/** The VM, task, storage, volume, snapshot or rule named does not exist. */
export class PveNotFoundError extends ProxmoxError {
  override readonly code = 'PVE_NOT_FOUND';
}

export class LockedError extends ProxmoxError {
  override readonly code = 'PVE_LOCKED';
  /** The config lock, e.g. `backup`, `clone`, `create`. */
  readonly lock: string;
  constructor(init: ProxmoxErrorInit & { lock: string }) {
    super(init);
    this.lock = init.lock;
  }
}

export class VmidTakenError extends ProxmoxError {
  override readonly code = 'PVE_VMID_TAKEN';
  readonly vmid: number;
  constructor(init: ProxmoxErrorInit & { vmid: number }) {
    super(init);
    this.vmid = init.vmid;
  }
}

/** The VM runs and the call needs it stopped (destroy, restore), or start found it already running. */
export class VmRunningError extends ProxmoxError {
  override readonly code = 'PVE_VM_RUNNING';
  readonly vmid: number | undefined;
  constructor(init: ProxmoxErrorInit & { vmid?: number | undefined }) {
    super(init);
    this.vmid = init.vmid;
  }
}

export class VmNotRunningError extends ProxmoxError {
  override readonly code = 'PVE_VM_NOT_RUNNING';
  readonly vmid: number | undefined;
  constructor(init: ProxmoxErrorInit & { vmid?: number | undefined }) {
    super(init);
    this.vmid = init.vmid;
  }
}

export class PvePermissionDeniedError extends ProxmoxError {
  override readonly code = 'PVE_PERMISSION_DENIED';
  /** The ACL path checked, e.g. `/vms/100`; absent for other 403 texts. */
  readonly aclPath: string | undefined;
  /** The privilege that was missing, e.g. `VM.Allocate`. */
  readonly privilege: string | undefined;
  constructor(init: ProxmoxErrorInit & { aclPath?: string | undefined; privilege?: string | undefined }) {
    super(init);
    this.aclPath = init.aclPath;
    this.privilege = init.privilege;
  }
}

/** 401: Proxmox puts the reason (`No ticket`, `Authentication failed!`) in the status line only. */
export class PveUnauthorizedError extends ProxmoxError {
  override readonly code = 'PVE_UNAUTHORIZED';
}

/** 400 `Parameter verification failed.`, with Proxmox's message per parameter. */
export class ParameterError extends ProxmoxError {
  override readonly code = 'PVE_PARAMETER';
  readonly parameters: Readonly<Record<string, string>>;
  constructor(init: ProxmoxErrorInit & { parameters: Record<string, string> }) {
    const details = Object.entries(init.parameters).map(([name, text]) => `${name}: ${text}`);
    super({ ...init, detail: details.length === 0 ? undefined : details.join('; ') });
    this.parameters = init.parameters;
  }
}

export class NotImplementedError extends ProxmoxError {
  override readonly code = 'PVE_NOT_IMPLEMENTED';
}

/** A task ended with an exit status other than `OK` or `WARNINGS: n`. */
export class TaskFailedError extends ProxmoxError {
  override readonly code = 'PVE_TASK_FAILED';
  readonly upid: string;
  readonly exitstatus: string;
  /** The last lines of the task log, oldest first. */
  readonly logTail: readonly string[];
  /**
   * The typed error the same text gives when Proxmox answers it synchronously (e.g. a start that finds
   * the config missing fails as a task with the NotFound text), so callers can branch on the class.
   */
  readonly reason: ProxmoxError | undefined;
  constructor(init: { upid: string; exitstatus: string; logTail: readonly string[] } & RequestContext) {
    super({ method: init.method, path: init.path, pveMessage: init.exitstatus, detail: `task ${init.upid}` });
    this.upid = init.upid;
    this.exitstatus = init.exitstatus;
    this.logTail = init.logTail;
    this.reason =
      classifyMessage({ pveMessage: init.exitstatus }) ?? classifyGuestFailure(init.logTail, init.exitstatus);
  }
}

/** vzdump's per-guest failure line; the task itself only exits `job errors`. */
const BACKUP_GUEST_FAILURE = /^ERROR: Backup of VM \d+ failed - (.+)$/;

/** The typed error of the last guest a backup job failed on, e.g. a LockedError for `VM is locked (snapshot)`. */
function classifyGuestFailure(logTail: readonly string[], exitstatus: string): ProxmoxError | undefined {
  const cause = logTail
    .map((line) => BACKUP_GUEST_FAILURE.exec(line)?.[1])
    .filter((text): text is string => text !== undefined)
    .at(-1);
  return cause === undefined
    ? undefined
    : classifyMessage({ pveMessage: trimMessage(cause), detail: exitstatus });
}

export class TaskTimeoutError extends ProxmoxError {
  override readonly code = 'PVE_TASK_TIMEOUT';
  readonly upid: string;
  constructor(init: { upid: string; timeoutMs: number }) {
    super({ pveMessage: `task ${init.upid} still running after ${init.timeoutMs} ms` });
    this.upid = init.upid;
  }
}

export type UnreachableReason = 'dns' | 'connect' | 'reset' | 'timeout' | 'tls';

/** Proxmox could not be reached or the connection broke; no answer was read. */
export class UnreachableError extends ProxmoxError {
  override readonly code: ProxmoxErrorCode = 'PVE_UNREACHABLE';
  readonly reason: UnreachableReason;
  /**
   * False only when the connection failed before any byte of the request went out; when true, a
   * mutating call may have been carried out, so its effect must be re-read rather than re-sent.
   */
  readonly requestMayHaveBeenSent: boolean;
  /** Whether trying again later can help (a refused connection can; a certificate mismatch cannot). */
  readonly transient: boolean;
  constructor(
    init: ProxmoxErrorInit & {
      reason: UnreachableReason;
      requestMayHaveBeenSent: boolean;
      transient: boolean;
    },
  ) {
    super(init);
    this.reason = init.reason;
    this.requestMayHaveBeenSent = init.requestMayHaveBeenSent;
    this.transient = init.transient;
  }
}

/** The server's certificate is not the pinned one: possibly someone in the middle. Never retried. */
export class TlsFingerprintMismatchError extends UnreachableError {
  override readonly code = 'PVE_TLS_FINGERPRINT_MISMATCH';
  readonly expected: string;
  readonly actual: string;
  constructor(init: { expected: string; actual: string } & RequestContext) {
    super({
      ...init,
      reason: 'tls',
      requestMayHaveBeenSent: false,
      transient: false,
      pveMessage: `certificate fingerprint ${init.actual || '(none)'} does not match the pinned ${init.expected}`,
    });
    this.expected = init.expected;
    this.actual = init.actual;
  }
}

/** A 2xx answer that is not the `{"data":…}` JSON envelope, or data of the wrong shape. */
export class MalformedResponseError extends ProxmoxError {
  override readonly code = 'PVE_MALFORMED_RESPONSE';
}

export class InvalidUpidError extends ProxmoxError {
  override readonly code = 'PVE_INVALID_UPID';
}

/** Client options rejected by the factory, or a method argument Proxmox could not be sent. */
export class PveInvalidArgumentError extends ProxmoxError {
  override readonly code = 'PVE_INVALID_ARGUMENT';
}

/** A failed HTTP answer as read off the wire. */
export interface HttpFailure extends RequestContext {
  status: number;
  /** The reason phrase of the status line, where Proxmox puts the first line of its message. */
  statusText: string;
  /** The raw body: JSON from Proxmox, empty on 401, HTML or anything from a proxy in between. */
  body: string;
}

/** Turns a failed HTTP answer into the most specific error of the catalogue. */
export function errorFromResponse(failure: HttpFailure): ProxmoxError {
  const envelope = parseErrorBody(failure.body);
  const pveMessage = trimMessage(envelope.message ?? failure.statusText) || `HTTP ${failure.status}`;
  const init = { status: failure.status, method: failure.method, path: failure.path, pveMessage };
  const parameters = envelope.errors;

  if (failure.status === 401) return new PveUnauthorizedError(init);
  if (failure.status === 403) return permissionDenied(init);
  if (failure.status === 501) return new NotImplementedError(init);
  if (parameters !== undefined) {
    // Some "not found"/"taken" conditions arrive as a parameter error (nextid, task status).
    for (const text of Object.values(parameters)) {
      const specific = classifyMessage({ ...init, pveMessage: trimMessage(text) });
      if (specific !== undefined) return specific;
    }
    return new ParameterError({ ...init, parameters });
  }
  const specific = classifyMessage(init);
  if (specific !== undefined) return specific;
  if (failure.status === 404) return new PveNotFoundError(init);
  if (failure.status === 400 && pveMessage.startsWith(PARAMETER_VERIFICATION_FAILED)) {
    return new ParameterError({ ...init, parameters: {} });
  }
  return new ProxmoxError(init);
}

const PARAMETER_VERIFICATION_FAILED = 'Parameter verification failed.';

interface ErrorEnvelope {
  message?: string;
  errors?: Record<string, string>;
}

function parseErrorBody(body: string): ErrorEnvelope {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return {};
  }
  if (!isRecord(parsed)) return {};
  const envelope: ErrorEnvelope = {};
  if (typeof parsed.message === 'string') envelope.message = parsed.message;
  if (isRecord(parsed.errors)) {
    envelope.errors = Object.fromEntries(
      Object.entries(parsed.errors).map(([name, text]) => [
        name,
        trimMessage(typeof text === 'string' ? text : JSON.stringify(text)),
      ]),
    );
  }
  return envelope;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function trimMessage(text: string): string {
  return text.replace(/\s+$/, '');
}

const PERMISSION_CHECK = /^Permission check failed \((\/[^\s,()]*), ([^()]+)\)$/;

function permissionDenied(init: ProxmoxErrorInit): PvePermissionDeniedError {
  const match = PERMISSION_CHECK.exec(init.pveMessage);
  return new PvePermissionDeniedError({ ...init, aclPath: match?.[1], privilege: match?.[2] });
}

/** Proxmox texts with a meaning of their own, whatever status (or task) carried them. */
const MESSAGE_PATTERNS: readonly ((init: ProxmoxErrorInit) => ProxmoxError | undefined)[] = [
  (init) =>
    matchAny(init.pveMessage, [
      /^Configuration file '[^']+' does not exist/,
      /^no such task/,
      /^no such (?:cluster )?node\b/,
      /^(?:storage|volume|snapshot) '[^']*' does not exist/,
      /^unable to find (?:volume|storage|snapshot)\b/,
      /^no rule at position \d+/,
    ])
      ? new PveNotFoundError(init)
      : undefined,
  (init) => {
    const match = /^VM is locked \(([^)]+)\)/.exec(init.pveMessage);
    return match?.[1] === undefined ? undefined : new LockedError({ ...init, lock: match[1] });
  },
  (init) => {
    const match =
      /^VM (\d+) already exists/.exec(init.pveMessage) ??
      /^unable to (?:create|restore) VM (\d+) - VM \d+ already exists on node/.exec(init.pveMessage) ??
      /^unable to create VM (\d+): config file already exists/.exec(init.pveMessage);
    return match?.[1] === undefined ? undefined : new VmidTakenError({ ...init, vmid: Number(match[1]) });
  },
  (init) => {
    const match =
      /^VM (\d+) is running - destroy failed/.exec(init.pveMessage) ??
      /^VM (\d+) already running/.exec(init.pveMessage) ??
      /^unable to restore VM (\d+) - vm is running/.exec(init.pveMessage);
    if (match !== null) return new VmRunningError({ ...init, vmid: Number(match[1]) });
    return /\bvm is running\b/i.test(init.pveMessage) ? new VmRunningError(init) : undefined;
  },
  (init) => {
    const match = /^VM (\d+) not running/.exec(init.pveMessage);
    return match === null ? undefined : new VmNotRunningError({ ...init, vmid: Number(match[1]) });
  },
];

function matchAny(text: string, patterns: readonly RegExp[]): boolean {
  return patterns.some((pattern) => pattern.test(text));
}

function classifyMessage(init: ProxmoxErrorInit): ProxmoxError | undefined {
  for (const pattern of MESSAGE_PATTERNS) {
    const error = pattern(init);
    if (error !== undefined) return error;
  }
  return undefined;
}

/** How a stopped task ended: `OK` and `WARNINGS: n` are successes, anything else is the error text. */
export type TaskExit = { ok: true; warnings: number } | { ok: false };

export function parseTaskExitStatus(exitstatus: string): TaskExit {
  if (exitstatus === 'OK') return { ok: true, warnings: 0 };
  const warnings = /^WARNINGS: (\d+)$/.exec(exitstatus);
  return warnings?.[1] === undefined ? { ok: false } : { ok: true, warnings: Number(warnings[1]) };
}
