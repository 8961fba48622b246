import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, test } from 'vitest';

import {
  differingHostSignal,
  hostSignalsFromCadvisor,
  mergeHostSignals,
  readHostSignalFiles,
} from './host-signals.js';

const MACHINE_ID = '0123456789abcdef0123456789abcdef';
const UUID = 'ec2f7a3e-1b2c-4d5e-8f90-123456789abc';

describe('host signals', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'node-agent-host-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  test('come from /etc/machine-id and DMI product_uuid under the host root, normalised', async () => {
    await mkdir(join(root, 'etc'));
    await mkdir(join(root, 'sys/class/dmi/id'), { recursive: true });
    await writeFile(join(root, 'etc/machine-id'), `${MACHINE_ID.toUpperCase()}\n`);
    await writeFile(join(root, 'sys/class/dmi/id/product_uuid'), `${UUID.toUpperCase()}\n`);
    expect(await readHostSignalFiles(root)).toEqual({ machineId: MACHINE_ID, systemUuid: UUID });
  });

  test('leave out what is missing or malformed (and DMI’s all-zero uuid)', async () => {
    expect(await readHostSignalFiles(root)).toEqual({});
    await mkdir(join(root, 'etc'));
    await mkdir(join(root, 'sys/class/dmi/id'), { recursive: true });
    await writeFile(join(root, 'etc/machine-id'), 'uninitialized\n');
    await writeFile(join(root, 'sys/class/dmi/id/product_uuid'), '00000000-0000-0000-0000-000000000000\n');
    expect(await readHostSignalFiles(root)).toEqual({});
  });

  test('come from the kubelet’s machine_cpu_cores labels when the files are not mounted', () => {
    const text = [
      '# HELP machine_cpu_cores Number of logical CPU cores.',
      '# TYPE machine_cpu_cores gauge',
      `machine_cpu_cores{boot_id="b\\"1",machine_id="${MACHINE_ID}",system_uuid="${UUID.toUpperCase()}"} 8`,
      'container_cpu_usage_seconds_total{container="x"} 1 1700000000000',
    ].join('\n');
    expect(hostSignalsFromCadvisor(text)).toEqual({ machineId: MACHINE_ID, systemUuid: UUID });
    expect(hostSignalsFromCadvisor('machine_cpu_cores 8\n')).toEqual({});
    expect(hostSignalsFromCadvisor('garbage{{{')).toEqual({});
  });

  test('the files win; the kubelet fills gaps', () => {
    expect(
      mergeHostSignals({ machineId: MACHINE_ID }, { machineId: 'f'.repeat(32), systemUuid: UUID }),
    ).toEqual({
      machineId: MACHINE_ID,
      systemUuid: UUID,
    });
  });

  test('only a signal known on both sides can differ', () => {
    expect(differingHostSignal({ machineId: MACHINE_ID }, {})).toBeUndefined();
    expect(differingHostSignal({ systemUuid: UUID }, { systemUuid: UUID.toUpperCase() })).toBeUndefined();
    expect(
      differingHostSignal({ systemUuid: UUID }, { systemUuid: 'ec2f7a3e-1b2c-4d5e-8f90-000000000000' }),
    ).toEqual({
      signal: 'DMI product_uuid',
      stored: UUID,
      current: 'ec2f7a3e-1b2c-4d5e-8f90-000000000000',
    });
  });
});
