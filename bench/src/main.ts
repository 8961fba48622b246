import { parseArgs } from 'node:util';
import { apiBenchmark } from './api.bench.js';
import { ingestBenchmark } from './ingest.bench.js';
import { kubeBenchmark } from './kube.bench.js';
import { marketplaceBenchmark } from './marketplace.bench.js';
import { nodeAgentBenchmark } from './node-agent.bench.js';
import { operatorBenchmark } from './operator.bench.js';
import { ordersBenchmark } from './orders.bench.js';
import { placementBenchmark } from './placement.bench.js';
import { pveSimBenchmark } from './pve-sim.bench.js';
import { registerBenchmark } from './register.bench.js';
import { sandboxBenchmark } from './sandbox.bench.js';

/** Each benchmark prints its own figures; `npm run bench -- <name> [--seconds N]`. */
const BENCHMARKS: Record<string, { description: string; run: (seconds: number) => Promise<void> }> = {
  'pve-sim': {
    description: 'Proxmox simulator: status reads/s and clone+start+delete cycles/s',
    run: pveSimBenchmark,
  },
  kube: {
    description: 'kube-sim watch events/s delivered to 50 watchers; keys/s through a no-op reconciler',
    run: kubeBenchmark,
  },
  operator: {
    description: 'operator end to end: create+start 200 VMs on 3 nodes, VMs/s and Proxmox calls per VM',
    run: () => operatorBenchmark(),
  },
  api: {
    description:
      'control plane over HTTP at 50 connections: GET /v1/nodes, POST /v1/regions, next to pgbench',
    run: apiBenchmark,
  },
  placement: {
    description:
      'claim service in-process: claims/s at 32 clients with 1,000 nodes and 10,000 active claims; then marketplace',
    run: async (seconds) => {
      await placementBenchmark(seconds);
      await marketplaceBenchmark(seconds);
    },
  },
  orders: {
    description:
      'orders over HTTP to Running on the simulators: orders/s accepted, order-to-Running p50/p95 for 200',
    run: () => ordersBenchmark(),
  },
  marketplace: {
    description: 'anonymous marketplace searches over HTTP: p50/p95 with 10,000 plans over 1,000 nodes',
    run: marketplaceBenchmark,
  },
  register: {
    description:
      'nr cluster register on a simulated host: full register wall time and per phase; --resume after a kill in the stack phase',
    run: () => registerBenchmark(),
  },
  sandbox: {
    description:
      'npm start on an empty folder until ready, a customer order until RUNNING, a second start until ready',
    run: () => sandboxBenchmark(),
  },
  ingest: {
    description:
      "remote-write ingest of a 1,000-VM fleet's scrapes: control plane samples/s next to Prometheus' receiver",
    run: ingestBenchmark,
  },
  'node-agent': {
    description:
      'node agent on a 110-pod kubelet-sim: CPU ms and RSS per tick; cAdvisor text MB/s next to parse-prometheus-text-format',
    run: nodeAgentBenchmark,
  },
};

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { seconds: { type: 'string', default: '5' }, list: { type: 'boolean' } },
  });
  const name = positionals[0];
  if (values.list || name === undefined) {
    for (const [key, b] of Object.entries(BENCHMARKS))
      process.stdout.write(`${key.padEnd(12)} ${b.description}\n`);
    return name === undefined && !values.list ? 2 : 0;
  }
  const bench = BENCHMARKS[name];
  const seconds = Number(values.seconds);
  if (!bench || !Number.isFinite(seconds) || seconds <= 0) {
    process.stderr.write(`usage: npm run bench -- <${Object.keys(BENCHMARKS).join('|')}> [--seconds N]\n`);
    return 2;
  }
  await bench.run(seconds);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`bench: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
