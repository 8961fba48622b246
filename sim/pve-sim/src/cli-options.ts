import { parseArgs } from 'node:util';
import { ROLES, type AclRule, type TokenSpec, type UserSpec } from './access-control.js';
import type { PveSimOptions } from './pve-sim.js';
import type { PveMajor } from './pve-release.js';

export const USAGE = `Usage: npm run pve-sim -- [options]

  --listen HOST:PORT        address to serve on (default 127.0.0.1:8006)
  --http                    plain HTTP instead of HTTPS with a self-signed certificate
  --nodes N                 nodes in the default scenario (default 3)
  --scenario FILE           a JSON scenario replacing the default one
  --state FILE              keep the cluster state in FILE across restarts
  --token ID=SECRET         an API token, e.g. 'root@pam!sim=SECRET' (repeatable)
  --acl PATH=ROLE|PRIVS     an ACL rule for the --token before it, e.g. /vms=PVEVMAdmin or
                            /storage/local=Datastore.AllocateSpace,Datastore.Audit (repeatable)
  --user USER@REALM:PASS    a user for ticket login (repeatable)
  --pve-version 8|9         the Proxmox VE release to present (default 8)
  --task-ms N               how long each task runs (default 250)
  --auth-delay-ms N         how long a 401 is held back (default 3000, as PVE)
  --resources-lag-ms N      lag of names/status in /cluster/resources (default 0)
  --help                    this text
`;

export class UsageError extends Error {}

/** Parses the command line once; every value is checked here, not later. */
export function parseCliOptions(
  argv: readonly string[],
): (PveSimOptions & { scenarioFile?: string }) | 'help' {
  const { values, tokens } = parseFlags(argv);
  if (values.help) return 'help';
  const tokenSpecs: TokenSpec[] = [];
  for (const t of tokens) {
    if (t.kind !== 'option' || t.value === undefined) continue;
    if (t.name === 'token') tokenSpecs.push(parseToken(t.value));
    if (t.name === 'acl') {
      const last = tokenSpecs.at(-1);
      if (!last) throw new UsageError('--acl must follow the --token it applies to');
      last.acl = [...(last.acl ?? []), parseAcl(t.value)];
    }
  }
  const nodes = values.nodes === undefined ? undefined : int('--nodes', values.nodes, 1, 32);
  return {
    listen: values.listen ?? '127.0.0.1:8006',
    http: values.http === true,
    ...(nodes !== undefined ? { nodes } : {}),
    ...(values.scenario !== undefined ? { scenarioFile: values.scenario } : {}),
    ...(values.state !== undefined ? { statePath: values.state } : {}),
    tokens: tokenSpecs,
    users: (values.user ?? []).map(parseUser),
    taskMs: int('--task-ms', values['task-ms'] ?? '250', 0, 600_000),
    authFailDelayMs: int('--auth-delay-ms', values['auth-delay-ms'] ?? '3000', 0, 60_000),
    pveVersion: int('--pve-version', values['pve-version'] ?? '8', 8, 9) as PveMajor,
    resourcesLagMs: int('--resources-lag-ms', values['resources-lag-ms'] ?? '0', 0, 600_000),
  };
}

function parseFlags(argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
      strict: true,
      tokens: true,
      options: {
        listen: { type: 'string' },
        http: { type: 'boolean' },
        nodes: { type: 'string' },
        scenario: { type: 'string' },
        state: { type: 'string' },
        token: { type: 'string', multiple: true },
        acl: { type: 'string', multiple: true },
        user: { type: 'string', multiple: true },
        'task-ms': { type: 'string' },
        'auth-delay-ms': { type: 'string' },
        'resources-lag-ms': { type: 'string' },
        'pve-version': { type: 'string' },
        help: { type: 'boolean' },
      },
    });
  } catch (e: unknown) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
}

function int(flag: string, value: string, min: number, max: number): number {
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`${flag} wants a whole number from ${min} to ${max}, got '${value}'`);
  }
  return Number(value);
}

function parseToken(value: string): TokenSpec {
  // Split at the last `=`, as PVE splits the token header.
  const eq = value.lastIndexOf('=');
  const id = value.slice(0, eq);
  if (eq <= 0 || !/^[^@!\s]+@[^@!\s]+![A-Za-z][A-Za-z0-9._-]*$/.test(id) || value.length - eq < 2) {
    throw new UsageError(`--token wants USER@REALM!TOKENID=SECRET, got '${value}'`);
  }
  return { id, secret: value.slice(eq + 1) };
}

function parseAcl(value: string): AclRule {
  const eq = value.indexOf('=');
  const path = value.slice(0, eq);
  const grant = value.slice(eq + 1);
  if (eq <= 0 || !path.startsWith('/') || grant === '')
    throw new UsageError(`--acl wants PATH=ROLE or PATH=PRIV,PRIV, got '${value}'`);
  if (!grant.includes('.')) {
    if (!(grant in ROLES))
      throw new UsageError(`--acl: unknown role '${grant}' (known: ${Object.keys(ROLES).join(', ')})`);
    return { path, role: grant };
  }
  return { path, privileges: grant.split(',') };
}

function parseUser(value: string): UserSpec {
  const colon = value.indexOf(':');
  if (colon <= 0 || !value.slice(0, colon).includes('@'))
    throw new UsageError(`--user wants USER@REALM:PASSWORD, got '${value}'`);
  return { userid: value.slice(0, colon), password: value.slice(colon + 1) };
}
