import { readFile } from 'node:fs/promises';

import { writeFileAtomically } from './identity/state-file.js';

const OFFSETS_FILE = 'log-offsets.json';
const VERSION = 1;

/** Where tailing of one file stands: the file (by inode) and the first byte not yet handed on. */
export interface LogOffset {
  readonly inode: string;
  readonly offset: number;
}

/**
 * The log tailer's positions, kept in the data directory. `undefined` from `load` means the agent never
 * tailed before (its first start); an unreadable file counts as empty, not as a first start.
 */
export class LogOffsets {
  constructor(private readonly dataDir: string) {}

  async load(): Promise<Map<string, LogOffset> | undefined> {
    let text: string;
    try {
      text = await readFile(`${this.dataDir}/${OFFSETS_FILE}`, 'utf8');
    } catch (e: unknown) {
      if (e instanceof Error && 'code' in e && e.code === 'ENOENT') return undefined;
      return new Map();
    }
    const offsets = new Map<string, LogOffset>();
    try {
      const value: unknown = JSON.parse(text);
      const files = isRecord(value) && value.version === VERSION && isRecord(value.files) ? value.files : {};
      for (const [path, entry] of Object.entries(files)) {
        if (!isRecord(entry)) continue;
        const { inode, offset } = entry;
        if (
          typeof inode === 'string' &&
          typeof offset === 'number' &&
          Number.isSafeInteger(offset) &&
          offset >= 0
        )
          offsets.set(path, { inode, offset });
      }
    } catch {
      // A damaged file loses the positions, not the agent: tailing resumes from each file's start.
    }
    return offsets;
  }

  async save(offsets: ReadonlyMap<string, LogOffset>): Promise<void> {
    const files = Object.fromEntries(offsets);
    await writeFileAtomically(this.dataDir, OFFSETS_FILE, `${JSON.stringify({ version: VERSION, files })}\n`);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
