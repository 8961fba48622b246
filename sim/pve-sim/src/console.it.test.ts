import { afterAll, beforeAll, expect, test } from 'vitest';
import WebSocket, { createWebSocketStream } from 'ws';
import { call, data, runTask, tokenHeader, waitTask } from './api-test-client.js';
import { startPveSim, type PveSim } from './pve-sim.js';
import { RfbClient, RfbSecurityError, readConsoleText } from './vnc/index.js';

let sim: PveSim;
const sockets: WebSocket[] = [];
beforeAll(async () => {
  sim = await startPveSim({ taskMs: 5, vncConnectTimeoutMs: 400 });
  expect(
    (
      await runTask(sim, 'POST', '/nodes/pve1/qemu/9000/clone', {
        params: { newid: 200, name: 'NR-5f0c2d1e' },
      })
    ).exitstatus,
  ).toBe('OK');
  expect((await runTask(sim, 'POST', '/nodes/pve1/qemu/200/status/start')).exitstatus).toBe('OK');
});
afterAll(async () => {
  for (const ws of sockets) ws.terminate();
  await sim.close();
});

interface VncProxy {
  user: string;
  ticket: string;
  password: string;
  port: number;
  upid: string;
  cert: string;
}

const vncproxy = (vmid = 200) =>
  data<VncProxy>(sim, 'POST', `/nodes/pve1/qemu/${vmid}/vncproxy`, { params: { websocket: 1 } });

/** Opens vncwebsocket as a client would: token header, `binary` subprotocol, the certificate verified. */
function openWebSocket(proxy: VncProxy, vmid = 200, ticket = proxy.ticket): Promise<WebSocket> {
  const url = `${sim.url.replace('https:', 'wss:')}/api2/json/nodes/pve1/qemu/${vmid}/vncwebsocket?port=${proxy.port}&vncticket=${encodeURIComponent(ticket)}`;
  const ws = new WebSocket(url, ['binary'], {
    headers: { Authorization: tokenHeader(sim) },
    ca: sim.certPem,
  });
  sockets.push(ws);
  return new Promise((resolve, reject) => {
    ws.once('open', () => {
      resolve(ws);
    });
    ws.once('unexpected-response', (_req, res) => {
      reject(new Error(`${res.statusCode ?? 0} ${res.statusMessage ?? ''}`));
    });
    ws.once('error', reject);
  });
}

test('vncproxy answers a port, a PVEVNC ticket carrying the password, and a running vncproxy task', async () => {
  const proxy = await vncproxy();
  expect(proxy.user).toBe('root@pam!sim');
  expect(proxy.port).toBeGreaterThanOrEqual(5900);
  expect(proxy.port).toBeLessThanOrEqual(5999);
  expect(proxy.password).toMatch(/^.{8}$/);
  expect(proxy.ticket).toMatch(
    new RegExp(`^${proxy.password.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:PVEVNC:[0-9A-F]{8}::`),
  );
  expect(proxy.upid).toMatch(/:vncproxy:200:root@pam!sim:$/);
  expect(proxy.cert).toContain('BEGIN CERTIFICATE');
  const ws = await openWebSocket(proxy);
  ws.close();
});

test('vncproxy → vncwebsocket → RFB with VNC authentication → a framebuffer that shows the VM name', async () => {
  const proxy = await vncproxy();
  const ws = await openWebSocket(proxy);
  expect(ws.protocol).toBe('binary');
  const rfb = await RfbClient.connect(createWebSocketStream(ws), { password: proxy.password });
  expect(rfb.name).toBe('NR-5f0c2d1e');
  const frame = await rfb.fetchFrame();
  const text = readConsoleText(frame);
  expect(text).toContain('Ubuntu 24.04 LTS NR-5f0c2d1e tty1');
  expect(text).toContain('NR-5f0c2d1e login:');
  rfb.typeText('root');
  await rfb.nextUpdate();
  expect(readConsoleText(rfb.image())).toContain('NR-5f0c2d1e login: root');
  const shown = await data<{ text: string }>(sim, 'GET', '/sim/vms/200/console');
  expect(shown.text).toContain('NR-5f0c2d1e login: root');
  rfb.close();
  expect((await waitTask(sim, proxy.upid)).exitstatus).toBe('OK');
});

test('the wrong VNC password fails RFB authentication', async () => {
  const proxy = await vncproxy();
  const ws = await openWebSocket(proxy);
  const error = await RfbClient.connect(createWebSocketStream(ws), { password: 'wrongpw!' }).catch(
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RfbSecurityError);
  expect((error as RfbSecurityError).reason).toBe('Authentication failed');
});

test('a ticket for another port, a forged ticket and a second connection are refused', async () => {
  const proxy = await vncproxy();
  const other = await vncproxy();
  await expect(openWebSocket(proxy, 200, other.ticket)).rejects.toThrow(
    /^401 permission denied - invalid vnc ticket$/,
  );
  await expect(openWebSocket(proxy, 200, `${proxy.password}:PVEVNC:00000000::forged`)).rejects.toThrow(
    /^401/,
  );
  await openWebSocket(proxy);
  await expect(openWebSocket(proxy)).rejects.toThrow(/^500 unable to connect to VNC proxy port/);
});

test('a token without VM.Console on the VM is refused by vncproxy', async () => {
  const limited = await startPveSim({
    taskMs: 5,
    tokens: [{ id: 'viewer@pve!ro', secret: 's', acl: [{ path: '/vms', role: 'PVEAuditor' }] }],
  });
  try {
    const reply = await call(limited, 'POST', '/nodes/pve1/qemu/100/vncproxy', { params: { websocket: 1 } });
    expect([reply.status, reply.statusMessage]).toEqual([
      403,
      'Permission check failed (/vms/100, VM.Console)',
    ]);
  } finally {
    await limited.close();
  }
});

test('the proxy waits a limited time for its connection, then its task fails', async () => {
  const proxy = await vncproxy();
  const task = await waitTask(sim, proxy.upid);
  expect(task.exitstatus).toBe('connection timed out');
  await expect(openWebSocket(proxy)).rejects.toThrow(/^401/);
});

test('stopping the VM ends its console session', async () => {
  const proxy = await vncproxy();
  const ws = await openWebSocket(proxy);
  const rfb = await RfbClient.connect(createWebSocketStream(ws), { password: proxy.password });
  expect(rfb.name).toBe('NR-5f0c2d1e');
  const closed = new Promise((resolve) => ws.once('close', resolve));
  expect((await runTask(sim, 'POST', '/nodes/pve1/qemu/200/status/stop')).exitstatus).toBe('OK');
  await closed;
  expect((await data<{ text: string }>(sim, 'GET', '/sim/vms/200/console')).text).toBe('');
});
