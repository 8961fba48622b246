import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { materialiseVolumes, mountedArgs } from './pod-volumes.js';
import { ContainerConfigError } from './workload.js';

describe('pod volumes', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'k3s-sim-volumes-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const data: Record<string, Record<string, string> | undefined> = {
    'Secret/pve-exporter-config': { 'pve.yml': 'default: {}\n', other: 'x' },
    'ConfigMap/alloy-config': { 'config.alloy': '// config\n' },
  };
  const lookup = (kind: 'Secret' | 'ConfigMap', name: string) => Promise.resolve(data[`${kind}/${name}`]);

  it("writes a Secret's items, a ConfigMap's keys and an empty folder, and maps the mounts to them", async () => {
    const mounts = await materialiseVolumes(
      dir,
      [
        {
          name: 'config',
          secret: {
            secretName: 'pve-exporter-config',
            items: [{ key: 'pve.yml', path: 'pve.yml' }],
            defaultMode: 0o440,
          },
        },
        { name: 'alloy', configMap: { name: 'alloy-config' } },
        { name: 'data', emptyDir: {} },
      ],
      {
        volumeMounts: [
          { name: 'config', mountPath: '/etc/prometheus', readOnly: true },
          { name: 'alloy', mountPath: '/etc/alloy' },
          { name: 'data', mountPath: '/var/lib/alloy/data' },
        ],
      },
      lookup,
    );
    expect(mounts).toEqual([
      { mountPath: '/etc/prometheus', hostPath: join(dir, 'volumes/config') },
      { mountPath: '/etc/alloy', hostPath: join(dir, 'volumes/alloy') },
      { mountPath: '/var/lib/alloy/data', hostPath: join(dir, 'volumes/data') },
    ]);
    expect(await readdir(join(dir, 'volumes/config'))).toEqual(['pve.yml']);
    expect(await readFile(join(dir, 'volumes/config/pve.yml'), 'utf8')).toBe('default: {}\n');
    expect((await stat(join(dir, 'volumes/config/pve.yml'))).mode & 0o777).toBe(0o440);
    expect(await readFile(join(dir, 'volumes/alloy/config.alloy'), 'utf8')).toBe('// config\n');
    expect(await readdir(join(dir, 'volumes/data'))).toEqual([]);
  });

  it('keeps the pod waiting while a Secret it mounts is missing, unless optional', async () => {
    const volume = { name: 'token', secret: { secretName: 'metrics-write-credential' } };
    await expect(materialiseVolumes(dir, [volume], {}, lookup)).rejects.toThrow(
      new ContainerConfigError(
        'MountVolume.SetUp failed for volume "token" : secret "metrics-write-credential" not found',
      ),
    );
    const optional = { ...volume, secret: { ...volume.secret, optional: true } };
    await expect(materialiseVolumes(dir, [optional], {}, lookup)).resolves.toEqual([]);
  });

  it('rewrites arguments naming a path under a mount, the longest mount first', () => {
    const mounts = [
      { mountPath: '/etc', hostPath: '/root/etc-volume' },
      { mountPath: '/etc/prometheus', hostPath: '/root/config' },
    ];
    expect(
      mountedArgs(
        ['--config', '/etc/prometheus/pve.yml', '--ca=/etc/ssl/ca.pem', 'run', '/etcetera', '/var/x'],
        mounts,
      ),
    ).toEqual([
      '--config',
      '/root/config/pve.yml',
      '--ca=/root/etc-volume/ssl/ca.pem',
      'run',
      '/etcetera',
      '/var/x',
    ]);
  });
});
