import { once } from 'node:events';
import { readFile } from 'node:fs/promises';

import { parseAlloyPipeline } from './alloy-config.js';
import { ENDPOINTS_ENV } from './layout.js';
import { startScrapeLoop } from './scrape-loop.js';
import { resolveServiceAddress } from './service-address.js';

/**
 * k3s-sim's stand-in for the `alloy` image: `run CONFIG [flags]`, running the pipeline the agent stack's
 * configuration describes (see `scrape-loop.ts`). Other flags (`--server.http.listen-addr`,
 * `--storage.path`) are accepted and ignored. Service addresses resolve through the pod runner's
 * endpoints files, in the namespace of `POD_NAMESPACE` (default `proxmox-system`).
 */
async function main(argv: readonly string[]): Promise<number> {
  const configFile = argv[0] === 'run' ? argv[1] : undefined;
  if (configFile === undefined || configFile.startsWith('-')) {
    process.stderr.write('usage: alloy run CONFIG_FILE [flags]\n');
    return 2;
  }
  const pipeline = parseAlloyPipeline(await readFile(configFile, 'utf8'));
  const bearer = pipeline.bearer;
  const token =
    bearer === undefined
      ? undefined
      : 'file' in bearer
        ? (await readFile(bearer.file, 'utf8')).trim()
        : process.env[bearer.env];
  if (bearer !== undefined && (token === undefined || token === ''))
    throw new Error(`the remote write's bearer token is empty (${JSON.stringify(bearer)})`);
  const endpointsDir = process.env[ENDPOINTS_ENV];
  const namespace = process.env.POD_NAMESPACE ?? 'proxmox-system';
  const loop = startScrapeLoop({
    pipeline,
    token,
    resolve: (address) =>
      endpointsDir === undefined
        ? Promise.resolve(address)
        : resolveServiceAddress(address, endpointsDir, namespace),
    log: (line) => process.stderr.write(`alloy-standin: ${line}\n`),
  });
  process.stderr.write(
    `alloy-standin: started: scraping ${pipeline.target.__address__ ?? ''}${pipeline.metricsPath} every ${String(pipeline.scrapeIntervalMs)} ms, writing to ${pipeline.remoteWriteUrl}\n`,
  );
  await Promise.race([once(process, 'SIGTERM'), once(process, 'SIGINT')]);
  await loop.stop();
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`alloy-standin: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 1;
  },
);
