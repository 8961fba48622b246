import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

import { parseK3sSimArgs, USAGE, UsageError } from './cli-options.js';
import { startK3sSim } from './k3s-sim.js';
import { k3sLayout } from './layout.js';

async function main(argv: readonly string[]): Promise<number> {
  let options;
  try {
    options = parseK3sSimArgs(argv);
  } catch (e: unknown) {
    if (!(e instanceof UsageError) && !(e instanceof TypeError)) throw e;
    process.stderr.write(`k3s-sim: ${e.message}\n\n${USAGE}`);
    return 2;
  }
  if (options === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  const layout = k3sLayout(options.root);
  await mkdir(dirname(layout.pid), { recursive: true });
  await writeFile(layout.pid, `${String(process.pid)}\n`);
  const k3s = await startK3sSim(options);
  process.stdout.write(
    `k3s-sim: k3s ${options.version} serving on ${k3s.url} (node ${options.nodeName}, ${options.nodeIp}; flags ${options.serverFlags.join(' ')})\n`,
  );
  const stop = (): void => {
    void k3s
      .close()
      .then(() => rm(layout.pid, { force: true }))
      .then(() => process.exit(0));
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
    process.stderr.write(`k3s-sim: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
