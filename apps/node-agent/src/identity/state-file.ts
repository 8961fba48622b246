import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';

import { AgentError } from '../agent-error.js';
import { type AgentState, STATE_VERSION, claimedVersion, parseAgentState } from './agent-state.js';

export const STATE_FILE = 'state.json';

export type StateFileContent =
  | { readonly kind: 'missing' }
  | { readonly kind: 'found'; readonly state: AgentState }
  | { readonly kind: 'invalid'; readonly reason: string };

/** The state file of `dataDir`. A file that cannot be read (other than missing) is STATE_UNUSABLE. */
export async function readStateFile(dataDir: string): Promise<StateFileContent> {
  const file = join(dataDir, STATE_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e: unknown) {
    if (errorCode(e) === 'ENOENT') return { kind: 'missing' };
    throw new AgentError('STATE_UNUSABLE', `cannot read ${file}: ${describe(e)}`, { cause: e });
  }
  const version = claimedVersion(text);
  if (version !== undefined && version > STATE_VERSION) {
    throw new AgentError(
      'STATE_UNUSABLE',
      `${file} was written by a newer agent (state version ${version}; this agent knows ${STATE_VERSION}): upgrade this agent, the file is left as it is`,
    );
  }
  const parsed = parseAgentState(text);
  return 'invalid' in parsed ? { kind: 'invalid', reason: parsed.invalid } : { kind: 'found', state: parsed };
}

/**
 * Replaces the state file atomically: a temporary file in the same directory (mode 0600), fsync, rename,
 * fsync of the directory; a crash leaves either the old file or the new one. Creates the directory
 * (mode 0700) if it is missing.
 */
export async function writeStateFile(dataDir: string, state: AgentState): Promise<void> {
  const file = join(dataDir, STATE_FILE);
  await writeFileAtomically(dataDir, STATE_FILE, `${JSON.stringify(state, null, 2)}\n`).catch(
    (e: unknown) => {
      throw new AgentError('STATE_UNUSABLE', `cannot write ${file}: ${describe(e)}`, { cause: e });
    },
  );
}

/** Moves an unusable state file aside as `state.json.invalid-<timestamp>`; returns its new path. */
export async function moveStateFileAside(dataDir: string, now: Date): Promise<string> {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  const aside = join(dataDir, `${STATE_FILE}.invalid-${stamp}`);
  try {
    await rename(join(dataDir, STATE_FILE), aside);
  } catch (e: unknown) {
    throw new AgentError('STATE_UNUSABLE', `cannot move ${join(dataDir, STATE_FILE)} aside: ${describe(e)}`, {
      cause: e,
    });
  }
  await fsyncDirectory(dataDir);
  return aside;
}

/** `dir/name` written through a temporary sibling, fsync and rename; the directory is created 0700. */
export async function writeFileAtomically(dir: string, name: string, text: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const temporary = join(dir, `.${name}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    const handle = await open(temporary, 'wx', 0o600);
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, join(dir, name));
  } catch (e: unknown) {
    await rm(temporary, { force: true });
    throw e;
  }
  await fsyncDirectory(dir);
}

async function fsyncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } catch {
    // Some filesystems refuse fsync on a directory; the rename itself has happened.
  } finally {
    await handle.close();
  }
}

function errorCode(e: unknown): string | undefined {
  return e instanceof Error && 'code' in e && typeof e.code === 'string' ? e.code : undefined;
}

function describe(e: unknown): string {
  const code = errorCode(e);
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EROFS') return 'read-only filesystem';
  return e instanceof Error ? e.message : String(e);
}
