import { existsSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import type { ServingCertificates } from './certificates.js';
import type { StoreSnapshot } from './object-store.js';

const STATE_FILE_VERSION = 1;
const SAVE_DELAY_MS = 50;

/** What survives a restart: the objects, and the identity clients hold on to (CA, admin token, token key). */
export interface PersistedState {
  store: StoreSnapshot;
  adminToken: string;
  /** Base64 of the service-account token signing key. */
  signingKey: string;
  certificates?: ServingCertificates;
}

export async function loadState(path: string): Promise<PersistedState | undefined> {
  if (!existsSync(path)) return undefined;
  const parsed = JSON.parse(await readFile(path, 'utf8')) as { version?: number; state?: PersistedState };
  if (parsed.version !== STATE_FILE_VERSION || !parsed.state) {
    throw new Error(`${path}: not a kube-sim state file (version ${STATE_FILE_VERSION})`);
  }
  return parsed.state;
}

/** Writes the state to `path` atomically (a temporary file renamed over it), at most once per delay. */
export class StateWriter {
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly path: string,
    private readonly snapshot: () => PersistedState,
  ) {}

  changed(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.writing = this.writing.then(() => this.write());
    }, SAVE_DELAY_MS);
  }

  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
      this.writing = this.writing.then(() => this.write());
    }
    await this.writing;
  }

  private async write(): Promise<void> {
    const tmp = `${this.path}.tmp`;
    await writeFile(tmp, JSON.stringify({ version: STATE_FILE_VERSION, state: this.snapshot() }), {
      mode: 0o600,
    });
    await rename(tmp, this.path);
  }
}
