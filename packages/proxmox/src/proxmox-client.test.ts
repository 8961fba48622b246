import { once } from 'node:events';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';

import { afterEach, describe, expect, test } from 'vitest';
import { WebSocketServer } from 'ws';

import { MalformedResponseError, PveUnauthorizedError } from './errors.js';
import { ProxmoxClient, createProxmoxClient } from './proxmox-client.js';
import { encodeSshKeys } from './ssh-keys.js';

/** Wire-level checks against a plain HTTP stand-in; behaviour against Proxmox's is in the .it tests. */

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

const UPID = 'UPID:pve1:00000ABC:00000DEF:679A423B:qmclone:9000:root@pam!sim:';
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function standIn(answer: (request: Seen, response: ServerResponse) => void) {
  const seen: Seen[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const entry = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('latin1'),
      };
      seen.push(entry);
      answer(entry, response);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = createProxmoxClient({ baseUrl: url, token: 'root@pam!sim=secret-1', retries: { count: 0 } });
  cleanups.push(async () => {
    await client.close();
    server.closeAllConnections();
    server.close();
    await once(server, 'close');
  });
  return { client, seen, server };
}

function data(value: unknown) {
  return (_request: Seen, response: ServerResponse) => {
    response.writeHead(200, { 'content-type': 'application/json;charset=UTF-8' });
    response.end(JSON.stringify({ data: value }));
  };
}

describe('ProxmoxClient on the wire', () => {
  test('sends the token header', async () => {
    const { client, seen } = await standIn(data({ version: '8.3.0', release: '8.3', repoid: 'abc' }));
    expect(await client.getVersion()).toEqual({ version: '8.3.0', release: '8.3', repoid: 'abc' });
    expect(seen[0]?.headers.authorization).toBe('PVEAPIToken=root@pam!sim=secret-1');
  });

  test('nextid: the JSON string becomes a number', async () => {
    const { client, seen } = await standIn(data('1042'));
    expect(await client.getNextVmid()).toBe(1042);
    expect(await client.getNextVmid(1042)).toBe(1042);
    expect(seen.map((r) => r.url)).toEqual([
      '/api2/json/cluster/nextid',
      '/api2/json/cluster/nextid?vmid=1042',
    ]);
  });

  test('nextid: anything but a VMID is a MalformedResponseError', async () => {
    const { client } = await standIn(data({ vmid: 100 }));
    await expect(client.getNextVmid()).rejects.toBeInstanceOf(MalformedResponseError);
  });

  test('clone posts its parameters and returns the UPID', async () => {
    const { client, seen } = await standIn(data(UPID));
    const upid = await client.cloneVm('pve1', 9000, {
      newid: 1042,
      name: 'NR-1f0e',
      full: true,
      storage: 'local-lvm',
    });
    expect(upid).toBe(UPID);
    expect(seen[0]?.url).toBe('/api2/json/nodes/pve1/qemu/9000/clone');
    expect(Object.fromEntries(new URLSearchParams(seen[0]?.body))).toEqual({
      newid: '1042',
      name: 'NR-1f0e',
      full: '1',
      storage: 'local-lvm',
    });
  });

  test('a method that starts a task refuses an answer that is not a UPID', async () => {
    const { client } = await standIn(data('<html>'));
    await expect(client.startVm('pve1', 100)).rejects.toBeInstanceOf(MalformedResponseError);
  });

  test('config POST: sshkeys stored URI-encoded and form-encoded again, lists joined', async () => {
    const { client, seen } = await standIn(data(null));
    const keys = ['ssh-ed25519 AAAAC3Nz+/a= alice@example.com', 'ssh-rsa AAAAB3== bob@h'];
    expect(
      await client.updateVmConfig('pve1', 1042, {
        sshkeys: keys,
        tags: ['nr', 'web'],
        delete: ['ide0', 'unused0'],
        cores: 2,
      }),
    ).toBeNull();
    const received = new URLSearchParams(seen[0]?.body);
    expect(received.get('sshkeys')).toBe(encodeSshKeys(keys));
    expect(received.get('sshkeys')).toMatch(/^[-%a-zA-Z0-9_.!~*'()]*$/);
    expect(received.get('tags')).toBe('nr;web');
    expect(received.get('delete')).toBe('ide0,unused0');
  });

  test('config GET with current=1; DELETE of a VM with its hyphenated options in the query', async () => {
    const { client, seen } = await standIn((request, response) => {
      data(request.method === 'GET' ? { digest: 'd', cores: 2, memory: '2048' } : UPID)(request, response);
    });
    expect(await client.getVmConfig('pve1', 100, { current: true })).toEqual({
      digest: 'd',
      cores: 2,
      memory: '2048',
    });
    await client.deleteVm('pve1', 100, { purge: true, destroyUnreferencedDisks: true });
    expect(seen.map((r) => `${r.method} ${r.url} ${r.body}`)).toEqual([
      'GET /api2/json/nodes/pve1/qemu/100/config?current=1 ',
      'DELETE /api2/json/nodes/pve1/qemu/100?purge=1&destroy-unreferenced-disks=1 ',
    ]);
  });

  test('a volume id is one path segment', async () => {
    const { client, seen } = await standIn(data(UPID));
    await client.deleteVolume('pve1', 'local', 'local:backup/vzdump-qemu-100-2026_01_01-00_00_00.vma.zst');
    expect(seen[0]?.url).toBe(
      '/api2/json/nodes/pve1/storage/local/content/local%3Abackup%2Fvzdump-qemu-100-2026_01_01-00_00_00.vma.zst',
    );
  });

  test('vzdump: a UPID is a task, the plain string OK means the VM is on another node', async () => {
    let answer: unknown = UPID;
    const { client, seen } = await standIn((request, response) => {
      data(answer)(request, response);
    });
    expect(
      await client.vzdump('pve1', {
        vmid: 100,
        mode: 'snapshot',
        compress: 'zstd',
        notesTemplate: '{{guestname}}',
      }),
    ).toEqual({ kind: 'task', upid: UPID });
    expect(new URLSearchParams(seen[0]?.body).get('notes-template')).toBe('{{guestname}}');
    answer = 'OK';
    expect(await client.vzdump('pve2', { vmid: 100 })).toEqual({ kind: 'not-on-this-node' });
  });

  test('upload sends multipart with content first and the file part named filename', async () => {
    const { client, seen } = await standIn(data(UPID));
    const upid = await client.uploadToStorage('pve1', 'local', {
      content: 'iso',
      filename: 'nr-seed.iso',
      data: new Uint8Array([0x43, 0x44, 0x30, 0x30, 0x31]),
    });
    expect(upid).toBe(UPID);
    const request = seen[0];
    expect(request?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const body = request?.body ?? '';
    expect(body).toMatch(/name="content"\r\n\r\niso\r\n/);
    expect(body).toMatch(
      /name="filename"; filename="nr-seed.iso"\r\nContent-Type: application\/octet-stream\r\n\r\nCD001\r\n/,
    );
    expect(body.indexOf('name="content"')).toBeLessThan(body.indexOf('name="filename"'));
  });

  test('vncproxy asks for a websocket ticket and normalises the port', async () => {
    const { client, seen } = await standIn(
      data({
        user: 'root@pam!sim',
        ticket: 'PVEVNC:x',
        password: 'abcdefgh',
        cert: 'PEM',
        port: '5900',
        upid: UPID,
      }),
    );
    expect((await client.createVncProxy('pve1', 100)).port).toBe(5900);
    expect(seen[0]?.body).toBe('websocket=1');
  });

  test('firewall rule update joins delete and sends moveto', async () => {
    const { client, seen } = await standIn(data(null));
    await client.updateFirewallRule('pve1', 100, 3, {
      moveto: 0,
      delete: ['comment', 'sport'],
      digest: 'abc',
    });
    expect(seen[0]?.method).toBe('PUT');
    expect(seen[0]?.url).toBe('/api2/json/nodes/pve1/qemu/100/firewall/rules/3');
    expect(Object.fromEntries(new URLSearchParams(seen[0]?.body))).toEqual({
      moveto: '0',
      digest: 'abc',
      delete: 'comment,sport',
    });
  });

  test('stop and shutdown take their options under Proxmox names', async () => {
    const { client, seen } = await standIn(data(UPID.replace('qmclone', 'qmstop')));
    await client.stopVm('pve1', 100, { overruleShutdown: true, timeout: 10 });
    await client.shutdownVm('pve1', 100, { forceStop: true, timeout: 30 });
    expect(seen.map((r) => `${r.url} ${r.body}`)).toEqual([
      '/api2/json/nodes/pve1/qemu/100/status/stop timeout=10&overrule-shutdown=1',
      '/api2/json/nodes/pve1/qemu/100/status/shutdown forceStop=1&timeout=30',
    ]);
  });

  test('monitoring reads go to their paths', async () => {
    const { client, seen } = await standIn(data([]));
    await client.getGuestsNotBackedUp();
    await client.getContainers('pve1');
    await client.getReplicationJobs('pve1');
    const objects = await standIn((request, response) => {
      const answers: Record<string, unknown> = {
        '/api2/json/nodes/pve1/subscription': { status: 'notfound' },
        '/api2/json/nodes/pve1/lxc/101/config': { digest: 'abc' },
        '/api2/json/nodes/pve1/replication/100-0/status': {
          id: '100-0',
          jobnum: 0,
          guest: 100,
          vmtype: 'qemu',
          type: 'local',
          target: 'pve2',
        },
      };
      data(answers[request.url] ?? {})(request, response);
    });
    await objects.client.getQdeviceStatus();
    await objects.client.getSubscription('pve1');
    await objects.client.getContainerConfig('pve1', 101);
    await objects.client.getReplicationJobStatus('pve1', '100-0');
    expect([...seen, ...objects.seen].map((r) => r.url)).toEqual([
      '/api2/json/cluster/backup-info/not-backed-up',
      '/api2/json/nodes/pve1/lxc',
      '/api2/json/nodes/pve1/replication',
      '/api2/json/cluster/config/qdevice',
      '/api2/json/nodes/pve1/subscription',
      '/api2/json/nodes/pve1/lxc/101/config',
      '/api2/json/nodes/pve1/replication/100-0/status',
    ]);
  });

  test('a read given a signal is abandoned with its reason when the signal aborts', async () => {
    const { client, seen } = await standIn(() => undefined);
    const controller = new AbortController();
    const reading = client.getClusterResources(undefined, { signal: controller.signal });
    await expect.poll(() => seen.length).toBe(1);
    const reason = new Error('scrape deadline');
    controller.abort(reason);
    await expect(reading).rejects.toBe(reason);
  });
});

describe('ProxmoxClient console WebSocket', () => {
  test('opens vncwebsocket with the token, the ticket in the query and subprotocol binary', async () => {
    const { server } = await standIn(data(null));
    const upgrades: IncomingMessage[] = [];
    const wss = new WebSocketServer({
      noServer: true,
      handleProtocols: (protocols) => (protocols.has('binary') ? 'binary' : false),
    });
    server.on('upgrade', (request: IncomingMessage, socket, head) => {
      upgrades.push(request);
      wss.handleUpgrade(request, socket, head, (ws) => {
        ws.send(Buffer.from('RFB 003.008\n'));
      });
    });
    const { port } = server.address() as AddressInfo;
    const client = new ProxmoxClient({ baseUrl: `http://127.0.0.1:${port}`, token: 'root@pam!sim=secret-1' });
    cleanups.push(() => client.close());

    const ws = await client.vncWebSocket('pve1', 100, { port: 5900, ticket: 'PVEVNC:abc+/=::sig' });
    // The server spoke at once; paused, its greeting is still there for the listener attached now.
    expect(ws.isPaused).toBe(true);
    const message = once(ws, 'message');
    ws.resume();
    const [greeting] = (await message) as [Buffer];
    expect(greeting.toString()).toBe('RFB 003.008\n');
    expect(ws.protocol).toBe('binary');
    const url = new URL(upgrades[0]?.url ?? '', 'http://x');
    expect(url.pathname).toBe('/api2/json/nodes/pve1/qemu/100/vncwebsocket');
    expect(url.searchParams.get('vncticket')).toBe('PVEVNC:abc+/=::sig');
    expect(url.searchParams.get('port')).toBe('5900');
    expect(upgrades[0]?.headers.authorization).toBe('PVEAPIToken=root@pam!sim=secret-1');
    ws.close();
    wss.close();
  });

  test('a refused upgrade is the typed error of its status', async () => {
    const { client, server } = await standIn(data(null));
    server.on('upgrade', (_request: IncomingMessage, socket: Duplex) => {
      socket.end('HTTP/1.1 401 No ticket\r\nContent-Length: 0\r\n\r\n');
    });
    const error = await client
      .vncWebSocket('pve1', 100, { port: 5900, ticket: 't' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PveUnauthorizedError);
    expect((error as PveUnauthorizedError).pveMessage).toBe('No ticket');
  });
});

type Read = (client: ProxmoxClient) => Promise<unknown>;

/** Each read, an answer real Proxmox would not send, and the field the error must name. */
const MALFORMED: [name: string, read: Read, data: unknown, field: string][] = [
  ['getVersion', (c) => c.getVersion(), { version: 8, release: '8.3', repoid: 'a' }, 'data.version'],
  [
    'getClusterStatus',
    (c) => c.getClusterStatus(),
    [{ type: 'cluster', id: 'cluster', name: 'c', quorate: 'yes', nodes: 1, version: 1 }],
    'data[0].quorate',
  ],
  [
    'getClusterResources',
    (c) => c.getClusterResources(),
    [
      { id: 'pool/p', type: 'pool' },
      { id: 'storage/pve1/local', type: 'storage', storage: 'local', node: 'pve1', status: 'ok', content: 7 },
    ],
    'data[1].content',
  ],
  ['getGuestsNotBackedUp', (c) => c.getGuestsNotBackedUp(), [{ vmid: 100, type: 'vm' }], 'data[0].type'],
  ['getQdeviceStatus', (c) => c.getQdeviceStatus(), { State: 1 }, 'data.State'],
  ['getNextVmid', (c) => c.getNextVmid(), '0100', 'data'],
  ['getNodes', (c) => c.getNodes(), [{ status: 'online' }], 'data[0].node'],
  [
    'getNodeStatus',
    (c) => c.getNodeStatus('pve1'),
    {
      cpu: 0.1,
      loadavg: ['0.1', '0.2', '0.3'],
      memory: { total: 1, used: 1, free: 0 },
      rootfs: { total: 1, used: 1, avail: 0 },
      cpuinfo: { cpus: 4, sockets: 1 },
      uptime: 1,
      pveversion: 'pve-manager/8.3.0',
    },
    'data.cpuinfo.model',
  ],
  ['getVms', (c) => c.getVms('pve1'), [{ vmid: 'a', name: 'x', status: 'running' }], 'data[0].vmid'],
  ['getContainers', (c) => c.getContainers('pve1'), [{ vmid: 101 }], 'data[0].status'],
  [
    'getContainerConfig',
    (c) => c.getContainerConfig('pve1', 101),
    { digest: 'abc', net0: { name: 'eth0' } },
    'data.net0',
  ],
  ['getReplicationJobs', (c) => c.getReplicationJobs('pve1'), [{ id: '100-0' }], 'data[0].jobnum'],
  [
    'getReplicationJobStatus',
    (c) => c.getReplicationJobStatus('pve1', '100-0'),
    { id: '100-0', jobnum: 0, guest: 100, vmtype: 'qemu', type: 'local', target: ['pve2'] },
    'data.target',
  ],
  ['getSubscription', (c) => c.getSubscription('pve1'), { status: null }, 'data.status'],
  [
    'getStorages',
    (c) => c.getStorages('pve1'),
    [{ storage: 'local', type: 'dir', content: ['iso', 'images'] }],
    'data[0].content',
  ],
  [
    'getStorageStatus',
    (c) => c.getStorageStatus('pve1', 'local'),
    { total: 'lots', used: 1, avail: 1, active: 1, enabled: 1, type: 'dir', shared: 0 },
    'data.total',
  ],
  [
    'getStorageContent',
    (c) => c.getStorageContent('pve1', 'local'),
    [{ volid: 'local:iso/a.iso', format: 'iso', size: 1 }],
    'data[0].content',
  ],
  ['getVmConfig', (c) => c.getVmConfig('pve1', 100), { name: 'vm' }, 'data.digest'],
  ['getVmPending', (c) => c.getVmPending('pve1', 100), [{ key: 'cores', delete: 3 }], 'data[0].delete'],
  ['getVmStatus', (c) => c.getVmStatus('pve1', 100), { status: 'paused', vmid: 100 }, 'data.status'],
  ['getSnapshots', (c) => c.getSnapshots('pve1', 100), [{ name: 'current' }, {}], 'data[1].name'],
  [
    'getFirewallRules',
    (c) => c.getFirewallRules('pve1', 100),
    [{ pos: 0, type: 'sideways', action: 'ACCEPT' }],
    'data[0].type',
  ],
  ['getFirewallRule', (c) => c.getFirewallRule('pve1', 100, 0), { pos: 0, type: 'in' }, 'data.action'],
  ['getFirewallOptions', (c) => c.getFirewallOptions('pve1', 100), { enable: 'on' }, 'data.enable'],
  [
    'createVncProxy',
    (c) => c.createVncProxy('pve1', 100),
    { user: 'root@pam', ticket: 't', cert: 'c', port: 'vnc', upid: UPID },
    'data.port',
  ],
  ['getTaskStatus', (c) => c.getTaskStatus('pve1', UPID), { upid: UPID, status: 'stopped' }, 'data.node'],
  ['getTaskLog', (c) => c.getTaskLog('pve1', UPID), [{ n: 1, t: null }], 'data[0].t'],
  [
    'getPermissions',
    (c) => c.getPermissions({ path: '/vms' }),
    { '/vms': { 'VM.Audit': 'yes' } },
    'data./vms.VM.Audit',
  ],
];

describe('an answer of the wrong shape', () => {
  test.each(MALFORMED)('%s: a MalformedResponseError naming the field', async (_name, read, value, field) => {
    const { client } = await standIn(data(value));
    const error: unknown = await read(client).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(MalformedResponseError);
    expect((error as MalformedResponseError).pveMessage).toMatch(new RegExp(`^${escape(field)}: `));
  });

  test('numbers Perl sent as strings and fields Proxmox added are accepted', async () => {
    const { client } = await standIn(
      data([{ vmid: '100', name: 'vm', status: 'running', maxmem: '2048', template: '0', future: 1 }]),
    );
    expect(await client.getVms('pve1')).toEqual([
      { vmid: 100, name: 'vm', status: 'running', maxmem: 2048, template: 0, future: 1 },
    ]);
  });

  test('permissions: the path and userid go in the query, flags Perl sent as strings become 0/1', async () => {
    const { client, seen } = await standIn(data({ '/vms': { 'VM.Audit': '1', 'VM.Console': 0 } }));
    expect(await client.getPermissions({ path: '/vms', userid: 'nr@pve!k8s' })).toEqual({
      '/vms': { 'VM.Audit': 1, 'VM.Console': 0 },
    });
    expect(seen[0]?.url).toBe('/api2/json/access/permissions?path=%2Fvms&userid=nr%40pve!k8s');
  });

  test('resources Proxmox lists beyond guests, nodes and storage are handed out unchanged', async () => {
    const sdn = { id: 'sdn/pve1/localnetwork', type: 'sdn', sdn: 'localnetwork', node: 'pve1' };
    const { client } = await standIn(data([sdn]));
    expect(await client.getClusterResources()).toEqual([sdn]);
  });
});

function escape(text: string): string {
  return text.replace(/[.[\]]/g, '\\$&');
}
