import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { PveError } from './pve-error.js';

const ALL_PRIVILEGES = [
  'VM.Allocate',
  'VM.Clone',
  'VM.Config.CPU',
  'VM.Config.Memory',
  'VM.Config.Network',
  'VM.Config.Disk',
  'VM.Config.CDROM',
  'VM.Config.Cloudinit',
  'VM.Config.Options',
  'VM.Config.HWType',
  'VM.PowerMgmt',
  'VM.Console',
  'VM.Backup',
  'VM.Snapshot',
  'VM.Snapshot.Rollback',
  'VM.Audit',
  'Datastore.Allocate',
  'Datastore.AllocateSpace',
  'Datastore.AllocateTemplate',
  'Datastore.Audit',
  'Sys.Audit',
  'Sys.Modify',
] as const;

/** PVE's built-in roles, restricted to the privileges the simulator checks. */
export const ROLES: Record<string, readonly string[]> = {
  Administrator: ALL_PRIVILEGES,
  PVEAdmin: ALL_PRIVILEGES.filter((p) => p !== 'Sys.Modify'),
  PVEVMAdmin: ALL_PRIVILEGES.filter((p) => p.startsWith('VM.')),
  PVEVMUser: [
    'VM.Audit',
    'VM.Console',
    'VM.Backup',
    'VM.Config.CDROM',
    'VM.Config.Cloudinit',
    'VM.PowerMgmt',
  ],
  PVEAuditor: ['VM.Audit', 'Datastore.Audit', 'Sys.Audit'],
  PVEDatastoreUser: ['Datastore.AllocateSpace', 'Datastore.Audit'],
  PVEDatastoreAdmin: [
    'Datastore.Allocate',
    'Datastore.AllocateSpace',
    'Datastore.AllocateTemplate',
    'Datastore.Audit',
  ],
  NoAccess: [],
};

export interface AclRule {
  path: string;
  /** A role name, or privileges given directly. */
  role?: string;
  privileges?: readonly string[];
  propagate?: boolean;
}

export interface TokenSpec {
  /** `user@realm!tokenid` */
  id: string;
  secret: string;
  /** Without rules the token has its user's rights (privilege separation off); with rules, only these. */
  acl?: readonly AclRule[];
}

export interface UserSpec {
  userid: string;
  password: string;
  acl?: readonly AclRule[];
}

/** Who a request runs as: a user, or a user's API token. */
export interface Identity {
  userid: string;
  tokenid?: string;
  /** `user@realm` or `user@realm!tokenid`, as it appears in UPIDs. */
  id: string;
  acl?: readonly AclRule[];
  viaTicket: boolean;
}

const ROOT = 'root@pam';
const TICKET_LIFETIME_S = 2 * 3600;
/** PVE accepts a ticket minted up to this far in the future (clock skew between nodes). */
const TICKET_SKEW_S = 300;

export class AccessControl {
  private readonly key = randomBytes(32);
  private readonly tokens: Map<string, TokenSpec>;
  private readonly users: Map<string, UserSpec>;

  constructor(tokens: readonly TokenSpec[], users: readonly UserSpec[]) {
    this.tokens = new Map(tokens.map((t) => [t.id, t]));
    this.users = new Map(users.map((u) => [u.userid, u]));
  }

  /** Authenticates a request; throws a 401 whose message becomes the status line. */
  authenticate(
    authorization: string | undefined,
    cookie: string | undefined,
    method: string,
    csrf: string | undefined,
  ): Identity {
    if (authorization?.startsWith('PVEAPIToken='))
      return this.authenticateToken(authorization.slice('PVEAPIToken='.length));
    const ticket = cookieValue(cookie, 'PVEAuthCookie');
    if (ticket === undefined) throw new PveError(401, 'No ticket');
    const userid = this.verifyTicket('PVE', ticket, TICKET_LIFETIME_S);
    if (userid === undefined) throw new PveError(401, 'authentication failure');
    if (method !== 'GET' && (csrf === undefined || !this.verifyCsrf(userid, csrf))) {
      throw new PveError(401, 'Permission denied - invalid csrf token');
    }
    const user = this.users.get(userid);
    return { userid, id: userid, viaTicket: true, ...(user?.acl ? { acl: user.acl } : {}) };
  }

  private authenticateToken(value: string): Identity {
    // The secret is everything after the last `=`; the token id may not contain one.
    const eq = value.lastIndexOf('=');
    const id = eq > 0 ? value.slice(0, eq) : '';
    const secret = eq > 0 ? value.slice(eq + 1) : '';
    const token = this.tokens.get(id);
    if (!token || !safeEqual(token.secret, secret)) throw new PveError(401, 'Authentication failed!');
    return this.tokenIdentity(token);
  }

  private tokenIdentity(token: TokenSpec): Identity {
    const [userid = '', tokenid = ''] = token.id.split('!');
    const acl = token.acl ?? this.users.get(userid)?.acl;
    return { userid, tokenid, id: token.id, viaTicket: false, ...(acl ? { acl } : {}) };
  }

  /**
   * The identity a user id or full token id stands for, as if it had signed in; undefined when the
   * simulator knows no such user or token (PVE then answers no privileges rather than an error). A
   * user exists when it can log in or owns a token.
   */
  identityOf(authid: string): Identity | undefined {
    if (authid.includes('!')) {
      const token = this.tokens.get(authid);
      return token ? this.tokenIdentity(token) : undefined;
    }
    const user = this.users.get(authid);
    const ownsToken = [...this.tokens.keys()].some((id) => id.startsWith(`${authid}!`));
    if (!user && !ownsToken && authid !== ROOT) return undefined;
    return { userid: authid, id: authid, viaTicket: true, ...(user?.acl ? { acl: user.acl } : {}) };
  }

  /** Every path some ACL rule names, as PVE's ACL tree holds them. */
  aclPaths(): string[] {
    const rules = [...this.tokens.values(), ...this.users.values()].flatMap((t) => t.acl ?? []);
    return [...new Set(rules.map((r) => normalise(r.path)))];
  }

  /** `POST /access/ticket`. */
  login(
    username: string,
    password: string,
  ): { ticket: string; CSRFPreventionToken: string; username: string } {
    const user = this.users.get(username);
    if (!user || !safeEqual(user.password, password)) throw new PveError(401, 'authentication failure');
    return {
      ticket: this.mintTicket('PVE', username, ''),
      CSRFPreventionToken: this.csrfToken(username),
      username,
    };
  }

  /** A VNC ticket bound to user, VM path and port, as vncproxy issues it. */
  mintVncTicket(identity: Identity, vmid: number, port: number): string {
    return this.mintTicket('PVEVNC', identity.id, `/vms/${vmid}:${port}`);
  }

  /** Accepted from `beforeS` before to `afterS` after issue. */
  verifyVncTicket(identity: Identity, ticket: string, vmid: number, port: number): boolean {
    const parts = /^PVEVNC:([0-9A-F]{8})::(.+)$/.exec(ticket);
    if (!parts) return false;
    const [, hexTime = '', sig = ''] = parts;
    const issued = parseInt(hexTime, 16);
    const age = Math.floor(Date.now() / 1000) - issued;
    if (age < -20 || age > 40) return false;
    return safeEqual(sig, this.sign(`PVEVNC:${hexTime}:${identity.id}:/vms/${vmid}:${port}`));
  }

  private mintTicket(prefix: string, userid: string, binding: string): string {
    const hexTime = Math.floor(Date.now() / 1000)
      .toString(16)
      .toUpperCase()
      .padStart(8, '0');
    const data = binding ? `${prefix}:${hexTime}` : `${prefix}:${userid}:${hexTime}`;
    const sig = this.sign(binding ? `${data}:${userid}:${binding}` : data);
    return `${data}::${sig}`;
  }

  private verifyTicket(prefix: string, ticket: string, lifetime: number): string | undefined {
    const m = new RegExp(`^${prefix}:([^:]+):([0-9A-F]{8})::(.+)$`).exec(decodeURIComponent(ticket));
    if (!m) return undefined;
    const [, userid = '', hexTime = '', sig = ''] = m;
    const age = Math.floor(Date.now() / 1000) - parseInt(hexTime, 16);
    if (age < -TICKET_SKEW_S || age > lifetime) return undefined;
    return safeEqual(sig, this.sign(`${prefix}:${userid}:${hexTime}`)) ? userid : undefined;
  }

  private csrfToken(userid: string): string {
    const hexTime = Math.floor(Date.now() / 1000)
      .toString(16)
      .toUpperCase()
      .padStart(8, '0');
    return `${hexTime}:${this.sign(`${hexTime}:${userid}`)}`;
  }

  private verifyCsrf(userid: string, token: string): boolean {
    const [hexTime = '', sig = ''] = token.split(':');
    const age = Math.floor(Date.now() / 1000) - parseInt(hexTime, 16);
    if (!/^[0-9A-F]{8}$/.test(hexTime) || age < -TICKET_SKEW_S || age > TICKET_LIFETIME_S) return false;
    return safeEqual(sig, this.sign(`${hexTime}:${userid}`));
  }

  private sign(data: string): string {
    return createHmac('sha256', this.key).update(data).digest('base64').replace(/=+$/, '');
  }
}

/** The privileges an identity holds on an ACL path (`/vms/100`, `/storage/local`, `/nodes/pve1`, `/`). */
export function privilegesOn(identity: Identity, path: string): Set<string> {
  return new Set(effectivePrivileges(identity, path).keys());
}

/**
 * The privileges an identity holds on an ACL path, each with PVE's propagate flag: 1 when the rule that
 * grants it reaches the paths below too, 0 when it holds on this path only.
 */
export function effectivePrivileges(identity: Identity, path: string): Map<string, 0 | 1> {
  if (!identity.acl) {
    // root@pam and tokens without privilege separation: everything.
    return new Map(ALL_PRIVILEGES.map((p) => [p, 1]));
  }
  // The most specific path carrying rules for this identity decides, as in PVE's ACL tree.
  const target = normalise(path);
  for (const candidate of ancestors(path)) {
    const rules = identity.acl.filter(
      (r) => normalise(r.path) === candidate && (candidate === target || r.propagate !== false),
    );
    if (rules.length === 0) continue;
    const held = new Map<string, 0 | 1>();
    for (const rule of rules) {
      const flag = rule.propagate === false ? 0 : 1;
      for (const p of [...(rule.privileges ?? []), ...(rule.role ? (ROLES[rule.role] ?? []) : [])]) {
        held.set(p, held.get(p) === 1 ? 1 : flag);
      }
    }
    return held;
  }
  return new Map();
}

function ancestors(path: string): string[] {
  const parts = normalise(path).split('/').filter(Boolean);
  const out: string[] = [];
  for (let n = parts.length; n > 0; n--) out.push(`/${parts.slice(0, n).join('/')}`);
  out.push('/');
  return out;
}

function normalise(path: string): string {
  const p = `/${path.split('/').filter(Boolean).join('/')}`;
  return p;
}

/** Throws PVE's 403 unless the identity holds one of `privileges` on `path`. */
export function checkPermission(identity: Identity, path: string, privileges: readonly string[]): void {
  const held = privilegesOn(identity, path);
  if (privileges.some((p) => held.has(p))) return;
  throw new PveError(403, `Permission check failed (${path}, ${privileges.join('|')})`);
}

export function hasPermission(identity: Identity, path: string, privilege: string): boolean {
  return privilegesOn(identity, path).has(privilege);
}

function cookieValue(cookie: string | undefined, name: string): string | undefined {
  for (const part of (cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return undefined;
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
