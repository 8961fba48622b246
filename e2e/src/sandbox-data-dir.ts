import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { SandboxError } from './sandbox-error.js';
import { parseSeedRecord, type SeedRecord } from './seed-record.js';

/** Left in the folder so that a later start knows the folder is the sandbox's to empty. */
const MARKER_FILE = '.noderings-sandbox';
const SEED_RECORD_FILE = 'sandbox.json';
/** The process id of the sandbox using the folder, while it runs. */
const PID_FILE = 'sandbox.pid';
const SECRET_KEY_FILE = 'secret.key';
const SECRET_KEY_BYTES = 32;

/** Where each part keeps its state in the data folder. */
interface SandboxPaths {
  /** The control plane's embedded database. */
  readonly database: string;
  /** The 32-byte key sealing the control plane's secrets (base64); without it the database is useless. */
  readonly secretKey: string;
  /** Written once anything changed on pve-sim; absent, the cluster is as its scenario makes it. */
  readonly pveState: string;
  readonly kubeState: string;
  /** kube-sim's admin kubeconfig, for the person at the keyboard. */
  readonly adminKubeconfig: string;
  /** The operator's, with its service account's token (new at every start). */
  readonly operatorKubeconfig: string;
  /** The platform versions document and the simulated k3s it pins (written at every start). */
  readonly platformVersions: string;
  /** What `nr` needs to be tried against the sandbox: a config folder, a simulated host, an instances file. */
  readonly nrTrial: string;
}

export interface SandboxDataDir {
  readonly dir: string;
  readonly paths: SandboxPaths;
  /** What the last complete seed left behind; undefined when this start seeds afresh. */
  readonly seedRecord: SeedRecord | undefined;
  /** The control plane's key: the one kept in the folder, or a new one on a fresh start. */
  readonly secretKey: Buffer;
  /** Written once seeding has finished: from then on, starts reuse the folder. */
  writeSeedRecord(record: SeedRecord): Promise<void>;
  /** Lets another sandbox use the folder. */
  release(): Promise<void>;
}

function sandboxPaths(dir: string): SandboxPaths {
  return {
    database: join(dir, 'pglite'),
    secretKey: join(dir, SECRET_KEY_FILE),
    pveState: join(dir, 'pve-sim.json'),
    kubeState: join(dir, 'kube-sim.json'),
    adminKubeconfig: join(dir, 'kubeconfig.yaml'),
    operatorKubeconfig: join(dir, 'operator-kubeconfig.yaml'),
    platformVersions: join(dir, 'platform-versions'),
    nrTrial: join(dir, 'nr'),
  };
}

/**
 * Opens the data folder: a folder holding a complete seed is reused as it is; any other (new, empty, a
 * start that did not finish seeding, or `reset`) is emptied for a fresh seed. A folder with files but no
 * marker is refused untouched, so that `--data-dir` pointed at the wrong place costs nobody their files;
 * a seeded folder missing a part of its state is refused too, rather than half reused, and so is a folder
 * another running sandbox uses.
 */
export async function openSandboxDataDir(
  dir: string,
  options: { readonly reset?: boolean } = {},
): Promise<SandboxDataDir> {
  const entries = await entriesOf(dir);
  if (entries.length > 0 && !entries.includes(MARKER_FILE)) {
    throw new SandboxError(
      'FOREIGN_DATA_DIR',
      `${dir} is not empty and was not made by the sandbox; choose another --data-dir or empty it yourself`,
    );
  }
  if (entries.includes(PID_FILE)) await refuseIfInUse(dir);
  const paths = sandboxPaths(dir);
  const handle = {
    dir,
    paths,
    writeSeedRecord: (record: SeedRecord) =>
      writeFile(join(dir, SEED_RECORD_FILE), `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 }),
    release: () => rm(join(dir, PID_FILE), { force: true }),
  };
  const claim = () => writeFile(join(dir, PID_FILE), `${String(process.pid)}\n`);
  if (options.reset !== true && entries.includes(SEED_RECORD_FILE)) {
    const seedRecord = await readSeedRecord(dir);
    // pve-sim writes its state once something changed; until then its scenario is the state.
    const missing = [paths.database, paths.secretKey, paths.kubeState]
      .map((path) => path.slice(dir.length + 1))
      .filter((name) => !entries.includes(name));
    if (missing.length > 0)
      throw inconsistent(dir, `${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing`);
    const secretKey = await readSecretKey(dir, paths.secretKey);
    await claim();
    return { ...handle, seedRecord, secretKey };
  }
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await writeFile(
    join(dir, MARKER_FILE),
    'Made by `npm start`, which keeps the sandbox here between starts; `npm start -- --reset` empties it.\n',
  );
  const secretKey = randomBytes(SECRET_KEY_BYTES);
  await writeFile(paths.secretKey, `${secretKey.toString('base64')}\n`, { mode: 0o600 });
  await claim();
  return { ...handle, seedRecord: undefined, secretKey };
}

/** A seeded folder the sandbox cannot reuse: what is wrong, and the way out. */
export function inconsistent(dir: string, what: string): SandboxError {
  return new SandboxError(
    'INCONSISTENT_DATA_DIR',
    `the sandbox in ${dir} was seeded, but ${what}; start with --reset to seed it afresh (this empties ${dir})`,
  );
}

/** Another process's sandbox in the folder, still running: emptying or reusing the folder would break it. */
async function refuseIfInUse(dir: string): Promise<void> {
  const pid = Number((await readFile(join(dir, PID_FILE), 'utf8')).trim());
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || !isRunning(pid)) return;
  throw new SandboxError(
    'DATA_DIR_IN_USE',
    `${dir} is in use by the sandbox running as process ${String(pid)}; stop it first, or choose another --data-dir`,
  );
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e: unknown) {
    // EPERM: it runs, as another user.
    return e instanceof Error && 'code' in e && e.code === 'EPERM';
  }
}

async function readSeedRecord(dir: string): Promise<SeedRecord> {
  const text = await readFile(join(dir, SEED_RECORD_FILE), 'utf8');
  let record: SeedRecord | undefined;
  try {
    record = parseSeedRecord(JSON.parse(text));
  } catch {
    record = undefined;
  }
  if (record === undefined) throw inconsistent(dir, `${SEED_RECORD_FILE} is not one this sandbox wrote`);
  return record;
}

async function readSecretKey(dir: string, path: string): Promise<Buffer> {
  const key = Buffer.from((await readFile(path, 'utf8')).trim(), 'base64');
  if (key.length !== SECRET_KEY_BYTES)
    throw inconsistent(dir, `${SECRET_KEY_FILE} does not hold a ${String(SECRET_KEY_BYTES)}-byte key`);
  return key;
}

async function entriesOf(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (e: unknown) {
    if (e instanceof Error && 'code' in e && e.code === 'ENOENT') return [];
    throw e;
  }
}
