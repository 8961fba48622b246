import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { spawnProcess } from './process-runner.js';

const node = process.execPath;
/** Whether the process exists (and is not a zombie waiting for its parent: this test is the parent). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const none = { env: {}, stdin: undefined, timeoutMs: 10_000 };

describe('spawnProcess', () => {
  it('returns the exit code and what the program printed on each stream', async () => {
    const result = await spawnProcess(
      [node, '-e', 'process.stdout.write("out"); process.stderr.write("err"); process.exit(3)'],
      none,
    );
    expect(result).toEqual({ exitCode: 3, stdout: 'out', stderr: 'err' });
  });

  it('passes each argument as is, without a shell', async () => {
    const words = ['$HOME', 'a b', "it's", '; rm -rf /', '*'];
    const result = await spawnProcess(
      [node, '-e', 'console.log(JSON.stringify(process.argv.slice(1)))', ...words],
      none,
    );
    expect(JSON.parse(result.stdout)).toEqual(words);
  });

  it('gives stdin and adds env to the environment', async () => {
    const result = await spawnProcess(
      [node, '-e', 'process.stdin.on("data", (d) => process.stdout.write(process.env.NR_TEST + ":" + d))'],
      { env: { NR_TEST: 'secret' }, stdin: 'manifest', timeoutMs: 10_000 },
    );
    expect(result.stdout).toBe('secret:manifest');
    expect(process.env.NR_TEST).toBeUndefined();
  });

  it('rejects when the program does not exist', async () => {
    await expect(spawnProcess(['nr-no-such-program'], none)).rejects.toThrow(
      /could not run nr-no-such-program/,
    );
  });

  it('stops a program that outlives its timeout with SIGTERM, and rejects', async () => {
    const pidFile = join(await mkdtemp(join(tmpdir(), 'nr-runner-')), 'pid');
    const sleeper = `require("fs").writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setTimeout(() => undefined, 60_000)`;
    await expect(spawnProcess([node, '-e', sleeper], { ...none, timeoutMs: 500 })).rejects.toThrow(
      /did not finish in 0.5 s/,
    );
    const pid = Number(await readFile(pidFile, 'utf8'));
    await expect.poll(() => alive(pid), { timeout: 2000 }).toBe(false);
    await rm(dirname(pidFile), { recursive: true });
  });

  it('kills a program that ignores SIGTERM once the grace period is over', async () => {
    const pidFile = join(await mkdtemp(join(tmpdir(), 'nr-runner-')), 'pid');
    const stubborn = `process.on("SIGTERM", () => undefined); require("fs").writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setTimeout(() => undefined, 60_000)`;
    await expect(spawnProcess([node, '-e', stubborn], { ...none, timeoutMs: 500 })).rejects.toThrow(
      /did not finish/,
    );
    const pid = Number(await readFile(pidFile, 'utf8'));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(alive(pid)).toBe(true);
    await expect.poll(() => alive(pid), { timeout: 6000, interval: 200 }).toBe(false);
    await rm(dirname(pidFile), { recursive: true });
  });
});
