// A replica for leader-election.it.test.ts:
// `node --import tsx leader-candidate.test-support.ts <kubeconfig> <namespace> <identity>`.
// It prints LEADING when it starts leading and RELEASED after a graceful stop.
import { KubeClient } from './kube-client.js';
import { LeaderElector } from './leader-election.js';

const [kubeconfigPath, namespace, identity] = process.argv.slice(2);
if (kubeconfigPath === undefined || namespace === undefined || identity === undefined) {
  process.stderr.write('usage: leader-candidate <kubeconfig> <namespace> <identity>\n');
  process.exit(2);
}

const client = new KubeClient({ kubeconfigPath });
const stop = new AbortController();
process.on('SIGTERM', () => {
  stop.abort();
});

const elector = new LeaderElector({
  leases: client.leases,
  namespace,
  name: 'proxmox-operator',
  identity,
  leaseDurationMs: 3000,
  renewDeadlineMs: 2000,
  retryPeriodMs: 300,
  onStartedLeading: async (signal) => {
    process.stdout.write(`LEADING ${identity}\n`);
    await new Promise((resolve) => {
      signal.addEventListener('abort', resolve, { once: true });
    });
  },
  onError: (e: unknown) => {
    process.stderr.write(`${String(e)}\n`);
  },
});

await elector.run(stop.signal);
process.stdout.write(`RELEASED ${identity}\n`);
