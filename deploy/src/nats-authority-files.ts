import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { createNatsAuthority, renderNatsServerConfig } from '@noderings/fleet/nats-authority';

export interface NatsAuthorityFiles {
  readonly serverConfig: string;
  readonly accountSeed: string;
  readonly accountPublicKey: string;
}

/**
 * A new fleet NATS authority as two files in `dir`: `nats-server.conf` for every server of the NATS
 * cluster (operator mode, JetStream, trusting only this authority; add the cluster block of your
 * deployment) and `fleet-account.seed` (mode 0600) for the control plane's `NR_NATS_ACCOUNT_SEED_FILE`.
 * Never overwrites: an existing file of either name is an error, since a new authority invalidates every
 * credential signed by the old one.
 */
export async function writeNatsAuthorityFiles(
  dir: string,
  listen: { readonly host: string; readonly port: number; readonly storeDir: string },
): Promise<NatsAuthorityFiles> {
  const authority = await createNatsAuthority();
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const serverConfig = join(dir, 'nats-server.conf');
  const accountSeed = join(dir, 'fleet-account.seed');
  await writeFile(serverConfig, renderNatsServerConfig(authority, listen), { flag: 'wx', mode: 0o644 });
  await writeFile(accountSeed, `${authority.accountSeed}\n`, { flag: 'wx', mode: 0o600 });
  return { serverConfig, accountSeed, accountPublicKey: authority.accountPublicKey };
}
