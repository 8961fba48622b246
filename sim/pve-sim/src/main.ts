import { USAGE, parseCliOptions } from './cli-options.js';
import { loadScenario } from './scenario.js';
import { startPveSim } from './pve-sim.js';

async function main(argv: string[]): Promise<number> {
  let options;
  try {
    options = parseCliOptions(argv);
  } catch (e: unknown) {
    process.stderr.write(`pve-sim: ${e instanceof Error ? e.message : String(e)}\n\n${USAGE}`);
    return 2;
  }
  if (options === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  const scenario = options.scenarioFile ? await loadScenario(options.scenarioFile) : undefined;
  const sim = await startPveSim({ ...options, ...(scenario ? { scenario } : {}) });
  const out: string[] = [
    `pve-sim: Proxmox VE simulator listening on ${sim.url} (API ${sim.apiUrl})`,
    ...(sim.fingerprint ? [`certificate SHA-256 fingerprint: ${sim.fingerprint}`] : []),
    ...sim.tokens.map(
      (t) =>
        `token: Authorization: PVEAPIToken=${t.id}=${t.secret}${t.acl ? ` (ACL: ${t.acl.map((a) => `${a.path}=${a.role ?? a.privileges?.join(',') ?? ''}`).join(' ')})` : ''}`,
    ),
    ...sim.users.map((u) => `user: ${u.userid} password ${u.password}`),
    'guests:',
    ...Object.values(sim.state.vms).map(
      (vm) =>
        `  ${String(vm.vmid).padEnd(6)} ${vm.node.padEnd(6)} ${(vm.config.template === '1' ? 'template' : vm.running ? 'running' : 'stopped').padEnd(9)} ${vm.config.name ?? ''}`,
    ),
    `test control (not part of Proxmox): ${sim.url}/sim`,
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
    process.stderr.write(`pve-sim: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  },
);
