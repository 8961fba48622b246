import { resolve } from 'node:path';
import { USAGE, parseCliOptions } from './cli-options.js';
import { startKubeSim } from './kube-sim.js';

async function main(argv: string[]): Promise<number> {
  let options;
  try {
    options = parseCliOptions(argv);
  } catch (e: unknown) {
    process.stderr.write(`kube-sim: ${e instanceof Error ? e.message : String(e)}\n\n${USAGE}`);
    return 2;
  }
  if (options === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  const { kubeconfigPath, ...simOptions } = options;
  const sim = await startKubeSim(simOptions);
  await sim.writeKubeconfig(kubeconfigPath);
  const out = [
    `kube-sim: Kubernetes API server simulator listening on ${sim.url}`,
    `kubeconfig (user admin, group system:masters): ${resolve(kubeconfigPath)}`,
    `try: kubectl --kubeconfig ${kubeconfigPath} get namespaces`,
    ...(simOptions.tokens ?? []).map(
      (t) => `token for ${t.username}${t.groups?.length ? ` (${t.groups.join(', ')})` : ''}`,
    ),
  ];
  process.stdout.write(`${out.join('\n')}\n`);
  const stop = (): void => {
    void sim.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return -1;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (e: unknown) => {
    process.stderr.write(`kube-sim: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  },
);
