import { readFile } from 'node:fs/promises';

import { startControlPlane } from './control-plane.js';
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
    ...(metricsRemoteWrite !== undefined && {
      metricsRemoteWrite: {
        url: metricsRemoteWrite.url,
        bearerToken:
          metricsRemoteWrite.bearerTokenFile === undefined
            ? undefined
            : (await readFile(metricsRemoteWrite.bearerTokenFile, 'utf8')).trim(),
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

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    if (e instanceof UsageError) {
      console.error(`${e.message}\n\n${USAGE}`);
      process.exit(2);
    }
    console.error(e);
    process.exit(1);
  },
);
