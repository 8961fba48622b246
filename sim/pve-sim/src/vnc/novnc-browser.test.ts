import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer, createWebSocketStream } from 'ws';

import { ConsoleScreen } from './console-screen.js';
import { readConsoleText } from './read-console-text.js';
import { serveRfb, type RfbCloseReason } from './rfb-server.js';

const CHROMIUM = '/usr/bin/chromium';
const VM = 'NR-8c41d2e7';
const PASSWORD = 'Xq7kP2mw';
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

interface Harness {
  http: Server;
  sockets: WebSocketServer;
  browser: Browser | undefined;
  baseUrl: string;
  screen: ConsoleScreen;
  protocols: string[];
  closed: RfbCloseReason[];
}

let harness: Harness | undefined;
/** Why the harness did not start; every test rethrows it, so a missing browser fails them rather than skipping them. */
let startFailure: Error | undefined;

beforeAll(async () => {
  try {
    await startHarness();
  } catch (e: unknown) {
    startFailure = e instanceof Error ? e : new Error(String(e));
  }
});

async function startHarness(): Promise<void> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is required at ${CHROMIUM} for the noVNC test (apt-get install chromium); it does not skip`,
    );
  }
  const screen = new ConsoleScreen({ lines: [`Ubuntu 24.04 LTS ${VM} tty1`, '', `${VM} login: `] });
  const http = createServer((request, response) => {
    serveFile(request, response).catch(() => response.destroy());
  });
  const sockets = new WebSocketServer({
    server: http,
    path: '/websockify',
    // pveproxy echoes the subprotocol noVNC asks for; so does this.
    handleProtocols: (offered) => (offered.has('binary') ? 'binary' : false),
  });
  const started: Harness = {
    http,
    sockets,
    browser: undefined,
    baseUrl: '',
    screen,
    protocols: [],
    closed: [],
  };
  harness = started;
  sockets.on('connection', (socket) => {
    started.protocols.push(socket.protocol);
    serveRfb(createWebSocketStream(socket), {
      password: PASSWORD,
      desktopName: VM,
      screen,
      onClose: (reason) => started.closed.push(reason),
    });
  });
  http.listen(0, '127.0.0.1');
  await new Promise((resolve) => http.once('listening', resolve));
  started.baseUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  started.browser = await chromium.launch({
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
}

afterAll(async () => {
  const current = harness;
  harness = undefined;
  if (current === undefined) {
    return;
  }
  await current.browser?.close();
  for (const client of current.sockets.clients) {
    client.terminate();
  }
  await new Promise<void>((resolve) => {
    current.sockets.close(() => {
      resolve();
    });
  });
  current.http.closeAllConnections();
  await new Promise((resolve) => current.http.close(resolve));
});

function running(): Harness & { browser: Browser } {
  if (startFailure !== undefined) {
    throw startFailure;
  }
  const { browser } = harness ?? {};
  if (harness === undefined || browser === undefined) {
    throw new Error('the noVNC harness did not start');
  }
  return { ...harness, browser };
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

async function openConsole(password: string): Promise<{ page: Page; problems: string[] }> {
  const { browser, baseUrl } = running();
  const page = await browser.newPage({ viewport: { width: 720, height: 400 } });
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('response', (response) => {
    if (response.status() >= 400) {
      problems.push(`${response.status()} for ${response.url()}`);
    }
  });
  page.on('console', (message) => {
    if (message.type() === 'error') {
      problems.push(message.text());
    }
  });
  const ws = `${baseUrl.replace('http', 'ws')}/websockify`;
  await page.goto(`${baseUrl}/?${new URLSearchParams({ ws, password }).toString()}`);
  return { page, problems };
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

describe('the console in a real noVNC', () => {
  it('connects with the password, shows the VM name in the title and the pixels, and takes typing', async () => {
    const { page, problems } = await openConsole(PASSWORD);
    try {
      await page.waitForFunction('window.vnc?.connected === true', undefined, { timeout: 10_000 });
      expect((await pageState(page)).desktopName).toBe(VM);
      expect(running().protocols.at(-1)).toBe('binary');
      const shown = await eventually(
        () => canvasText(page),
        (text) => text.includes(`${VM} login:`),
        'the canvas shows the login prompt',
      );
      expect(shown).toBe(`Ubuntu 24.04 LTS ${VM} tty1\n\n${VM} login:`);

      await page.evaluate('window.focusConsole()');
      await page.keyboard.type('root');
      await eventually(
        () => Promise.resolve(running().screen.text()),
        (text) => text.endsWith('login: root'),
        'the typed keys reach the console',
      );
      await eventually(
        () => canvasText(page),
        (text) => text === running().screen.text(),
        'the canvas shows what was typed',
      );
      await page.screenshot({ path: SCREENSHOT });
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('reports a security failure with the reason for a wrong password', async () => {
    const { page } = await openConsole('wrong-pw');
    try {
      await page.waitForFunction('window.vnc?.disconnected !== null', undefined, { timeout: 10_000 });
      const state = await pageState(page);
      expect(state.securityFailure).toEqual({ status: 1, reason: 'Authentication failed' });
      expect(state.connected).toBe(false);
      expect(running().closed).toContain('auth-failed');
    } finally {
      await page.close();
    }
  });
});
