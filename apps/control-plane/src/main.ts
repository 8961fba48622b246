import { readFile } from 'node:fs/promises';

import { fromSeed } from '@nats-io/nkeys';

import { PlatformVersionsFileError, startControlPlane } from './control-plane.js';
import { parseOptions, USAGE, UsageError } from './control-plane-options.js';
import { loadSecretKey } from './crypto/secret-key.js';

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2), process.env);
  const secretKey = await loadSecretKey({ fromEnv: options.secretKeyFromEnv, keyFile: options.keyFile });
  const {
    installScriptUrl,
    peeringApiServerUrl,
    preflightIntervalSeconds,
    metricsSilenceSeconds,
    metricsRemoteWrite,
    dashboardDir,
    platformVersionsFile,
    fleet,
    ...rest
  } = options;
  const cp = await startControlPlane({
    ...rest,
    secretKey,
    ...(installScriptUrl !== undefined && { installScriptUrl }),
    ...(peeringApiServerUrl !== undefined && { peeringApiServerUrl }),
    ...(preflightIntervalSeconds !== undefined && { preflightIntervalSeconds }),
    ...(metricsSilenceSeconds !== undefined && { metricsSilenceSeconds }),
    ...(dashboardDir !== undefined && { dashboardDir }),
    ...(platformVersionsFile !== undefined && { platformVersionsFile }),
    ...(metricsRemoteWrite !== undefined && {
      metricsRemoteWrite: {
        url: metricsRemoteWrite.url,
        bearerToken:
          metricsRemoteWrite.bearerTokenFile === undefined
            ? undefined
            : (await readFile(metricsRemoteWrite.bearerTokenFile, 'utf8')).trim(),
      },
    }),
    ...(fleet !== undefined && {
      fleet: {
        natsUrl: fleet.natsUrl,
        accountSeed: await readAccountSeed(fleet.accountSeedFile),
        ...(fleet.agentNatsUrls !== undefined && { agentNatsUrls: fleet.agentNatsUrls }),
      },
    }),
  });
  cp.logger.info({ url: cp.url }, 'control plane listening');
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  cp.logger.info('shutting down');
  await cp.close();
  return 0;
}

/** The fleet account's seed from its file; the message of a bad file never quotes what it holds. */
async function readAccountSeed(file: string): Promise<string> {
  const seed = (await readFile(file, 'utf8')).trim();
  let valid = seed.startsWith('SA');
  try {
    fromSeed(new TextEncoder().encode(seed));
  } catch {
    valid = false;
  }
  if (!valid) throw new UsageError(`${file} must hold a NATS account seed (SA…, 58 characters)`);
  return seed;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    if (e instanceof UsageError) {
      console.error(`${e.message}\n\n${USAGE}`);
      process.exit(2);
    }
    if (e instanceof PlatformVersionsFileError) {
      console.error(e.message);
      process.exit(2);
    }
    console.error(e);
    process.exit(1);
  },
);
