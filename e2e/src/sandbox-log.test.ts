import { describe, expect, it } from 'vitest';

import { SandboxLog } from './sandbox-log.js';

describe('the sandbox log', () => {
  function collect() {
    const lines: string[] = [];
    return { lines, log: new SandboxLog((line) => lines.push(line)) };
  }

  it("shows each part's JSON lines as level, message and fields, under the part's name", () => {
    const { lines, log } = collect();
    const operator = log.lineWriter('operator');
    operator.write(
      `${JSON.stringify({ time: '2026-01-01T00:00:00Z', level: 'info', msg: 'clone started', vmid: 1000, upid: 'UPID:pve1:1' })}\n`,
    );
    const controlPlane = log.lineWriter('control-plane');
    controlPlane.write(
      `${JSON.stringify({ level: 40, time: 1, pid: 7, hostname: 'h', app: 'control-plane', msg: 'resync failed', reason: 'connect ECONNREFUSED', err: { type: 'Error', message: 'boom', stack: 'Error: boom\n    at x' } })}\n`,
    );
    expect(lines).toEqual([
      '[operator] info clone started vmid=1000 upid=UPID:pve1:1',
      '[control-plane] warn resync failed reason="connect ECONNREFUSED" err="boom"',
    ]);
  });

  it('joins lines split across chunks, passes other text through, and flushes the last line at the end', () => {
    const { lines, log } = collect();
    const writer = log.lineWriter('operator');
    writer.write('{"level":"warn","msg":"sl');
    writer.write('ow"}\nnot json\n\n');
    writer.write('last words');
    expect(lines).toEqual(['[operator] warn slow', '[operator] not json']);
    writer.end();
    expect(lines.at(-1)).toBe('[operator] last words');
    log.progress('ready');
    expect(lines.at(-1)).toBe('[sandbox] ready');
  });
});
