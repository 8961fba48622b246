import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { parsePlatformVersions, type PlatformComponent, type PlatformVersions } from '@noderings/domain';

import { CliError } from '../cli-error.js';

export type { PlatformVersions };
export type PinnedComponent = PlatformComponent;

/** What register needs pinned, and how: the two downloads and the operator's image. */
export const REQUIRED_DOWNLOADS = ['k3s', 'calico'] as const;
export const OPERATOR_COMPONENT = 'proxmox-operator';
export const PVE_EXPORTER_COMPONENT = 'pve-exporter';
export const ALLOY_COMPONENT = 'alloy';

/**
 * The CLI's own pins, for `--offline` when no document was fetched before. Only what upstream publishes a
 * checksum for is here; a component without one is not pinned, so an offline register without a
 * fetched document stops at the first component it lacks rather than install something unverified.
 */
const BUILT_IN: PlatformVersions = {
  channel: 'built-in',
  components: [
    {
      name: 'k3s',
      version: 'v1.34.2+k3s1',
      downloadUrl: 'https://github.com/k3s-io/k3s/releases/download/v1.34.2%2Bk3s1/k3s',
      checksumSha256: '15811d34187e03fe29d0e46108c42cc33e62cec1b3d9d80f50944536ebcad40a',
    },
  ],
};

const FETCH_TIMEOUT_MS = 15_000;
const FETCH_ATTEMPTS = 3;
const CACHED_DOCUMENT = 'platform-versions.json';

class PinError extends CliError {
  constructor(message: string) {
    super('API_UNREACHABLE', message);
  }
}

/** Checks a document from the API (or the cache): every component pinned by a SHA-256, names unique. */
function parsePins(value: unknown, source: string): PlatformVersions {
  try {
    return parsePlatformVersions(value);
  } catch (e: unknown) {
    throw new PinError(
      `The platform versions from ${source} are unusable: ${e instanceof Error ? e.message : String(e)}.`,
    );
  }
}

/**
 * The pins: fetched from the API (anonymous, three attempts) and kept in the config folder, or with
 * `offline` the kept copy, else the CLI's own.
 */
export async function loadPlatformVersions(options: {
  readonly apiUrl: string;
  readonly configDir: string;
  readonly offline: boolean;
  /** Keep the fetched document for `--offline` (not on a dry run, which changes nothing). */
  readonly keep: boolean;
}): Promise<PlatformVersions> {
  const cached = join(options.configDir, CACHED_DOCUMENT);
  if (options.offline) {
    const text = await readFile(cached, 'utf8').catch(() => undefined);
    return text === undefined ? BUILT_IN : parsePins(JSON.parse(text) as unknown, cached);
  }
  const url = `${options.apiUrl}/v1/platform-versions`;
  let lastError = '';
  for (let attempt = 1; attempt <= FETCH_ATTEMPTS; attempt++) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
      if (!response.ok) throw new Error(`answered ${String(response.status)}`);
      const document = parsePins(await response.json(), url);
      if (options.keep) await writeAtomically(cached, `${JSON.stringify(document, null, 2)}\n`, 0o600);
      return document;
    } catch (e: unknown) {
      if (e instanceof PinError) throw e;
      lastError = e instanceof Error ? e.message : String(e);
    }
  }
  throw new PinError(
    `Cannot fetch the platform versions from ${url}: ${lastError}. Use --offline to use the pins nr has.`,
  );
}

export function pinOf(pins: PlatformVersions, name: string): PinnedComponent {
  const pin = pins.components.find((c) => c.name === name);
  if (pin === undefined)
    throw new PinError(
      `The platform versions (${pins.channel}) pin no ${name}; nr installs nothing unpinned.`,
    );
  return pin;
}

/** Where a download is kept once verified: `~/.nr/bin/<name>-<version>`. */
export function cachedDownloadPath(configDir: string, pin: PinnedComponent): string {
  return join(configDir, 'bin', `${pin.name}-${pin.version.replace(/[^A-Za-z0-9._+-]/g, '_')}`);
}

/** The verified download's bytes: the kept copy when its checksum still matches, else fetched and checked. */
export async function verifiedDownload(configDir: string, pin: PinnedComponent): Promise<Buffer> {
  const path = cachedDownloadPath(configDir, pin);
  const kept = await readFile(path).catch(() => undefined);
  if (kept !== undefined && sha256(kept) === pin.checksumSha256) return kept;
  const url = pin.downloadUrl;
  if (url === undefined) throw new PinError(`${pin.name} is an image, not a download`);
  let bytes: Buffer;
  try {
    bytes = url.startsWith('file:')
      ? await readFile(fileURLToPath(url))
      : Buffer.from(await (await fetchOk(url)).arrayBuffer());
  } catch (e: unknown) {
    throw new PinError(
      `Cannot download ${pin.name} ${pin.version} from ${url}: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  const actual = sha256(bytes);
  if (actual !== pin.checksumSha256)
    throw new PinError(
      `${pin.name} ${pin.version} from ${url} has SHA-256 ${actual}, not the pinned ${pin.checksumSha256}; nothing was installed.`,
    );
  await writeAtomically(path, bytes, 0o700);
  return bytes;
}

export function isCached(configDir: string, pin: PinnedComponent): Promise<boolean> {
  return readFile(cachedDownloadPath(configDir, pin)).then(
    (bytes) => sha256(bytes) === pin.checksumSha256,
    () => false,
  );
}

function sha256(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

async function fetchOk(url: string): Promise<Response> {
  const response = await fetch(url, { redirect: 'follow', signal: AbortSignal.timeout(10 * 60_000) });
  if (!response.ok) throw new Error(`answered ${String(response.status)}`);
  return response;
}

async function writeAtomically(path: string, content: string | Uint8Array, mode: number): Promise<void> {
  await mkdir(join(path, '..'), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${String(process.pid)}.tmp`;
  await writeFile(temporary, content, { mode });
  await rename(temporary, path);
}
