import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { call, data, runTask } from './api-test-client.js';
import { mkisofs } from './iso/mkisofs.test-support.js';
import { startPveSim, type PveSim } from './pve-sim.js';

let sim: PveSim;
let dir: string;
beforeAll(async () => {
  sim = await startPveSim({ taskMs: 5 });
  dir = await mkdtemp(join(tmpdir(), 'pve-sim-upload-'));
});
afterAll(async () => {
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

/** A browser-style multipart body: fields first, then the file part named `filename`, as PVE's GUI sends. */
function multipart(
  fields: Record<string, string>,
  file?: { name: string; data: Buffer },
): { body: Buffer; type: string } {
  const boundary = `----pvesim${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="filename"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
    );
    parts.push(file.data, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), type: `multipart/form-data; boundary=${boundary}` };
}

async function upload(
  storage: string,
  fields: Record<string, string>,
  file?: { name: string; data: Buffer },
) {
  const { body, type } = multipart(fields, file);
  return call(sim, 'POST', `/nodes/pve1/storage/${storage}/upload`, { rawBody: body, contentType: type });
}

test('an uploaded ISO is kept byte for byte, listed as iso content, and read back as the VM seed once attached', async () => {
  const files = {
    'user-data': Buffer.from('#cloud-config\nhostname: web-1\n'),
    'meta-data': Buffer.from('instance-id: iid-web-1\n'),
    'network-config': Buffer.from('version: 2\n'),
  };
  const iso = await mkisofs(dir, files, { joliet: true, rockRidge: true });
  const reply = await upload('local', { content: 'iso' }, { name: 'nr-300-cloudinit.iso', data: iso });
  expect(reply.status).toBe(200);
  const upid = reply.json.data as string;
  expect(upid).toMatch(/:imgcopy::root@pam!sim:$/);

  const listed = await data<{ volid: string; size: number; format: string }[]>(
    sim,
    'GET',
    '/nodes/pve1/storage/local/content',
    { params: { content: 'iso' } },
  );
  expect(listed).toContainEqual(
    expect.objectContaining({ volid: 'local:iso/nr-300-cloudinit.iso', size: iso.length, format: 'iso' }),
  );
  const stored = await call(
    sim,
    'GET',
    `/sim/volume?node=pve1&volid=${encodeURIComponent('local:iso/nr-300-cloudinit.iso')}`,
  );
  expect(stored.body.equals(iso)).toBe(true);

  expect(
    (await runTask(sim, 'POST', '/nodes/pve1/qemu/9000/clone', { params: { newid: 300 } })).exitstatus,
  ).toBe('OK');
  await data(sim, 'PUT', '/nodes/pve1/qemu/300/config', {
    params: { ide3: 'local:iso/nr-300-cloudinit.iso,media=cdrom' },
  });
  const seed = await data<{ source: string; drive: string; volumeId: string; files: Record<string, string> }>(
    sim,
    'GET',
    '/sim/vms/300/cloudinit',
  );
  expect(seed).toEqual({
    source: 'iso',
    drive: 'ide3',
    volid: 'local:iso/nr-300-cloudinit.iso',
    volumeId: 'cidata',
    files: Object.fromEntries(Object.entries(files).map(([k, v]) => [k, v.toString()])),
  });
});

test('without a seed ISO, the view is the Proxmox cloud-init drive rendered from the config keys', async () => {
  expect(
    (await runTask(sim, 'POST', '/nodes/pve1/qemu/9000/clone', { params: { newid: 301, name: 'db-1' } }))
      .exitstatus,
  ).toBe('OK');
  const mac = 'BC:24:11:00:00:2A';
  await data(sim, 'PUT', '/nodes/pve1/qemu/301/config', {
    params: {
      net0: `virtio=${mac},bridge=vmbr0`,
      ipconfig0: 'ip=203.0.113.11/24,gw=203.0.113.1',
      nameserver: '203.0.113.53',
      ciuser: 'nr',
      sshkeys: encodeURIComponent('ssh-ed25519 AAAAC3 alice@example'),
    },
  });
  const seed = await data<{ source: string; files: Record<string, string> }>(
    sim,
    'GET',
    '/sim/vms/301/cloudinit',
  );
  expect(seed.source).toBe('proxmox');
  expect(seed.files['user-data']).toContain('hostname: db-1');
  expect(seed.files['user-data']).toContain('  - ssh-ed25519 AAAAC3 alice@example');
  expect(seed.files['network-config']).toContain(`mac_address: '${mac.toLowerCase()}'`);
  expect(seed.files['network-config']).toContain("address: '203.0.113.11/24'");
});

test('uploads of the wrong kind, to the wrong storage or without a file are refused and store nothing', async () => {
  const data4k = Buffer.alloc(4096, 1);
  const wrongExt = await upload('local', { content: 'iso' }, { name: 'seed.exe', data: data4k });
  expect([wrongExt.status, wrongExt.json.errors]).toEqual([400, { filename: 'wrong file extension' }]);
  const wrongStorage = await upload('local-lvm', { content: 'iso' }, { name: 'seed.iso', data: data4k });
  expect([wrongStorage.status, wrongStorage.json.errors]).toEqual([
    400,
    { storage: "storage 'local-lvm' does not support 'iso' content" },
  ]);
  const noFile = await upload('local', { content: 'iso' });
  expect(noFile.status).toBe(400);
  const badContent = await upload('local', { content: 'images' }, { name: 'x.iso', data: data4k });
  expect(badContent.json.errors?.content).toMatch(/does not have a value in the enumeration/);
  const list = await data<{ volid: string }[]>(sim, 'GET', '/nodes/pve1/storage/local/content', {
    params: { content: 'iso' },
  });
  expect(list.map((v) => v.volid)).not.toContain('local:iso/seed.iso');
});
