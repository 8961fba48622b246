import { once } from 'node:events';
import net from 'node:net';
import { Duplex, PassThrough, Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';

import { ConsoleScreen } from './console-screen.js';
import { encodePixelFormat, SERVER_PIXEL_FORMAT, type PixelFormat } from './pixel-format.js';
import { readConsoleText } from './read-console-text.js';
import { RfbClient, RfbSecurityError } from './rfb-client.js';
import { serveRfb, type RfbCloseReason, type RfbSession } from './rfb-server.js';
import { StreamReader } from './stream-reader.js';
import { vncAuthResponse } from './vnc-auth.js';
import { RGB222, RGB565_BIG_ENDIAN } from './pixel-formats.test-support.js';

const VM = 'NR-3fa91c07';
const PASSWORD = 'k8Jd2mQz';
const IDLE_UPDATE_MS = 300;

interface Closed {
  reason: RfbCloseReason;
  message: string | undefined;
}

interface RunningServer {
  port: number;
  screen: ConsoleScreen;
  sessions: RfbSession[];
  closed: Closed[];
  stop(): Promise<void>;
}

const running: RunningServer[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.stop()));
});

function loginScreen(): ConsoleScreen {
  return new ConsoleScreen({ lines: [`Ubuntu 24.04 LTS ${VM} tty1`, '', `${VM} login: `] });
}

async function startServer(): Promise<RunningServer> {
  const screen = loginScreen();
  const sessions: RfbSession[] = [];
  const closed: Closed[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    sessions.push(
      serveRfb(socket, {
        password: PASSWORD,
        desktopName: VM,
        screen,
        idleUpdateMs: IDLE_UPDATE_MS,
        onClose: (reason, message) => closed.push({ reason, message }),
      }),
    );
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') {
    throw new Error('the test server has no TCP address');
  }
  const started: RunningServer = {
    port: address.port,
    screen,
    sessions,
    closed,
    stop: () =>
      new Promise((resolve) => {
        for (const socket of sockets) {
          socket.destroy();
        }
        server.close(() => {
          resolve();
        });
      }),
  };
  running.push(started);
  return started;
}

async function connect(server: RunningServer): Promise<net.Socket> {
  const socket = net.connect(server.port, '127.0.0.1');
  await once(socket, 'connect');
  return socket;
}

async function eventually(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting until ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function readChallenge(socket: net.Socket, reader: StreamReader): Promise<Buffer> {
  await reader.read(12);
  socket.write('RFB 003.008\n');
  await reader.read(2);
  socket.write(Buffer.from([2]));
  return reader.read(16);
}

/** A by-hand 3.8 handshake up to and including ServerInit, for tests that then misbehave. */
async function handshake(socket: net.Socket, reader: StreamReader): Promise<void> {
  socket.write(vncAuthResponse(PASSWORD, await readChallenge(socket, reader)));
  expect(await reader.readUint32()).toBe(0);
  socket.write(Buffer.from([1]));
  const init = await reader.read(24);
  await reader.read(init.readUInt32BE(20));
}

function updateRequest(incremental: boolean, x: number, y: number, width: number, height: number): Buffer {
  const message = Buffer.alloc(10);
  message.writeUInt8(3, 0);
  message.writeUInt8(incremental ? 1 : 0, 1);
  message.writeUInt16BE(x, 2);
  message.writeUInt16BE(y, 4);
  message.writeUInt16BE(width, 6);
  message.writeUInt16BE(height, 8);
  return message;
}

function setPixelFormat(format: PixelFormat): Buffer {
  return Buffer.concat([Buffer.from([0, 0, 0, 0]), encodePixelFormat(format)]);
}

/** Deterministic randomness, so a failing fuzz case can be replayed from its seed. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), state | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 2 ** 32;
  };
}

function randomBytes(random: () => number, length: number): Buffer {
  return Buffer.from(Array.from({ length }, () => Math.floor(random() * 256)));
}

/** Splits every write into pieces of 1-7 bytes, so no message arrives whole. */
function rechunking(target: PassThrough, random: () => number): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (let offset = 0; offset < chunk.length;) {
        const size = 1 + Math.floor(random() * 7);
        target.write(chunk.subarray(offset, offset + size));
        offset += size;
      }
      done();
    },
    final(done) {
      target.end();
      done();
    },
  });
}

describe('serveRfb over TCP', () => {
  it('lets the right password in, names the VM in ServerInit and draws it in the pixels', async () => {
    const server = await startServer();
    const client = await RfbClient.connect(await connect(server), { password: PASSWORD });
    expect(client.name).toBe(VM);
    expect([client.width, client.height]).toEqual([720, 400]);
    const text = readConsoleText(await client.fetchFrame());
    expect(text).toBe(`Ubuntu 24.04 LTS ${VM} tty1\n\n${VM} login:`);
    client.close();
    await eventually(() => server.closed.length === 1, 'the session reports its close');
    expect(server.closed[0]?.reason).toBe('client-closed');
    expect(server.screen.viewerCount).toBe(0);
  });

  it('answers a wrong password with a failed SecurityResult and its reason, then closes', async () => {
    const server = await startServer();
    const socket = await connect(server);
    const reader = new StreamReader(socket);
    expect((await reader.read(12)).toString('latin1')).toBe('RFB 003.008\n');
    socket.write('RFB 003.008\n');
    expect([...(await reader.read(2))]).toEqual([1, 2]);
    socket.write(Buffer.from([2]));
    const challenge = await reader.read(16);
    socket.write(vncAuthResponse('guessed!', challenge));
    expect(await reader.readUint32()).toBe(1);
    expect((await reader.read(await reader.readUint32())).toString('utf8')).toBe('Authentication failed');
    await expect(reader.read(1)).rejects.toThrow(/closed/);
    await eventually(() => server.closed.length === 1, 'the session reports its close');
    expect(server.closed[0]?.reason).toBe('auth-failed');

    const second = await connect(server);
    expect((await readChallenge(second, new StreamReader(second))).equals(challenge)).toBe(false);
  });

  it('speaks to 3.3 and 3.7 clients the way each version expects', async () => {
    const server = await startServer();
    const old = await RfbClient.connect(await connect(server), {
      password: PASSWORD,
      protocolVersion: '3.3',
    });
    expect(old.name).toBe(VM);
    const refused = RfbClient.connect(await connect(server), { password: 'nope', protocolVersion: '3.7' });
    // Before 3.8 a failed SecurityResult carries no reason.
    await expect(refused).rejects.toEqual(new RfbSecurityError(undefined));
    const wrong = RfbClient.connect(await connect(server), { password: 'nope' });
    await expect(wrong).rejects.toEqual(new RfbSecurityError('Authentication failed'));

    // RFC 6143: versions other than 3.7 and 3.8 (3.5 was sent by some clients) mean 3.3.
    const socket = await connect(server);
    const reader = new StreamReader(socket);
    await reader.read(12);
    socket.write('RFB 003.005\n');
    expect(await reader.readUint32()).toBe(2);
    expect((await reader.read(16)).length).toBe(16);
  });

  it('sends typed keys to the console and only the changed pixels back', async () => {
    const server = await startServer();
    const client = await RfbClient.connect(await connect(server), { password: PASSWORD });
    await client.fetchFrame();
    client.typeText('root');
    const rects = [];
    while (!readConsoleText(client.image()).endsWith('login: root')) {
      rects.push(...(await client.nextUpdate()));
    }
    expect(server.screen.text()).toBe(`Ubuntu 24.04 LTS ${VM} tty1\n\n${VM} login: root`);
    expect(rects.length).toBeGreaterThan(0);
    for (const rect of rects) {
      expect(rect.width * rect.height).toBeLessThan((client.width * client.height) / 20);
    }
    client.typeText('\nls');
    while (!readConsoleText(client.image()).endsWith('root\nls')) {
      await client.nextUpdate();
    }
    expect(readConsoleText(client.image())).toBe(server.screen.text());
  });

  it('holds an incremental request until the screen changes, or answers it empty when idle', async () => {
    const server = await startServer();
    const client = await RfbClient.connect(await connect(server), { password: PASSWORD });
    await client.fetchFrame();
    let started = performance.now();
    expect(await client.nextUpdate()).toEqual([]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(IDLE_UPDATE_MS - 10);

    started = performance.now();
    setTimeout(() => {
      server.screen.setLines([`${VM} login: root`, 'Password: ']);
    }, 20);
    expect((await client.nextUpdate()).length).toBeGreaterThan(0);
    expect(performance.now() - started).toBeLessThan(IDLE_UPDATE_MS);
    expect(readConsoleText(client.image())).toBe(`${VM} login: root\nPassword:`);
  });

  it('honours 16-bit big-endian and 8-bit true-colour pixel formats', async () => {
    const server = await startServer();
    for (const pixelFormat of [RGB565_BIG_ENDIAN, RGB222, SERVER_PIXEL_FORMAT]) {
      const client = await RfbClient.connect(await connect(server), { password: PASSWORD, pixelFormat });
      expect(readConsoleText(await client.fetchFrame())).toBe(server.screen.text());
      client.close();
    }
  });

  it('closes on pixel formats it cannot serve instead of sending garbage', async () => {
    const server = await startServer();
    const cases: [Buffer, RfbCloseReason][] = [
      [setPixelFormat({ ...SERVER_PIXEL_FORMAT, trueColour: false }), 'unsupported'],
      [setPixelFormat({ ...SERVER_PIXEL_FORMAT, bitsPerPixel: 24 }), 'protocol-error'],
      [Buffer.from([150, 1, 0, 0, 0, 0, 0, 0, 0, 0]), 'protocol-error'],
    ];
    for (const [index, [message, reason]] of cases.entries()) {
      const socket = await connect(server);
      const reader = new StreamReader(socket);
      await handshake(socket, reader);
      socket.write(Buffer.concat([message, updateRequest(false, 0, 0, 720, 400)]));
      await expect(reader.read(1)).rejects.toThrow(/closed/);
      await eventually(() => server.closed.length === index + 1, 'the session reports its close');
      expect(server.closed[index]?.reason).toBe(reason);
    }
  });

  it('disconnects everyone else when a client asks not to share the desktop', async () => {
    const server = await startServer();
    const first = await RfbClient.connect(await connect(server), { password: PASSWORD });
    await first.fetchFrame();
    const second = await RfbClient.connect(await connect(server), { password: PASSWORD, shared: false });
    await expect(first.nextUpdate()).rejects.toThrow();
    expect(readConsoleText(await second.fetchFrame())).toContain(VM);
    expect(server.closed.map((closed) => closed.reason)).toEqual(['taken-over']);
    expect(server.screen.viewerCount).toBe(1);
  });

  it('ends a session on request, as when the VM stops', async () => {
    const server = await startServer();
    const client = await RfbClient.connect(await connect(server), { password: PASSWORD });
    await client.fetchFrame();
    server.sessions[0]?.close();
    await expect(client.nextUpdate()).rejects.toThrow(/closed/);
    await eventually(() => server.closed.length === 1, 'the session reports its close');
    expect(server.closed[0]?.reason).toBe('server-closed');
  });

  it('survives clients that disconnect in the middle of an update', async () => {
    const server = await startServer();
    for (let attempt = 0; attempt < 20; attempt++) {
      const socket = await connect(server);
      const reader = new StreamReader(socket);
      await handshake(socket, reader);
      socket.write(updateRequest(false, 0, 0, 720, 400));
      if (attempt % 2 === 1) {
        await reader.read(1000);
      }
      socket.destroy();
    }
    await eventually(() => server.closed.length === 20, 'every session reports its close');
    expect(server.closed.filter((closed) => closed.reason === 'internal-error')).toEqual([]);
    expect(server.screen.viewerCount).toBe(0);
    const client = await RfbClient.connect(await connect(server), { password: PASSWORD });
    expect(readConsoleText(await client.fetchFrame())).toContain(`${VM} login:`);
  });

  it('closes cleanly on hundreds of garbage and truncated inputs and keeps serving', async () => {
    const server = await startServer();
    const random = seededRandom(0x5eed);
    const cases = 300;
    for (let index = 0; index < cases; index++) {
      const socket = await connect(server);
      const reader = new StreamReader(socket);
      const closed = once(socket, 'close');
      switch (index % 4) {
        case 0: {
          // Never a ProtocolVersion: the server must hang up on its own.
          socket.write(
            Buffer.concat([Buffer.from('X'), randomBytes(random, 11 + Math.floor(random() * 60))]),
          );
          await closed;
          continue;
        }
        case 1:
          socket.write(`RFB 00${Math.floor(random() * 5)}.00${Math.floor(random() * 10)}\n`);
          socket.write(randomBytes(random, Math.floor(random() * 40)));
          break;
        case 2:
          await handshake(socket, reader);
          socket.write(randomMessages(random));
          break;
        default: {
          const valid = Buffer.concat([
            Buffer.from('RFB 003.008\n'),
            Buffer.from([2]),
            randomBytes(random, 17),
          ]);
          socket.write(valid.subarray(0, Math.floor(random() * valid.length)));
        }
      }
      if (random() < 0.5) {
        socket.end();
      } else {
        socket.destroy();
      }
      await closed;
    }
    await eventually(() => server.closed.length === cases, 'every session reports its close');
    const reasons = new Set(server.closed.map((closed) => closed.reason));
    expect(
      reasons.has('internal-error'),
      JSON.stringify(server.closed.find((c) => c.reason === 'internal-error')),
    ).toBe(false);
    expect(reasons).toContain('protocol-error');
    expect(server.screen.viewerCount).toBe(0);
    const client = await RfbClient.connect(await connect(server), { password: PASSWORD });
    expect(readConsoleText(await client.fetchFrame())).toContain(`${VM} login:`);
  });
});

describe('serveRfb over a stream that splits every message', () => {
  it('completes the handshake, sends frames and takes keys from 1-7 byte pieces', async () => {
    const random = seededRandom(7);
    const toServer = new PassThrough();
    const toClient = new PassThrough();
    const screen = loginScreen();
    const closed: RfbCloseReason[] = [];
    serveRfb(Duplex.from({ readable: toServer, writable: rechunking(toClient, random) }), {
      password: PASSWORD,
      desktopName: VM,
      screen,
      onClose: (reason) => closed.push(reason),
    });
    const client = await RfbClient.connect(
      Duplex.from({ readable: toClient, writable: rechunking(toServer, random) }),
      {
        password: PASSWORD,
      },
    );
    expect(client.name).toBe(VM);
    expect(readConsoleText(await client.fetchFrame())).toBe(screen.text());
    client.typeText('admin');
    while (!readConsoleText(client.image()).endsWith('login: admin')) {
      await client.nextUpdate();
    }
    expect(closed).toEqual([]);
    client.close();
  });
});

/** A few client messages of plausible types with random bodies. */
function randomMessages(random: () => number): Buffer {
  const types = [0, 2, 3, 4, 5, 6, 150, 248, 255];
  const messages: Buffer[] = [];
  for (let count = 1 + Math.floor(random() * 5); count > 0; count--) {
    const type =
      random() < 0.9 ? (types[Math.floor(random() * types.length)] ?? 0) : Math.floor(random() * 256);
    messages.push(Buffer.from([type]), randomBytes(random, Math.floor(random() * 30)));
  }
  return Buffer.concat(messages);
}
