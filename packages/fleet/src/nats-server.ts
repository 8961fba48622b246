import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { access, constants, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

import { createNatsAuthority, type NatsAuthority, renderNatsServerConfig } from './nats-authority.js';

/** Where Debian's `nats-server` package installs it. */
const DEFAULT_BINARY = '/usr/sbin/nats-server';
const READY_TIMEOUT_MS = 20_000;
const STOP_GRACE_MS = 5_000;
const LOG_KEPT_CHARS = 16_384;

export interface NatsServerProcess {
  /** `nats://127.0.0.1:<port>` */
  readonly url: string;
  readonly authority: NatsAuthority;
  /** What the server has logged (the last 16 KiB), to explain a failing test. */
  readonly logs: () => string;
  /** Stops the server (SIGTERM, then SIGKILL) and removes its files. Safe to call twice. */
  readonly stop: () => Promise<void>;
}

/**
 * Starts a real nats-server (2.9+) in operator mode with JetStream, on a free loopback port with its
 * store in a temporary directory, for tests, benchmarks and the sandbox. Killed if this process exits.
 */
export async function startNatsServer(
  options: { readonly authority?: NatsAuthority; readonly binary?: string } = {},
): Promise<NatsServerProcess> {
  const binary = options.binary ?? DEFAULT_BINARY;
  try {
    await access(binary, constants.X_OK);
  } catch {
    throw new Error(
      `nats-server is not installed at ${binary}: install it with \`apt-get install nats-server\`.`,
    );
  }
  const authority = options.authority ?? (await createNatsAuthority());
  const dir = await mkdtemp(join(tmpdir(), 'noderings-nats-'));
  try {
    const configFile = join(dir, 'nats-server.conf');
    // Port -1: the server picks a free port itself and says which in its log, so nothing can take it first.
    await writeFile(
      configFile,
      renderNatsServerConfig(authority, { host: '127.0.0.1', port: -1, storeDir: join(dir, 'store') }),
    );
    return await spawnUntilReady(binary, configFile, dir, authority);
  } catch (e: unknown) {
    await rm(dir, { recursive: true, force: true });
    throw e;
  }
}

async function spawnUntilReady(
  binary: string,
  configFile: string,
  dir: string,
  authority: NatsAuthority,
): Promise<NatsServerProcess> {
  const child = spawn(binary, ['-c', configFile], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  let ready = false;
  const isReady = (): boolean => ready;
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    log = (log + chunk).slice(-LOG_KEPT_CHARS);
    if (log.includes('Server is ready')) ready = true;
  });
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => {
      resolve();
    });
  });
  let spawnError: Error | undefined;
  child.once('error', (e) => {
    spawnError = e;
  });
  const killOnExit = (): void => {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', killOnExit);
  const running = (): boolean => child.exitCode === null && child.signalCode === null;
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      process.off('exit', killOnExit);
      if (running()) {
        child.kill('SIGTERM');
        const graceful = await Promise.race([exited.then(() => true), delay(STOP_GRACE_MS, false)]);
        if (!graceful && running()) {
          child.kill('SIGKILL');
          await exited;
        }
      }
      await rm(dir, { recursive: true, force: true });
    })();
    return stopping;
  };
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!isReady()) {
    if (spawnError !== undefined) {
      process.off('exit', killOnExit);
      throw new Error(`nats-server could not be started: ${spawnError.message}`, { cause: spawnError });
    }
    if (!running()) {
      process.off('exit', killOnExit);
      throw new Error(
        `nats-server exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${log}`,
      );
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`nats-server was not ready within ${READY_TIMEOUT_MS} ms:\n${log}`);
    }
    await delay(25);
  }
  const port = /Listening for client connections on [^\s]*:(\d+)/.exec(log)?.[1];
  if (port === undefined) {
    await stop();
    throw new Error(`nats-server did not say which port it listens on:\n${log}`);
  }
  return { url: `nats://127.0.0.1:${port}`, authority, logs: () => log, stop };
}
