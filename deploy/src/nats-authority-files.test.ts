import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { fromSeed } from '@nats-io/nkeys';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { writeNatsAuthorityFiles } from './nats-authority-files.js';

describe('the fleet NATS authority files', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'nats-authority-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes a server configuration trusting the account whose seed it writes, 0600', async () => {
    const out = join(dir, 'fleet');
    const files = await writeNatsAuthorityFiles(out, {
      host: '0.0.0.0',
      port: 4222,
      storeDir: '/var/lib/nats',
    });
    const seed = (await readFile(files.accountSeed, 'utf8')).trim();
    expect(fromSeed(new TextEncoder().encode(seed)).getPublicKey()).toBe(files.accountPublicKey);
    expect((await stat(files.accountSeed)).mode & 0o777).toBe(0o600);
    const config = await readFile(files.serverConfig, 'utf8');
    expect(config).toContain(`${files.accountPublicKey}: `);
    expect(config).toContain('resolver: MEMORY');
    expect(config).toContain('port: 4222');
    expect(config).not.toContain(seed);
  });

  it('never overwrites an authority', async () => {
    await writeNatsAuthorityFiles(dir, { host: '127.0.0.1', port: 4222, storeDir: '/var/lib/nats' });
    const before = await readFile(join(dir, 'fleet-account.seed'), 'utf8');
    await expect(
      writeNatsAuthorityFiles(dir, { host: '127.0.0.1', port: 4222, storeDir: '/var/lib/nats' }),
    ).rejects.toThrow(/EEXIST/);
    expect(await readFile(join(dir, 'fleet-account.seed'), 'utf8')).toBe(before);
  });
});
