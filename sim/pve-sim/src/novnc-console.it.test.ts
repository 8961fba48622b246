import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { data, runTask } from './api-test-client.js';
import { startPveSim, type PveSim } from './pve-sim.js';
import { readConsoleText } from './vnc/index.js';

// A real noVNC in headless Chromium, the way Proxmox's own console page uses it: logged in with a
// PVEAuthCookie, it opens the simulator's vncwebsocket after a vncproxy call and authenticates to the
// VM's RFB server with the one-time password.

const CHROMIUM = '/usr/bin/chromium';
const VM = 'NR-8c41d2e7';
const VMID = 200;
const USER = { userid: 'root@pam', password: 'console-test' };
const SCREENSHOT = '/tmp/novnc.png';
/** noVNC's package root: its "exports" names core/rfb.js, two levels down. */
const NOVNC_ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.resolve('@novnc/novnc'))));

// The page reports noVNC's events through window.vnc, which the test polls; readCanvas hands the
// canvas pixels over as base64, since a million-number JSON array would be slow.
const PAGE = `<!doctype html>
<html>
  <head>
    <meta charset="utf-8" />
    <title>console</title>
    <link rel="icon" href="data:," />
    <style>
      html, body { margin: 0; background: #000; }
      #screen { width: 100vw; height: 100vh; }
    </style>
  </head>
  <body>
    <div id="screen"></div>
    <script type="module">
      import RFB from '/novnc/core/rfb.js';

      const params = new URLSearchParams(location.search);
      const state = { connected: false, desktopName: null, disconnected: null, securityFailure: null };
      window.vnc = state;
      const rfb = new RFB(document.getElementById('screen'), params.get('ws'), {
        credentials: { password: params.get('password') },
        wsProtocols: ['binary'],
      });
      rfb.addEventListener('connect', () => { state.connected = true; });
      rfb.addEventListener('desktopname', (event) => { state.desktopName = event.detail.name; });
      rfb.addEventListener('disconnect', (event) => { state.disconnected = { clean: event.detail.clean }; });
      rfb.addEventListener('securityfailure', (event) => {
        state.securityFailure = { status: event.detail.status, reason: event.detail.reason ?? null };
      });
      window.focusConsole = () => rfb.focus();
      window.readCanvas = () => {
        const canvas = document.querySelector('#screen canvas');
        const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
        let binary = '';
        for (let offset = 0; offset < data.length; offset += 0x8000) {
          binary += String.fromCharCode(...data.subarray(offset, offset + 0x8000));
        }
        return { width: canvas.width, height: canvas.height, base64: btoa(binary) };
      };
    </script>
  </body>
</html>
`;

interface PageState {
  connected: boolean;
  desktopName: string | null;
  disconnected: { clean: boolean } | null;
  securityFailure: { status: number; reason: string | null } | null;
}

interface Login {
  ticket: string;
  CSRFPreventionToken: string;
}

interface Harness {
  sim: PveSim;
  http: Server;
  baseUrl: string;
  browser: Browser;
  context: BrowserContext;
  login: Login;
}

let harness: Harness | undefined;
const cleanups: (() => Promise<unknown>)[] = [];
/** Why the harness did not start; every test rethrows it, so a missing browser fails them rather than skipping them. */
let startFailure: Error | undefined;

beforeAll(async () => {
  try {
    harness = await startHarness();
  } catch (e: unknown) {
    startFailure = e instanceof Error ? e : new Error(String(e));
  }
});

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function startHarness(): Promise<Harness> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is required at ${CHROMIUM} for the noVNC test (apt-get install chromium); it does not skip`,
    );
  }
  // Plain HTTP keeps the browser's certificate checks out of the way; the path and auth are PVE's.
  const sim = await startPveSim({ http: true, taskMs: 5, users: [USER] });
  cleanups.push(() => sim.close());
  expect(
    (await runTask(sim, 'POST', `/nodes/pve1/qemu/9000/clone`, { params: { newid: VMID, name: VM } }))
      .exitstatus,
  ).toBe('OK');
  expect((await runTask(sim, 'POST', `/nodes/pve1/qemu/${VMID}/status/start`)).exitstatus).toBe('OK');
  const login = await data<Login>(sim, 'POST', '/access/ticket', {
    params: { username: USER.userid, password: USER.password },
    token: null,
  });

  const http = createServer((request, response) => {
    serveFile(request, response).catch(() => response.destroy());
  });
  http.listen(0, '127.0.0.1');
  await new Promise((resolve) => http.once('listening', resolve));
  cleanups.push(async () => {
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  cleanups.push(() => browser.close());
  const context = await browser.newContext({ viewport: { width: 720, height: 400 } });
  // The cookie PVE's login sets; cookies ignore ports, so the page's WebSocket to the simulator carries it.
  await context.addCookies([
    { name: 'PVEAuthCookie', value: encodeURIComponent(login.ticket), url: sim.url, sameSite: 'Strict' },
  ]);
  return {
    sim,
    http,
    baseUrl: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    browser,
    context,
    login,
  };
}

function running(): Harness {
  if (startFailure !== undefined) throw startFailure;
  if (harness === undefined) throw new Error('the noVNC harness did not start');
  return harness;
}

async function serveFile(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const { pathname } = new URL(request.url ?? '/', 'http://localhost');
  if (pathname === '/') {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    return;
  }
  // Only noVNC's own modules, and no way out of its directory.
  const match = /^\/novnc\/((?:core|vendor)\/[\w./-]+\.js)$/.exec(pathname);
  const relative = match?.[1];
  if (relative === undefined || relative.split('/').includes('..')) {
    response.writeHead(404).end();
    return;
  }
  const source = await readFile(path.join(NOVNC_ROOT, relative));
  response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(source);
}

interface VncProxy {
  port: number;
  ticket: string;
  password: string;
  upid: string;
}

/** vncproxy as the logged-in user (cookie plus CSRF token), as PVE's console page does before it connects. */
async function vncproxy(h: Harness): Promise<VncProxy> {
  return data<VncProxy>(h.sim, 'POST', `/nodes/pve1/qemu/${VMID}/vncproxy`, {
    params: { websocket: 1 },
    token: null,
    headers: {
      Cookie: `PVEAuthCookie=${encodeURIComponent(h.login.ticket)}`,
      CSRFPreventionToken: h.login.CSRFPreventionToken,
    },
  });
}

async function openConsole(
  password: (proxy: VncProxy) => string,
): Promise<{ page: Page; problems: string[]; proxy: VncProxy }> {
  const h = running();
  const proxy = await vncproxy(h);
  const page = await h.context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} for ${response.url()}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  const ws = `${h.sim.url.replace('http', 'ws')}/api2/json/nodes/pve1/qemu/${VMID}/vncwebsocket?${new URLSearchParams({ port: String(proxy.port), vncticket: proxy.ticket }).toString()}`;
  await page.goto(`${h.baseUrl}/?${new URLSearchParams({ ws, password: password(proxy) }).toString()}`);
  return { page, problems, proxy };
}

async function consoleText(): Promise<string> {
  return (await data<{ text: string }>(running().sim, 'GET', `/sim/vms/${VMID}/console`)).text;
}

async function pageState(page: Page): Promise<PageState> {
  return page.evaluate<PageState>('window.vnc');
}

/** The canvas as noVNC drew it; the viewport is not scaled, so one canvas pixel is one VNC pixel. */
async function canvasText(page: Page): Promise<string> {
  const canvas = await page.evaluate<{ width: number; height: number; base64: string }>(
    'window.readCanvas()',
  );
  return readConsoleText({
    width: canvas.width,
    height: canvas.height,
    channels: 4,
    data: Buffer.from(canvas.base64, 'base64'),
  });
}

async function eventually<T>(
  probe: () => Promise<T>,
  accept: (value: T) => boolean,
  what: string,
): Promise<T> {
  const deadline = Date.now() + 10_000;
  let last = await probe();
  while (!accept(last)) {
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting until ${what}; last saw ${JSON.stringify(last)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    last = await probe();
  }
  return last;
}

describe('the console of a simulated VM in a real noVNC', () => {
  it('connects through vncproxy and vncwebsocket, shows the VM name in the title and the pixels, and takes typing', async () => {
    const { page, problems } = await openConsole((proxy) => proxy.password);
    try {
      await page.waitForFunction('window.vnc?.connected === true', undefined, { timeout: 10_000 });
      expect((await pageState(page)).desktopName).toBe(VM);
      const shown = await eventually(
        () => canvasText(page),
        (text) => text.includes(`${VM} login:`),
        'the canvas shows the login prompt',
      );
      expect(shown).toBe(`Ubuntu 24.04 LTS ${VM} tty1\n\n${VM} login:`);

      await page.evaluate('window.focusConsole()');
      await page.keyboard.type('root');
      await eventually(
        consoleText,
        (text) => text.endsWith('login: root'),
        'the typed keys reach the console',
      );
      const typed = await consoleText();
      await eventually(
        () => canvasText(page),
        (text) => text === typed,
        'the canvas shows what was typed',
      );
      await page.screenshot({ path: SCREENSHOT });
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('reports a security failure with the reason for a wrong password', async () => {
    const { page, proxy } = await openConsole(() => 'wrong-pw');
    try {
      await page.waitForFunction('window.vnc?.disconnected !== null', undefined, { timeout: 10_000 });
      const state = await pageState(page);
      expect(state.securityFailure).toEqual({ status: 1, reason: 'Authentication failed' });
      expect(state.connected).toBe(false);
      const task = await data<{ status: string }>(
        running().sim,
        'GET',
        `/nodes/pve1/tasks/${encodeURIComponent(proxy.upid)}/status`,
      );
      expect(task.status).toBe('stopped');
    } finally {
      await page.close();
    }
  });
});
