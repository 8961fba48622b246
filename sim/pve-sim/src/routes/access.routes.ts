import { effectivePrivileges, type AccessControl, type Identity } from '../access-control.js';
import { requirePrivilege, type ApiRequest, type Route } from '../sim-core.js';
import { OPTIONAL_STRING } from './common-params.js';

/** PVE's `userid_or_token_regex`: `user@realm` or `user@realm!tokenid`. */
const USERID_OR_TOKEN = /^[^\s:/]+@[A-Za-z][A-Za-z0-9.\-_]+(?:![A-Za-z][A-Za-z0-9.\-_]+)?$/;

/** The top-level paths PVE always looks at when it dumps the whole tree. */
const TOP_LEVEL_PATHS = ['/', '/access', '/access/groups', '/nodes', '/pool', '/sdn', '/storage', '/vms'];

type PermissionTree = Record<string, Record<string, 0 | 1>>;

export function accessRoutes(): Route[] {
  return [
    {
      method: 'GET',
      path: '/access/permissions',
      params: {
        properties: {
          userid: { type: 'string', optional: true, pattern: USERID_OR_TOKEN },
          path: OPTIONAL_STRING,
        },
      },
      handler: (core, req) => permissions(core.access, req),
    },
  ];
}

/**
 * `GET /access/permissions`: the effective privileges of the caller, or of `userid` (a user or a full
 * token id). Anyone may read their own and their tokens'; anyone else's needs Sys.Audit on /access.
 * With `path`, exactly that path (inherited privileges included, empty when none); without, the
 * top-level paths and every path an ACL names, leaving out those without privileges.
 */
function permissions(access: AccessControl, req: ApiRequest): PermissionTree {
  const self = req.identity.id;
  const userid = (req.params.userid as string | undefined) ?? self;
  const ownToken = userid.includes('!') && userid.slice(0, userid.indexOf('!')) === self;
  if (userid !== self && !ownToken) requirePrivilege(req, '/access', 'Sys.Audit');
  const subject = access.identityOf(userid);
  const path = req.params.path as string | undefined;
  // Perl's truthiness: an empty path dumps the whole tree.
  if (path !== undefined && path !== '') return { [path]: privilegesAt(subject, path) };
  const tree: PermissionTree = {};
  for (const p of [...new Set([...TOP_LEVEL_PATHS, ...access.aclPaths()])].sort()) {
    const held = privilegesAt(subject, p);
    if (Object.keys(held).length > 0) tree[p] = held;
  }
  return tree;
}

function privilegesAt(subject: Identity | undefined, path: string): Record<string, 0 | 1> {
  if (!subject) return {};
  return Object.fromEntries([...effectivePrivileges(subject, path)].sort(([a], [b]) => a.localeCompare(b)));
}
