import { afterAll, beforeAll, expect, test } from 'vitest';
import { call, data, type ApiReply } from './api-test-client.js';
import { startPveSim, type PveSim } from './pve-sim.js';

let sim: PveSim;
beforeAll(async () => {
  sim = await startPveSim({ taskMs: 1 });
});
afterAll(async () => {
  await sim.close();
});

/** A small seeded generator, so that a failing case can be replayed. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PATHS = [
  '/version',
  '/cluster/status',
  '/cluster/resources',
  '/cluster/nextid',
  '/nodes',
  '/nodes/{n}/status',
  '/nodes/{n}/qemu',
  '/nodes/{n}/qemu/{v}/config',
  '/nodes/{n}/qemu/{v}/pending',
  '/nodes/{n}/qemu/{v}/status/current',
  '/nodes/{n}/qemu/{v}/status/{a}',
  '/nodes/{n}/qemu/{v}/clone',
  '/nodes/{n}/qemu/{v}/resize',
  '/nodes/{n}/qemu/{v}',
  '/nodes/{n}/qemu',
  '/nodes/{n}/qemu/{v}/snapshot',
  '/nodes/{n}/qemu/{v}/snapshot/{s}/rollback',
  '/nodes/{n}/qemu/{v}/firewall/rules',
  '/nodes/{n}/qemu/{v}/firewall/rules/{p}',
  '/nodes/{n}/qemu/{v}/firewall/options',
  '/nodes/{n}/vzdump',
  '/nodes/{n}/storage',
  '/nodes/{n}/storage/{st}/content',
  '/nodes/{n}/storage/{st}/status',
  '/nodes/{n}/storage/{st}/upload',
  '/nodes/{n}/qemu/{v}/vncproxy',
  '/nodes/{n}/tasks/{u}/status',
  '/access/ticket',
  '/nodes/{n}/../../etc/passwd',
  '/%ff%fe',
  '//nodes///',
];
const GARBAGE = [
  '',
  '0',
  '-1',
  '1e9',
  'abc',
  'true',
  '💥',
  "'; DROP TABLE vms;--",
  '%00',
  '\u0000',
  'a'.repeat(5000),
  '{"a":1}',
  '../..',
  'UPID:x',
  ' 100 ',
  '99999999999',
  'virtio,tag=0',
  'local-lvm:9999999',
  '+1T',
  '$(reboot)',
];
const NAMES = [
  'newid',
  'vmid',
  'name',
  'full',
  'storage',
  'target',
  'cores',
  'memory',
  'net0',
  'ipconfig0',
  'sshkeys',
  'tags',
  'delete',
  'digest',
  'disk',
  'size',
  'type',
  'action',
  'dport',
  'proto',
  'pos',
  'moveto',
  'mode',
  'compress',
  'archive',
  'force',
  'unique',
  'enable',
  'websocket',
  'current',
  'snapname',
  'zzz',
  'scsi0',
  'ide2',
  'description',
];

function pick<T>(rand: () => number, items: readonly T[]): T {
  return items[Math.floor(rand() * items.length)] as T;
}

function randomRequest(rand: () => number): {
  method: string;
  path: string;
  params: Record<string, string>;
  raw?: { body: string; type: string };
  token?: string | null;
} {
  const method = pick(rand, ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']);
  const path = pick(rand, PATHS)
    .replace('{n}', pick(rand, ['pve1', 'pve2', 'nope', '', 'PVE1', '..']))
    .replace('{v}', pick(rand, ['100', '9000', '4242', '-5', 'abc', '0', '1000000000']))
    .replace('{a}', pick(rand, ['start', 'stop', 'shutdown', 'reboot', 'reset', 'fly']))
    .replace('{s}', pick(rand, ['snap1', 'current', '💥']))
    .replace('{p}', pick(rand, ['0', '9', '-1', 'x']))
    .replace('{st}', pick(rand, ['local', 'local-lvm', 'nope', 'a:b']))
    .replace(
      '{u}',
      encodeURIComponent(
        pick(rand, ['UPID:pve1:00000001:00000001:00000001:qmstart:100:root@pam:', 'garbage', '']),
      ),
    );
  const params: Record<string, string> = {};
  const count = Math.floor(rand() * 5);
  for (let i = 0; i < count; i++) params[pick(rand, NAMES)] = pick(rand, GARBAGE);
  const roll = rand();
  const raw =
    roll < 0.1
      ? {
          body: pick(rand, ['{', '[1,2]', 'null', '{"cores":{"a":1}}', '"str"', '{"full":"yes"}']),
          type: 'application/json',
        }
      : roll < 0.15
        ? {
            body: '--xx\r\nContent-Disposition: form-data; name="content"\r\n\r\niso\r\n--xx',
            type: 'multipart/form-data; boundary=xx',
          }
        : undefined;
  const token =
    rand() < 0.05
      ? pick(rand, [null, 'PVEAPIToken=', 'PVEAPIToken=root@pam!sim', 'Basic abc', 'PVEAPIToken=a=b=c'])
      : undefined;
  return { method, path, params, ...(raw ? { raw } : {}), ...(token !== undefined ? { token } : {}) };
}

function expectProxmoxShape(reply: ApiReply, what: string): void {
  if (reply.status === 401) {
    expect(reply.text, what).toBe('');
    expect(reply.statusMessage.length, what).toBeGreaterThan(0);
    return;
  }
  expect(reply.headers['content-type'], what).toBe('application/json;charset=UTF-8');
  expect(reply.json, what).toBeTypeOf('object');
  expect(Object.hasOwn(reply.json as object, 'data'), what).toBe(true);
  if (reply.status === 200) return;
  expect([400, 403, 413, 500, 501], what).toContain(reply.status);
  expect(reply.json.data, what).toBeNull();
  expect(reply.json.message, what).toMatch(/\n$/);
  // The reason phrase carries the message's first line as UTF-8 bytes, control characters masked.
  const firstLine = ((reply.json.message ?? '').split('\n')[0] ?? '').replace(/\p{Cc}/gu, '?');
  expect(Buffer.from(reply.statusMessage, 'latin1').toString('utf8'), what).toBe(firstLine);
  if (reply.status === 400 && reply.json.errors !== undefined) {
    for (const message of Object.values(reply.json.errors as Record<string, unknown>))
      expect(message, what).toBeTypeOf('string');
  }
}

test('a few hundred random and malformed requests all get answers in Proxmox shape, and the simulator keeps serving', async () => {
  const rand = prng(20261130);
  for (let i = 0; i < 400; i++) {
    const r = randomRequest(rand);
    const what = `#${i} ${r.method} ${r.path} ${JSON.stringify(r.params)} ${JSON.stringify(r.raw ?? null)}`;
    const reply = await call(sim, r.method, r.path, {
      params: r.params,
      ...(r.raw ? { rawBody: r.raw.body, contentType: r.raw.type } : {}),
      ...(r.token !== undefined ? { token: r.token } : {}),
    });
    expectProxmoxShape(reply, what);
  }
  await sim.idle();
  expect(await data(sim, 'GET', '/version')).toHaveProperty('release');
  expect((await data<unknown[]>(sim, 'GET', '/nodes')).length).toBe(3);
});

test('a bad request changes nothing', async () => {
  const before = await data<Record<string, unknown>>(sim, 'GET', '/nodes/pve2/qemu/9002/config');
  const attempts: Record<string, string>[] = [
    { cores: '-3' },
    { net0: 'virtio,bridge=vmbr0,foo=1', name: 'ok' },
    { scsi1: 'nope:5', description: 'x' },
    { delete: 'nonsense', tags: 'ok' },
  ];
  for (const params of attempts) {
    const reply = await call(sim, 'PUT', '/nodes/pve2/qemu/9002/config', { params });
    expect(reply.status, JSON.stringify(params)).toBeGreaterThanOrEqual(400);
  }
  expect(await data(sim, 'GET', '/nodes/pve2/qemu/9002/config')).toEqual(before);
});

test('a refused config change that asked for a new disk leaves no volume behind', async () => {
  const before = await data<{ volid: string }[]>(sim, 'GET', '/nodes/pve1/storage/local-lvm/content');
  const reply = await call(sim, 'PUT', '/nodes/pve1/qemu/9001/config', {
    params: { scsi1: 'local-lvm:4', cores: 'many' },
  });
  expect(reply.status).toBe(400);
  expect(await data(sim, 'GET', '/nodes/pve1/storage/local-lvm/content')).toEqual(before);
});
