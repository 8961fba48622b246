import { appendFile, mkdir, mkdtemp, rename, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

import type { LogEntry } from '@noderings/fleet';
import { captureLogs } from '@noderings/log/log-capture';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';

import { LogTailer } from './log-tailer.js';

const POD_DIR = 'shop_web-7d9f8c6b5d-x2x9q_4f1c2d3e-0000-4000-8000-000000000001';
const FIELDS = {
  k8s_namespace: 'shop',
  k8s_pod: 'web-7d9f8c6b5d-x2x9q',
  k8s_pod_uid: '4f1c2d3e-0000-4000-8000-000000000001',
  k8s_container: 'web',
};

function cri(message: string, stream = 'stdout', tag = 'F', time = '2026-05-01T10:00:00.123456789Z'): string {
  return `${time} ${stream} ${tag} ${message}\n`;
}

describe('LogTailer', () => {
  let root: string;
  let logDir: string;
  let dataDir: string;
  let entries: LogEntry[];
  let running: { stop: () => Promise<void> } | undefined;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'node-agent-logs-'));
    logDir = join(root, 'pods');
    dataDir = join(root, 'data');
    entries = [];
    await mkdir(join(logDir, POD_DIR, 'web'), { recursive: true });
  });
  afterEach(async () => {
    await running?.stop();
    running = undefined;
    await rm(root, { recursive: true, force: true });
  });

  function start(): void {
    const controller = new AbortController();
    const tailer = new LogTailer({
      logDir,
      dataDir,
      log: captureLogs().logger,
      emit: (batch) => entries.push(...batch),
      canAccept: () => true,
      pollIntervalMs: 20,
      saveIntervalMs: 0,
      now: () => 42,
    });
    const run = tailer.run(controller.signal);
    running = {
      stop: async () => {
        controller.abort();
        await run;
      },
    };
  }

  async function lines(count: number): Promise<string[]> {
    for (let i = 0; i < 250 && entries.length < count; i++) await delay(20);
    await delay(60);
    return entries.map((e) => e.line);
  }

  const file = (name = '0.log', container = 'web'): string => join(logDir, POD_DIR, container, name);

  test('on the first start begins at the end of existing files, and enriches every entry from the path', async () => {
    await writeFile(
      file(),
      cri('old line 1') + cri('old line 2') + '2026-05-01T10:00:00Z stdout F half-writ',
    );
    start();
    await delay(100);
    await appendFile(file(), 'ten\n' + cri('new line', 'stderr'));
    expect(await lines(1)).toEqual(['new line']);
    expect(entries[0]).toEqual({
      t: Date.parse('2026-05-01T10:00:00.123Z'),
      stream: 'stderr',
      line: 'new line',
      fields: FIELDS,
    });
  });

  test('reads files that appear later from their start', async () => {
    start();
    await delay(100);
    await mkdir(join(logDir, POD_DIR, 'sidecar'));
    await writeFile(file('0.log', 'sidecar'), cri('first') + cri('second'));
    expect(await lines(2)).toEqual(['first', 'second']);
    expect(entries[0]?.fields.k8s_container).toBe('sidecar');
  });

  test('joins partial lines per stream, and sends a line not in the CRI format as it is', async () => {
    start();
    await delay(100);
    await writeFile(
      file(),
      cri('a very ', 'stdout', 'P') +
        cri('err ', 'stderr', 'P') +
        cri('long ', 'stdout', 'P') +
        cri('line', 'stdout') +
        cri('done', 'stderr') +
        'garbage without format\n',
    );
    expect(await lines(3)).toEqual(['a very long line', 'err done', 'garbage without format']);
    expect(entries[2]).toMatchObject({ t: 42, stream: 'stdout', fields: FIELDS });
  });

  test('follows rotation: the old file is read to its end before the new one', async () => {
    await writeFile(file(), '');
    start();
    await delay(100);
    await appendFile(file(), cri('one'));
    expect(await lines(1)).toEqual(['one']);
    await appendFile(file(), cri('two'));
    await rename(file(), file('0.log.20260501-100000'));
    await writeFile(file(), cri('three'));
    expect(await lines(3)).toEqual(['one', 'two', 'three']);
  });

  test('follows truncation', async () => {
    await writeFile(file(), '');
    start();
    await delay(100);
    await appendFile(file(), cri('before truncation, a long line'));
    expect(await lines(1)).toHaveLength(1);
    await truncate(file(), 0);
    await delay(100);
    await appendFile(file(), cri('after'));
    expect(await lines(2)).toEqual(['before truncation, a long line', 'after']);
  });

  test('remembers where it stood across restarts; files created while it was down are read whole', async () => {
    await writeFile(file(), '');
    start();
    await delay(100);
    await appendFile(file(), cri('a') + cri('half of a ', 'stdout', 'P'));
    expect(await lines(1)).toEqual(['a']);
    await running?.stop();
    await appendFile(file(), cri('line') + cri('b'));
    await mkdir(join(logDir, POD_DIR, 'late'));
    await writeFile(file('0.log', 'late'), cri('while down'));
    entries = [];
    start();
    expect((await lines(3)).sort()).toEqual(['b', 'half of a line', 'while down']);
  });
});
