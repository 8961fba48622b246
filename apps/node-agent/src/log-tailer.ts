import type { FileHandle } from 'node:fs/promises';
import { open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

import { type LogEntry, MAX_LOG_ENTRIES_PER_MESSAGE, MAX_LOG_LINE_CHARS } from '@noderings/fleet';
import type { Logger } from '@noderings/log';
import { sleep } from '@noderings/retry';

import { messageOf } from './agent-error.js';
import { parseCriLogLine } from './cri-log-line.js';
import { type LogOffset, LogOffsets } from './log-offsets.js';

export interface LogTailerOptions {
  /** `<dir>/<namespace>_<pod>_<uid>/<container>/<n>.log`, as the kubelet lays out /var/log/pods. */
  readonly logDir: string;
  /** Where the positions are kept between runs. */
  readonly dataDir: string;
  readonly log: Logger;
  /** Receives the entries read, at most MAX_LOG_ENTRIES_PER_MESSAGE at a time. */
  readonly emit: (entries: LogEntry[]) => void;
  /** False while the publisher is backed up: reading pauses (the lines wait on disk). */
  readonly canAccept: () => boolean;
  readonly pollIntervalMs?: number;
  readonly saveIntervalMs?: number;
  readonly now?: () => number;
}

type Stream = 'stdout' | 'stderr';

interface PartialLine {
  readonly timeMs: number;
  text: string;
  /** Where the line's first chunk starts: a restart resumes there, so the line is read whole. */
  readonly startOffset: number;
}

interface TailedFile {
  readonly path: string;
  readonly fields: Readonly<Record<string, string>>;
  readonly handle: FileHandle;
  readonly inode: string;
  /** The next byte to read, always the start of a line. */
  offset: number;
  /** Started at the end of a file that did not end with a newline: the first line read is a fragment. */
  skipFirstLine: boolean;
  readonly partials: Map<Stream, PartialLine>;
}

const LOG_FILE = /^\d+\.log$/;
const READ_CHUNK_BYTES = 256 * 1024;
/** What one poll reads at most over all files, so that a burst cannot fill the memory. */
const READ_BUDGET_BYTES = 4 * 1024 * 1024;
const NEWLINE = 0x0a;
const DEFAULT_POLL_MS = 1_000;
const DEFAULT_SAVE_MS = 5_000;

/**
 * Tails the pods' CRI log files: finds new ones by polling, joins partial (`P`) lines, follows rotation
 * (a new file at the path: the old one is read to its end first) and truncation, and remembers where it
 * stands in the data directory. On the agent's very first start, files already there are read from their
 * end, so that a first start does not send every old line; files found later are read from their start.
 * Every entry carries k8s_namespace, k8s_pod, k8s_pod_uid and k8s_container from the path; a line not in
 * the CRI format is sent as it is.
 */
export class LogTailer {
  private readonly files = new Map<string, TailedFile>();
  private readonly offsets: LogOffsets;
  private saved: Map<string, LogOffset> | undefined;
  private firstStart = false;
  private pending: LogEntry[] = [];
  private dirty = false;
  private lastSaveMs = 0;
  private cursor = 0;
  private missingDirWarned = false;

  constructor(private readonly options: LogTailerOptions) {
    this.offsets = new LogOffsets(options.dataDir);
  }

  /** Polls until the signal aborts; then reads no more, saves the positions and closes the files. */
  async run(signal: AbortSignal): Promise<void> {
    this.saved = await this.offsets.load();
    this.firstStart = this.saved === undefined;
    if (this.firstStart)
      this.options.log.info(
        {
          logDir: this.options.logDir,
        },
        "first start: tailing pods' logs from their current end",
      );
    try {
      while (!signal.aborted) {
        const more = await this.poll().catch((e: unknown) => {
          // A round that fails loses nothing: positions stay, and the next round tries again.
          this.options.log.warn({ reason: messageOf(e) }, 'a log tailing round failed');
          return false;
        });
        this.firstStart = false;
        await this.saveIfDue(false);
        if (!more) await sleep(this.options.pollIntervalMs ?? DEFAULT_POLL_MS, signal);
      }
    } finally {
      await this.saveIfDue(true);
      for (const file of this.files.values()) await file.handle.close().catch(() => undefined);
      this.files.clear();
    }
  }

  /** One round: discover, follow rotation, read. True when a file had more to read than one chunk. */
  async poll(): Promise<boolean> {
    const found = await this.discover();
    for (const file of [...this.files.values()]) await this.checkRotation(file, found);
    for (const [path, fields] of found) if (!this.files.has(path)) await this.track(path, fields);
    const more = await this.readRound();
    this.flush(true);
    return more;
  }

  private async discover(): Promise<Map<string, Readonly<Record<string, string>>>> {
    const found = new Map<string, Readonly<Record<string, string>>>();
    let podDirs: string[];
    try {
      podDirs = await readdir(this.options.logDir);
      this.missingDirWarned = false;
    } catch (e: unknown) {
      if (!this.missingDirWarned)
        this.options.log.warn(
          {
            logDir: this.options.logDir,
            reason: messageOf(e),
          },
          "cannot read the pods' log directory; log tailing waits for it",
        );
      this.missingDirWarned = true;
      return found;
    }
    for (const podDir of podDirs) {
      const containers = await readdir(join(this.options.logDir, podDir)).catch(() => []);
      for (const container of containers) {
        const names = await readdir(join(this.options.logDir, podDir, container)).catch(() => []);
        for (const name of names) {
          if (LOG_FILE.test(name))
            found.set(join(this.options.logDir, podDir, container, name), enrichment(podDir, container));
        }
      }
    }
    return found;
  }

  private async track(path: string, fields: Readonly<Record<string, string>>): Promise<void> {
    let handle: FileHandle | undefined;
    try {
      handle = await open(path, 'r');
      const info = await handle.stat({ bigint: true });
      const inode = String(info.ino);
      const size = Number(info.size);
      const saved = this.saved?.get(path);
      this.saved?.delete(path);
      let offset = 0;
      let skipFirstLine = false;
      if (saved?.inode === inode) {
        offset = saved.offset <= size ? saved.offset : 0;
      } else if (saved !== undefined) {
        await this.drainRotated(path, fields, saved);
      } else if (this.firstStart) {
        offset = size;
        skipFirstLine = size > 0 && !(await endsWithNewline(handle, size));
      }
      this.files.set(path, { path, fields, handle, inode, offset, skipFirstLine, partials: new Map() });
      this.dirty = true;
    } catch (e: unknown) {
      await handle?.close().catch(() => undefined);
      this.options.log.debug({ path, reason: messageOf(e) }, 'cannot open a log file');
    }
  }

  /** The file was rotated while the agent was down: finish the old one (`<n>.log.<stamp>`) if still there. */
  private async drainRotated(
    path: string,
    fields: Readonly<Record<string, string>>,
    saved: LogOffset,
  ): Promise<void> {
    const dir = join(path, '..');
    const base = path.slice(dir.length + 1);
    const siblings = await readdir(dir).catch(() => []);
    for (const name of siblings) {
      if (!name.startsWith(`${base}.`) || name.endsWith('.gz')) continue;
      const candidate = join(dir, name);
      const info = await stat(candidate, { bigint: true }).catch(() => undefined);
      if (info === undefined || String(info.ino) !== saved.inode) continue;
      const handle = await open(candidate, 'r').catch(() => undefined);
      if (handle === undefined) return;
      const file: TailedFile = {
        path: candidate,
        fields,
        handle,
        inode: saved.inode,
        offset: saved.offset,
        skipFirstLine: false,
        partials: new Map(),
      };
      await this.drain(file);
      return;
    }
  }

  private async checkRotation(file: TailedFile, found: ReadonlyMap<string, unknown>): Promise<void> {
    const info = found.has(file.path)
      ? await stat(file.path, { bigint: true }).catch(() => undefined)
      : undefined;
    if (info === undefined || String(info.ino) !== file.inode) {
      // Rotated or removed: what was written to the old file before the switch is still to be read.
      this.files.delete(file.path);
      this.dirty = true;
      await this.drain(file);
      return;
    }
    if (Number(info.size) < file.offset) {
      this.options.log.info({ path: file.path }, 'a log file was truncated; reading it from its start');
      file.offset = 0;
      file.partials.clear();
      this.dirty = true;
    }
  }

  /** Reads a file that will not grow any more to its end, and closes it. */
  private async drain(file: TailedFile): Promise<void> {
    try {
      while ((await this.read(file, READ_CHUNK_BYTES, true)) > 0) this.flush(false);
    } catch (e: unknown) {
      this.options.log.debug(
        {
          path: file.path,
          reason: messageOf(e),
        },
        'cannot read a rotated log file to its end',
      );
    }
    for (const [stream, partial] of file.partials) this.push(file, partial.timeMs, stream, partial.text);
    file.partials.clear();
    await file.handle.close().catch(() => undefined);
  }

  private async readRound(): Promise<boolean> {
    const files = [...this.files.values()];
    if (files.length === 0) return false;
    let budget = READ_BUDGET_BYTES;
    let more = false;
    this.cursor %= files.length;
    for (let i = 0; i < files.length && budget > 0; i++) {
      if (!this.options.canAccept()) return false;
      const file = files[(this.cursor + i) % files.length];
      if (file === undefined) continue;
      try {
        const read = await this.read(file, Math.min(READ_CHUNK_BYTES, budget), false);
        budget -= read;
        if (read >= READ_CHUNK_BYTES) more = true;
      } catch (e: unknown) {
        this.options.log.debug(
          {
            path: file.path,
            reason: messageOf(e),
          },
          'cannot read a log file; dropping it until it is found again',
        );
        this.files.delete(file.path);
        await file.handle.close().catch(() => undefined);
      }
      this.flush(false);
    }
    this.cursor++;
    return more || budget <= 0;
  }

  /**
   * Reads up to `max` bytes of whole lines from the file's offset; returns the bytes consumed. A line
   * longer than a whole chunk is cut there; at the end of a finished file (`final`) the last line needs
   * no newline.
   */
  private async read(file: TailedFile, max: number, final: boolean): Promise<number> {
    const buffer = Buffer.allocUnsafe(max);
    const { bytesRead } = await file.handle.read(buffer, 0, max, file.offset);
    if (bytesRead === 0) return 0;
    const chunk = buffer.subarray(0, bytesRead);
    let end = chunk.lastIndexOf(NEWLINE) + 1;
    if (end === 0) {
      if (bytesRead < max && !final) return 0;
      end = bytesRead;
    }
    let start = 0;
    while (start < end) {
      const newline = chunk.indexOf(NEWLINE, start);
      const stop = newline < 0 || newline >= end ? end : newline;
      this.line(file, chunk.toString('utf8', start, stop), file.offset + start);
      start = stop + 1;
    }
    file.offset += end;
    this.dirty = true;
    return end;
  }

  private line(file: TailedFile, text: string, startOffset: number): void {
    if (file.skipFirstLine) {
      file.skipFirstLine = false;
      return;
    }
    const parsed = parseCriLogLine(text);
    if (parsed === undefined) {
      this.push(file, this.options.now?.() ?? Date.now(), 'stdout', text);
      return;
    }
    const partial = file.partials.get(parsed.stream);
    if (parsed.partial) {
      if (partial === undefined) {
        file.partials.set(parsed.stream, {
          timeMs: parsed.timeMs,
          text: capped(parsed.message),
          startOffset,
        });
      } else {
        partial.text = capped(partial.text + parsed.message);
      }
      return;
    }
    file.partials.delete(parsed.stream);
    const message = partial === undefined ? parsed.message : capped(partial.text + parsed.message);
    this.push(file, partial?.timeMs ?? parsed.timeMs, parsed.stream, message);
  }

  private push(file: TailedFile, timeMs: number, stream: Stream, line: string): void {
    this.pending.push({ t: timeMs, stream, line, fields: file.fields });
  }

  /** Hands on the entries read; whole messages' worth only, unless `all`. */
  private flush(all: boolean): void {
    while (this.pending.length >= MAX_LOG_ENTRIES_PER_MESSAGE || (all && this.pending.length > 0)) {
      const batch = this.pending.slice(0, MAX_LOG_ENTRIES_PER_MESSAGE);
      this.pending = this.pending.slice(batch.length);
      this.options.emit(batch);
    }
  }

  private async saveIfDue(force: boolean): Promise<void> {
    const now = this.options.now?.() ?? Date.now();
    if (!this.dirty || (!force && now - this.lastSaveMs < (this.options.saveIntervalMs ?? DEFAULT_SAVE_MS)))
      return;
    const positions = new Map<string, LogOffset>();
    for (const file of this.files.values()) {
      const starts = [...file.partials.values()].map((p) => p.startOffset);
      positions.set(file.path, { inode: file.inode, offset: Math.min(file.offset, ...starts) });
    }
    try {
      await this.offsets.save(positions);
      this.dirty = false;
      this.lastSaveMs = now;
    } catch (e: unknown) {
      this.options.log.warn(
        {
          dataDir: this.options.dataDir,
          reason: messageOf(e),
        },
        'cannot save the log positions',
      );
      this.lastSaveMs = now;
    }
  }
}

/** The fields every entry of a file carries, from `<namespace>_<pod>_<uid>/<container>`. */
function enrichment(podDir: string, container: string): Readonly<Record<string, string>> {
  const parts = podDir.split('_');
  const fields: Record<string, string> = { k8s_container: container };
  if (parts.length >= 3) {
    fields.k8s_namespace = parts[0] ?? '';
    fields.k8s_pod = parts.slice(1, -1).join('_');
    fields.k8s_pod_uid = parts.at(-1) ?? '';
  }
  return fields;
}

function capped(text: string): string {
  return text.length > MAX_LOG_LINE_CHARS ? text.slice(0, MAX_LOG_LINE_CHARS) : text;
}

async function endsWithNewline(handle: FileHandle, size: number): Promise<boolean> {
  const byte = Buffer.alloc(1);
  await handle.read(byte, 0, 1, size - 1);
  return byte[0] === NEWLINE;
}
