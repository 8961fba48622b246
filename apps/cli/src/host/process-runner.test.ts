import { describe, expect, it } from 'vitest';

import { spawnProcess } from './process-runner.js';

const node = process.execPath;
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

  it('kills a program that outlives its timeout and rejects', async () => {
    await expect(
      spawnProcess([node, '-e', 'setTimeout(() => undefined, 60_000)'], { ...none, timeoutMs: 300 }),
    ).rejects.toThrow(/did not finish in 0.3 s/);
  });
});
