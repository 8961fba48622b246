import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

import { CliError } from './cli-error.js';

const DIR_MODE = 0o700;
const FILE_MODE = 0o600;
const CONFIG_FILE = 'config.json';
const CREDENTIALS_FILE = 'credentials.json';
const CLUSTERS_DIR = 'clusters';

/** A cluster name is a folder name: a DNS label, checked by the commands before it gets here. */
function clusterFile(cluster: string): string {
  return join(CLUSTERS_DIR, cluster, 'state.json');
}

/** `config.json`: where the API is and which organisation calls act in. */
export interface StoredConfig {
  readonly apiUrl?: string;
  readonly organizationId?: string;
}

/** `credentials.json`: the bearer token, never printed; a device sign-in's refresh token beside it. */
export interface StoredCredentials {
  readonly token: string;
  /** From `nr login`: exchanged for a new token when this one lapses. */
  readonly refreshToken?: string;
  /** When `token` lapses (ISO 8601), for a token from `nr login`. */
  readonly expiresAt?: string;
}

/** The config folder (`~/.nr` by default): created 0700, its files written 0600, each replaced atomically. */
export class ConfigStore {
  constructor(readonly dir: string) {}

  readConfig(): Promise<StoredConfig> {
    return this.readJson<StoredConfig>(CONFIG_FILE).then((c) => c ?? {});
  }

  writeConfig(config: StoredConfig): Promise<void> {
    return this.writeJson(CONFIG_FILE, config);
  }

  readCredentials(): Promise<StoredCredentials | undefined> {
    return this.readJson<StoredCredentials>(CREDENTIALS_FILE);
  }

  writeCredentials(credentials: StoredCredentials): Promise<void> {
    return this.writeJson(CREDENTIALS_FILE, credentials);
  }

  /** True when there was a file to delete. */
  async deleteCredentials(): Promise<boolean> {
    const existed = (await this.readCredentials()) !== undefined;
    try {
      await rm(join(this.dir, CREDENTIALS_FILE), { force: true });
    } catch (e: unknown) {
      throw unusable(`delete ${join(this.dir, CREDENTIALS_FILE)}`, e);
    }
    return existed;
  }

  /** A cluster's register state (`clusters/<name>/state.json`), or undefined before its first register. */
  readClusterState<T>(cluster: string): Promise<T | undefined> {
    return this.readJson<T>(clusterFile(cluster));
  }

  writeClusterState(cluster: string, state: unknown): Promise<void> {
    return this.writeJson(clusterFile(cluster), state);
  }

  /** Removes the cluster's folder (its state and anything cached for it). */
  async deleteCluster(cluster: string): Promise<void> {
    const path = join(this.dir, CLUSTERS_DIR, cluster);
    try {
      await rm(path, { recursive: true, force: true });
    } catch (e: unknown) {
      throw unusable(`delete ${path}`, e);
    }
  }

  /** The names of the clusters with a state file. */
  async clusterNames(): Promise<string[]> {
    const entries = await readdir(join(this.dir, CLUSTERS_DIR), { withFileTypes: true }).catch(() => []);
    return entries
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
  }

  private async readJson<T>(name: string): Promise<T | undefined> {
    const path = join(this.dir, name);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (e: unknown) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw unusable(`read ${path}`, e);
    }
    try {
      const parsed = JSON.parse(text) as unknown;
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
        throw new Error('not an object');
      return parsed as T;
    } catch (e: unknown) {
      throw unusable(`read ${path} (not a JSON object)`, e);
    }
  }

  /** Written to a temporary file beside the target, then renamed over it: a reader sees old or new, whole. */
  private async writeJson(name: string, value: unknown): Promise<void> {
    const path = join(this.dir, name);
    const folder = dirname(path);
    const temporary = join(folder, `.${randomBytes(6).toString('hex')}.tmp`);
    try {
      await mkdir(this.dir, { recursive: true, mode: DIR_MODE });
      await mkdir(folder, { recursive: true, mode: DIR_MODE });
      await writeFile(temporary, `${JSON.stringify(value, null, 2)}\n`, { mode: FILE_MODE, flag: 'wx' });
      await rename(temporary, path);
    } catch (e: unknown) {
      await rm(temporary, { force: true }).catch(() => undefined);
      throw unusable(`write ${path}`, e);
    }
  }
}

function unusable(what: string, e: unknown): CliError {
  const reason = e instanceof Error ? e.message : String(e);
  return new CliError('CONFIG_UNUSABLE', `Cannot ${what}: ${reason}`, { cause: e });
}
