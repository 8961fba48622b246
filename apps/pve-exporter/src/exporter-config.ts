import { readFile } from 'node:fs/promises';

import { PveInvalidArgumentError, createProxmoxClient } from '@noderings/proxmox';
import type { ProxmoxClientOptions } from '@noderings/proxmox';
import { parse } from 'yaml';

import { ExporterError } from './exporter-error.js';

/** What one module gives the Proxmox client of a scrape; the base URL comes from the scrape's target. */
export interface ModuleConfig {
  readonly client: Pick<ProxmoxClientOptions, 'token' | 'login' | 'tls'>;
  /** Values that must never appear in a log line or an answer (the token secret, the password). */
  readonly secrets: readonly string[];
}

/** The modules a scrape's `module=` chooses from, as in prometheus-pve-exporter's `pve.yml`. */
export interface ExporterConfig {
  readonly modules: ReadonlyMap<string, ModuleConfig>;
  /** The file the modules came from, or the environment: for messages. */
  readonly source: string;
}

/**
 * The module keys read: proxmoxer's, for API token or password authentication, and NodeRings'
 * `tls_fingerprint` (a pinned SHA-256 certificate fingerprint, DESIGN §3.3), which upstream lacks.
 */
const MODULE_KEYS = [
  'user',
  'password',
  'token_name',
  'token_value',
  'verify_ssl',
  'tls_fingerprint',
] as const;
type ModuleKey = (typeof MODULE_KEYS)[number];

/** Where the modules come from when `PVE_USER` is set: the environment, in place of the file (upstream). */
const ENVIRONMENT_SOURCE = 'the environment (PVE_USER is set)';
const DEFAULT_MODULE = 'default';

/**
 * The exporter's modules: from the environment when `PVE_USER` is set (`PVE_PASSWORD`, `PVE_TOKEN_NAME`,
 * `PVE_TOKEN_VALUE`, `PVE_VERIFY_SSL`, `PVE_MODULE`), as upstream does, else from the YAML `file`.
 * Every problem is a CONFIG_INVALID error that names the file (or the environment) and the module.
 */
export async function loadExporterConfig(input: {
  file: string;
  env: Readonly<Record<string, string | undefined>>;
}): Promise<ExporterConfig> {
  const { env } = input;
  if (env.PVE_USER !== undefined) return configFromEnvironment(env);
  let text: string;
  try {
    text = await readFile(input.file, 'utf8');
  } catch (e: unknown) {
    throw invalid(`cannot read the config file ${input.file}: ${reason(e)}`, e);
  }
  return parseExporterConfig(text, input.file);
}

/** Modules from the text of a `pve.yml`: a mapping of module names to their settings. */
export async function parseExporterConfig(text: string, source: string): Promise<ExporterConfig> {
  let document: unknown;
  try {
    document = parse(text);
  } catch (e: unknown) {
    throw invalid(`${source}: not valid YAML: ${firstLine(reason(e))}`, e);
  }
  if (!isMapping(document)) {
    throw invalid(`${source}: expected a mapping of module names to modules (e.g. "default:")`);
  }
  const entries = Object.entries(document);
  if (entries.length === 0) throw invalid(`${source}: no modules`);
  const modules = new Map<string, ModuleConfig>();
  for (const [name, settings] of entries) modules.set(name, await readModule(name, settings, source));
  return { modules, source };
}

async function configFromEnvironment(
  env: Readonly<Record<string, string | undefined>>,
): Promise<ExporterConfig> {
  const settings: Partial<Record<ModuleKey, unknown>> = {
    user: env.PVE_USER,
    ...(env.PVE_PASSWORD === undefined ? {} : { password: env.PVE_PASSWORD }),
    ...(env.PVE_TOKEN_NAME === undefined ? {} : { token_name: env.PVE_TOKEN_NAME }),
    ...(env.PVE_TOKEN_VALUE === undefined ? {} : { token_value: env.PVE_TOKEN_VALUE }),
    ...(env.PVE_VERIFY_SSL === undefined
      ? {}
      : { verify_ssl: !['false', '0'].includes(env.PVE_VERIFY_SSL.toLowerCase()) }),
  };
  const name = env.PVE_MODULE ?? DEFAULT_MODULE;
  const modules = new Map([[name, await readModule(name, settings, ENVIRONMENT_SOURCE)]]);
  return { modules, source: ENVIRONMENT_SOURCE };
}

async function readModule(name: string, settings: unknown, source: string): Promise<ModuleConfig> {
  const where = `${source}: module '${name}'`;
  if (!isMapping(settings) || Object.keys(settings).length === 0) {
    throw invalid(`${where}: expected a mapping with user and token_name/token_value (or password)`);
  }
  const unknown = Object.keys(settings).filter((key) => !(MODULE_KEYS as readonly string[]).includes(key));
  if (unknown.length > 0) {
    throw invalid(
      `${where}: unknown key ${unknown.map((k) => `'${k}'`).join(', ')} (known: ${MODULE_KEYS.join(', ')})`,
    );
  }
  const text = (key: ModuleKey): string | undefined => {
    const value = settings[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string' || value === '')
      throw invalid(`${where}: ${key} must be a non-empty string`);
    return value;
  };
  const user = text('user');
  if (user === undefined) throw invalid(`${where}: user is missing`);
  const tokenName = text('token_name');
  const tokenValue = text('token_value');
  const password = text('password');
  if ((tokenName === undefined) !== (tokenValue === undefined)) {
    throw invalid(
      `${where}: ${tokenName === undefined ? 'token_name' : 'token_value'} is missing (give both or neither)`,
    );
  }
  let credentials: Pick<ProxmoxClientOptions, 'token' | 'login'>;
  // proxmoxer prefers the token when both are given; so does this.
  if (tokenName !== undefined && tokenValue !== undefined) {
    credentials = { token: { userid: user, tokenId: tokenName, secret: tokenValue } };
  } else if (password !== undefined) {
    credentials = { login: { username: user, password } };
  } else {
    throw invalid(`${where}: needs token_name and token_value (or password)`);
  }
  const fingerprint = text('tls_fingerprint');
  let tls: ProxmoxClientOptions['tls'];
  if (fingerprint === undefined) tls = await tlsOptions(settings.verify_ssl, where);
  else if (settings.verify_ssl === undefined || settings.verify_ssl === true) tls = { fingerprint };
  else throw invalid(`${where}: tls_fingerprint pins the certificate: leave verify_ssl out (or true)`);
  const client = { ...credentials, tls };
  await checkWithClient(client, where);
  return { client, secrets: [tokenValue, password].filter((s) => s !== undefined) };
}

/** `verify_ssl` as the requests library reads it: a boolean, or the path of a CA bundle to trust. */
async function tlsOptions(value: unknown, where: string): Promise<ProxmoxClientOptions['tls']> {
  if (value === undefined || value === null || value === true) return {};
  if (value === false) return { insecureSkipVerify: true };
  if (typeof value !== 'string' || value === '') {
    throw invalid(`${where}: verify_ssl must be true, false or the path of a CA certificate file`);
  }
  try {
    return { caPem: await readFile(value, 'utf8') };
  } catch (e: unknown) {
    throw invalid(`${where}: verify_ssl: cannot read the CA certificate file ${value}: ${reason(e)}`, e);
  }
}

/** The client's own checks (`user@realm`, token id, PEM), so that a bad module stops the start, not scrapes. */
async function checkWithClient(options: ModuleConfig['client'], where: string): Promise<void> {
  let client;
  try {
    client = createProxmoxClient({ baseUrl: 'https://localhost', ...options });
  } catch (e: unknown) {
    if (e instanceof PveInvalidArgumentError) throw invalid(`${where}: ${e.pveMessage}`, e);
    throw e;
  }
  await client.close();
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalid(message: string, cause?: unknown): ExporterError {
  return new ExporterError('CONFIG_INVALID', message, cause === undefined ? undefined : { cause });
}

function reason(e: unknown): string {
  if (e instanceof Error && 'code' in e && e.code === 'ENOENT') return 'no such file';
  if (e instanceof Error && 'code' in e && e.code === 'EACCES') return 'permission denied';
  return e instanceof Error ? e.message : String(e);
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? text;
}
