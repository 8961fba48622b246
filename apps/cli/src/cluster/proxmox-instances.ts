import { readFile, stat } from 'node:fs/promises';

import { OPERATOR_NAMESPACE } from '@noderings/deploy';
import { PROXMOX_INSTANCE_LABEL, type KubeObject } from '@noderings/kube';
import {
  createProxmoxClient,
  OPERATOR_PRIVILEGES,
  OPERATOR_ROLES,
  type EffectivePermissions,
  type ProxmoxClient,
} from '@noderings/proxmox';
import { parse } from 'yaml';

import { CliError, usageError } from '../cli-error.js';

/** One Proxmox VE the operator may use, as the provider's instances file names it. */
export interface ProxmoxInstance {
  readonly id: string;
  /** `https://host:8006`, without a trailing slash. */
  readonly url: string;
  /** `USER@REALM`. */
  readonly username: string;
  /** The token's name (the part after `!`). */
  readonly tokenName: string;
  readonly tokenSecret: string;
  /** SHA-256 of Proxmox's certificate, for its self-signed one; without it the system CAs decide. */
  readonly tlsFingerprint?: string;
}

const ID = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

/**
 * Reads `--proxmox-instances-file`: YAML, `instances:` or a bare list of `{id, url, username, tokenId,
 * tokenSecret, tlsFingerprint}` (`tokenId` may be `USER@REALM!NAME`, then `username` may be left out).
 * The file holds token secrets, so it must be readable by its owner alone (0600); URLs must be https.
 */
export async function readProxmoxInstances(path: string): Promise<ProxmoxInstance[]> {
  const info = await stat(path).catch(() => undefined);
  if (info === undefined) throw usageError(`--proxmox-instances-file: ${path} does not exist`);
  if ((info.mode & 0o077) !== 0)
    throw usageError(
      `--proxmox-instances-file: ${path} is readable by others (mode ${(info.mode & 0o777).toString(8)}); it holds token secrets: chmod 600 ${path}`,
    );
  let document: unknown;
  try {
    document = parse(await readFile(path, 'utf8')) as unknown;
  } catch (e: unknown) {
    throw usageError(
      `--proxmox-instances-file: ${path} is not YAML: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  const list = Array.isArray(document) ? document : (document as { instances?: unknown } | null)?.instances;
  if (!Array.isArray(list) || list.length === 0)
    throw usageError(
      `--proxmox-instances-file: ${path} lists no instances (an "instances:" list is expected)`,
    );
  const ids = new Set<string>();
  const instances = list.map((entry: unknown, i) => {
    const bad = (why: string) => usageError(`--proxmox-instances-file: instance ${String(i + 1)}: ${why}`);
    if (typeof entry !== 'object' || entry === null) throw bad('not a mapping');
    const e = entry as Record<string, unknown>;
    const text = (key: string): string | undefined => {
      const value = e[key];
      if (value === undefined || value === null) return undefined;
      if (typeof value !== 'string' || value.trim() === '') throw bad(`${key} must be a non-empty string`);
      return value.trim();
    };
    const id = text('id') ?? `proxmox-${String(i + 1)}`;
    if (!ID.test(id)) throw bad(`id "${id}" is not a DNS label`);
    if (ids.has(id)) throw bad(`id "${id}" is listed twice`);
    ids.add(id);
    const rawUrl = text('url');
    if (rawUrl === undefined) throw bad('url is required');
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      throw bad(`url "${rawUrl}" is not a URL`);
    }
    if (url.protocol !== 'https:') throw bad(`url must be https://, not ${url.protocol}//`);
    const tokenId = text('tokenId');
    if (tokenId === undefined) throw bad('tokenId is required');
    const [user, name]: [string | undefined, string] = tokenId.includes('!')
      ? [tokenId.slice(0, tokenId.indexOf('!')), tokenId.slice(tokenId.indexOf('!') + 1)]
      : [undefined, tokenId];
    const username = text('username') ?? user;
    if (!username?.includes('@')) throw bad('username must be USER@REALM');
    if (user !== undefined && user !== username) throw bad(`tokenId belongs to ${user}, not ${username}`);
    const tokenSecret = text('tokenSecret');
    if (tokenSecret === undefined) throw bad('tokenSecret is required');
    const tlsFingerprint = text('tlsFingerprint');
    return {
      id,
      url: url.href.replace(/\/+$/, ''),
      username,
      tokenName: name,
      tokenSecret,
      ...(tlsFingerprint === undefined ? {} : { tlsFingerprint }),
    };
  });
  if (instances.length > 1)
    throw usageError(
      `--proxmox-instances-file: ${path} lists ${String(instances.length)} instances; an agent serves one Proxmox cluster (register another agent for another)`,
    );
  return instances;
}

/**
 * The instance name the control plane's orders give (its ProxmoxVMs and the inventory it reads name
 * `default`): the credentials Secret of the agent's one instance carries it as its instance label.
 */
const ORDER_INSTANCE = 'default';

export function proxmoxClientFor(instance: ProxmoxInstance): ProxmoxClient {
  return createProxmoxClient({
    baseUrl: instance.url,
    token: { userid: instance.username, tokenId: instance.tokenName, secret: instance.tokenSecret },
    tls: instance.tlsFingerprint === undefined ? {} : { fingerprint: instance.tlsFingerprint },
    timeoutMs: 15_000,
  });
}

/** The ACL paths OPERATOR_PRIVILEGES names, each asked once. */
const OPERATOR_PATHS = [...new Set(OPERATOR_PRIVILEGES.map((r) => r.path))];

/**
 * Checks the token against the instance's API: it authenticates, may read what the operator reads
 * first (version and node list), and holds every privilege the operator needs. The Proxmox error, with
 * the instance's id, when a call fails; REGISTER_REFUSED naming what is missing when a privilege is.
 */
export async function checkProxmoxInstance(
  instance: ProxmoxInstance,
): Promise<{ version: string; nodes: string[] }> {
  const client = proxmoxClientFor(instance);
  let found: { version: string; nodes: string[]; permissions: EffectivePermissions };
  try {
    const version = await client.getVersion();
    const nodes = (await client.getNodes()).map((n) => n.node).sort();
    if (nodes.length === 0) throw new Error('the token sees no node (does it have Sys.Audit on /nodes?)');
    const permissions: EffectivePermissions = {};
    for (const path of OPERATOR_PATHS) Object.assign(permissions, await client.getPermissions({ path }));
    found = { version: version.version, nodes, permissions };
  } catch (e: unknown) {
    throw new CliError(
      'API_UNREACHABLE',
      `Proxmox instance ${instance.id} (${instance.url}) refused or failed the check: ${e instanceof Error ? e.message : String(e)}`,
    );
  } finally {
    await client.close();
  }
  const refusal = operatorPrivilegeRefusal(`${instance.username}!${instance.tokenName}`, found.permissions);
  if (refusal !== undefined)
    throw new CliError('REGISTER_REFUSED', `Proxmox instance ${instance.id} (${instance.url}): ${refusal}`);
  return { version: found.version, nodes: found.nodes };
}

/**
 * Why a token cannot serve the operator, from its effective permissions on OPERATOR_PRIVILEGES' paths:
 * every missing privilege with its path, what the operator needs it for, and roles that grant it; or
 * undefined when nothing is missing. A privilege granted without propagate (flag 0) counts as missing,
 * since it does not reach the guests and storages below the path.
 */
export function operatorPrivilegeRefusal(
  tokenId: string,
  permissions: EffectivePermissions,
): string | undefined {
  const short = OPERATOR_PRIVILEGES.map((required) => ({
    ...required,
    missing: required.privileges.filter((p) => permissions[required.path]?.[p] !== 1),
  })).filter((r) => r.missing.length > 0);
  if (short.length === 0) return undefined;
  const paths = [...new Set(short.map((r) => r.path))];
  const lacks = paths.map(
    (path) =>
      `${short
        .filter((r) => r.path === path)
        .flatMap((r) => r.missing)
        .join(', ')} on ${path}`,
  );
  const unpropagated = short.flatMap((r) =>
    r.missing.filter((p) => permissions[r.path]?.[p] === 0).map((p) => `${p} on ${r.path}`),
  );
  const note =
    unpropagated.length === 0
      ? ''
      : ` (${series(unpropagated)} ${unpropagated.length === 1 ? 'is' : 'are'} granted without propagate, so not below the path)`;
  const roles = OPERATOR_ROLES.filter((r) => paths.includes(r.path)).map((r) => `${r.role} on ${r.path}`);
  return (
    `the token ${tokenId} lacks ${series(lacks)}${note}: the operator needs them for ` +
    `${short.map((r) => r.why).join('; ')}; grant a role with them, propagated (e.g. ${series(roles)})`
  );
}

/** `a`, `a, and b`, `a, b, and c`: the parts themselves hold commas. */
function series(parts: readonly string[]): string {
  if (parts.length < 2) return parts.join('');
  return `${parts.slice(0, -1).join(', ')}, and ${parts[parts.length - 1] ?? ''}`;
}

export function credentialSecretName(instance: ProxmoxInstance): string {
  return `proxmox-credentials-${instance.id}`;
}

/** The Secret the operator reads the instance's credentials from, labelled as the instance orders name. */
export function credentialSecret(instance: ProxmoxInstance): KubeObject {
  const data: Record<string, string> = {
    PROXMOX_URL: instance.url,
    PROXMOX_USERNAME: instance.username,
    PROXMOX_TOKEN_ID: instance.tokenName,
    PROXMOX_TOKEN_SECRET: instance.tokenSecret,
    ...(instance.tlsFingerprint === undefined ? {} : { PROXMOX_TLS_FINGERPRINT: instance.tlsFingerprint }),
  };
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      namespace: OPERATOR_NAMESPACE,
      name: credentialSecretName(instance),
      labels: { [PROXMOX_INSTANCE_LABEL]: ORDER_INSTANCE, 'app.kubernetes.io/managed-by': 'nr' },
    },
    type: 'Opaque',
    data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
  } as KubeObject;
}
