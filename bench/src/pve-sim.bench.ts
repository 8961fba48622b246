import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { ProxmoxClient } from '@noderings/proxmox';
import { reportFigure } from './bench-result.js';

const BENCH = 'pve-sim';

const WAIT = { pollMinMs: 1, pollMaxMs: 5 };

interface Rate {
  operations: number;
  seconds: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
}

/** Runs `op` from `concurrency` loops for `seconds`, returning throughput and latency percentiles. */
async function measure(
  seconds: number,
  concurrency: number,
  op: (worker: number, i: number) => Promise<void>,
): Promise<Rate> {
  const latencies: number[] = [];
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      for (let i = 0; performance.now() < deadline; i++) {
        const t = performance.now();
        await op(worker, i);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0;
  return {
    operations: latencies.length,
    seconds: elapsed,
    perSecond: latencies.length / elapsed,
    p50Ms: pct(0.5),
    p99Ms: pct(0.99),
  };
}

/** BENCH_RESULT lines for one row: `${id}_per_s`, `${id}_p50_ms` and `${id}_p99_ms`. */
function reportRate(id: string, unit: string, r: Rate): void {
  reportFigure({ bench: BENCH, figure: `${id}_per_s`, value: r.perSecond, unit });
  reportFigure({ bench: BENCH, figure: `${id}_p50_ms`, value: r.p50Ms, unit: 'ms' });
  reportFigure({ bench: BENCH, figure: `${id}_p99_ms`, value: r.p99Ms, unit: 'ms' });
}

function row(name: string, r: Rate): string {
  return `${name.padEnd(44)} ${r.perSecond.toFixed(1).padStart(9)}/s  p50 ${r.p50Ms.toFixed(2).padStart(7)} ms  p99 ${r.p99Ms.toFixed(2).padStart(7)} ms  (${r.operations} in ${r.seconds.toFixed(1)} s)`;
}

const SIM_MAIN = fileURLToPath(new URL('../../sim/pve-sim/src/main.ts', import.meta.url));
const TSX = fileURLToPath(new URL('../../node_modules/tsx/dist/cli.mjs', import.meta.url));
const TOKEN = 'root@pam!bench=6c0a1f0e-2d3b-4c5d-8e9f-0a1b2c3d4e5f';

/** The simulator as `npm run pve-sim` runs it, in its own process, so that it has a core of its own. */
async function spawnSim(): Promise<{ child: ChildProcess; url: string; fingerprint: string }> {
  const child = spawn(
    process.execPath,
    [TSX, SIM_MAIN, '--listen', '127.0.0.1:0', '--task-ms', '0', '--token', TOKEN],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (c: Buffer) => {
      output += c.toString();
      if (output.includes('test control')) resolve();
    });
    child.once('exit', () => {
      reject(new Error(`pve-sim exited early: ${output}`));
    });
  });
  const url = /listening on (\S+) /.exec(output)?.[1];
  const fingerprint = /fingerprint: (\S+)/.exec(output)?.[1];
  if (!url || !fingerprint) throw new Error(`unexpected pve-sim output: ${output}`);
  return { child, url, fingerprint };
}

/**
 * How fast the simulator answers, over real HTTPS through our own client, so that later benchmarks can
 * show it is not their bottleneck. Tasks take 0 ms here: the cycle measures the API work, not a delay.
 */
export async function pveSimBenchmark(seconds: number): Promise<void> {
  const sim = await spawnSim();
  const pve = new ProxmoxClient({ baseUrl: sim.url, token: TOKEN, tls: { fingerprint: sim.fingerprint } });
  try {
    const memoryBefore = process.memoryUsage().rss;
    process.stdout.write(
      `pve-sim benchmark, ${seconds} s per row, Node ${process.version}, HTTPS with a pinned certificate\n`,
    );
    for (const concurrency of [1, 8]) {
      const reads = await measure(seconds, concurrency, async () => {
        await pve.getVmStatus('pve1', 100);
      });
      process.stdout.write(`${row(`status/current reads, ${concurrency} in flight`, reads)}\n`);
      reportRate(`status_reads_${concurrency}_in_flight`, 'reads/s', reads);
    }
    const resources = await measure(seconds, 4, async () => {
      await pve.getClusterResources('vm');
    });
    process.stdout.write(`${row('cluster/resources?type=vm, 4 in flight', resources)}\n`);
    reportRate('cluster_resources_reads_4_in_flight', 'reads/s', resources);
    for (const concurrency of [1, 4]) {
      const cycles = await measure(seconds, concurrency, async (worker, i) => {
        const vmid = 1000 + worker * 100_000 + i;
        await pve.waitForTask(
          'pve1',
          await pve.cloneVm('pve1', 9000, { newid: vmid, name: `NR-bench-${vmid}`, full: true }),
          WAIT,
        );
        await pve.waitForTask('pve1', await pve.startVm('pve1', vmid), WAIT);
        await pve.waitForTask('pve1', await pve.stopVm('pve1', vmid), WAIT);
        await pve.waitForTask(
          'pve1',
          await pve.deleteVm('pve1', vmid, { purge: true, destroyUnreferencedDisks: true }),
          WAIT,
        );
      });
      process.stdout.write(`${row(`clone+start+stop+delete cycles, ${concurrency} in flight`, cycles)}\n`);
      reportRate(`vm_cycles_${concurrency}_in_flight`, 'cycles/s', cycles);
    }
    const rssMiB = await simResidentMemoryMiB(sim.child.pid);
    process.stdout.write(
      `simulator resident memory after the run: ${rssMiB === undefined ? 'unknown' : `${rssMiB.toFixed(0)} MiB`} (client process ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB, was ${(memoryBefore / 2 ** 20).toFixed(0)} MiB)\n`,
    );
    if (rssMiB !== undefined)
      reportFigure({ bench: BENCH, figure: 'simulator_rss_mib', value: rssMiB, unit: 'MiB' });
  } finally {
    await pve.close();
    sim.child.kill('SIGTERM');
    await once(sim.child, 'exit');
  }
}

async function simResidentMemoryMiB(pid: number | undefined): Promise<number | undefined> {
  if (pid === undefined) return undefined;
  const { readFile } = await import('node:fs/promises');
  try {
    // tsx runs the program in a child of its own; take the largest resident set in the tree.
    const status = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '');
    const pids = [pid, ...status.split(/\s+/).filter(Boolean).map(Number)];
    const sizes = await Promise.all(
      pids.map(async (p) =>
        Number(/VmRSS:\s+(\d+)/.exec(await readFile(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0),
      ),
    );
    return Math.max(...sizes) / 1024;
  } catch {
    return undefined;
  }
}
