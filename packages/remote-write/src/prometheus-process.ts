import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { access, constants, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

/** Where Debian's `prometheus` package (and CI) installs it. */
const DEFAULT_BINARY = '/usr/bin/prometheus';
const DEFAULT_READY_TIMEOUT_MS = 30_000;
const READY_POLL_MS = 50;
const STOP_GRACE_MS = 5_000;
/** Ports picked free can be taken by someone else before Prometheus binds them; this many tries. */
const PORT_ATTEMPTS = 5;
/** Stderr kept for error messages: the end, where Prometheus says why it stopped. */
const STDERR_KEPT_CHARS = 16_384;

export interface PrometheusOptions {
  /** `prometheus.yml`, as text. */
  readonly config: string;
  /**
   * `server` keeps a TSDB and answers PromQL; `agent` (Prometheus 2.x's `--enable-feature=agent`) only
   * scrapes and remote-writes. Default `server`.
   */
  readonly mode?: 'server' | 'agent';
  /** More flags, e.g. `--web.enable-remote-write-receiver`. */
  readonly args?: readonly string[];
  readonly binary?: string;
  readonly readyTimeoutMs?: number;
}

export interface PrometheusProcess {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  readonly url: string;
  /** The TSDB (server) or WAL (agent) directory, inside a temporary directory that `stop` removes. */
  readonly dataDir: string;
  /** What Prometheus has logged so far (the last 16 KiB), to explain a failing test. */
  readonly logs: () => string;
  /** Stops Prometheus (SIGTERM, then SIGKILL after 5 s) and removes its files. Safe to call twice. */
  readonly stop: () => Promise<void>;
}

/**
 * Starts a real Prometheus on a free loopback port, with its configuration and data in a temporary
 * directory, and resolves once `/-/ready` answers. If this process exits first, Prometheus is killed
 * and its directory removed.
 */
export async function startPrometheus(options: PrometheusOptions): Promise<PrometheusProcess> {
  const binary = options.binary ?? DEFAULT_BINARY;
  try {
    await access(binary, constants.X_OK);
  } catch {
    throw new Error(
      `Prometheus is not installed at ${binary}: install it with \`apt-get install prometheus\`.`,
    );
  }
  const dir = await mkdtemp(join(tmpdir(), 'noderings-prometheus-'));
  try {
    const configFile = join(dir, 'prometheus.yml');
    await writeFile(configFile, options.config);
    const dataDir = join(dir, 'data');
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const args = [
        `--config.file=${configFile}`,
        `--web.listen-address=127.0.0.1:${port}`,
        ...(options.mode === 'agent'
          ? ['--enable-feature=agent', `--storage.agent.path=${dataDir}`]
          : [`--storage.tsdb.path=${dataDir}`]),
        ...(options.args ?? []),
      ];
      const started = await spawnUntilReady(binary, args, port, dir, options.readyTimeoutMs);
      if (started !== 'port taken') return started;
      if (attempt === PORT_ATTEMPTS)
        throw new Error(`Prometheus found no free port in ${PORT_ATTEMPTS} tries`);
    }
  } catch (e: unknown) {
    await rm(dir, { recursive: true, force: true });
    throw e;
  }
}

async function spawnUntilReady(
  binary: string,
  args: string[],
  port: number,
  dir: string,
  readyTimeoutMs = DEFAULT_READY_TIMEOUT_MS,
): Promise<PrometheusProcess | 'port taken'> {
  const child = spawn(binary, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_KEPT_CHARS);
  });
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => {
      resolve();
    });
  });
  const spawnError = new Promise<Error>((resolve) => child.once('error', resolve));
  const killOnExit = (): void => {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', killOnExit);
  const url = `http://127.0.0.1:${port}`;
  const running = (): boolean => child.exitCode === null && child.signalCode === null;

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      process.off('exit', killOnExit);
      await terminate(child, exited, running);
      await rm(dir, { recursive: true, force: true });
    })();
    return stopping;
  };

  const deadline = Date.now() + readyTimeoutMs;
  for (;;) {
    if (!running()) {
      process.off('exit', killOnExit);
      // Prometheus' own words when the port went to someone else between our check and its bind.
      if (stderr.includes('address already in use')) return 'port taken';
      throw new Error(
        `Prometheus exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${stderr}`,
      );
    }
    if (await isReady(url)) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`Prometheus was not ready within ${readyTimeoutMs} ms:\n${stderr}`);
    }
    const failed = await Promise.race([spawnError, delay(READY_POLL_MS, undefined)]);
    if (failed !== undefined) {
      process.off('exit', killOnExit);
      throw new Error(`Prometheus could not be started: ${failed.message}`, { cause: failed });
    }
  }
  return { url, dataDir: join(dir, 'data'), logs: () => stderr, stop };
}

async function terminate(child: ChildProcess, exited: Promise<void>, running: () => boolean): Promise<void> {
  if (!running()) return;
  child.kill('SIGTERM');
  const graceful = await Promise.race([exited.then(() => true), delay(STOP_GRACE_MS, false)]);
  if (!graceful && running()) {
    child.kill('SIGKILL');
    await exited;
  }
}

async function isReady(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/-/ready`, { signal: AbortSignal.timeout(1_000) });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}

/** A port nothing listens on right now: the kernel's pick for port 0, released at once. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise<void>((resolve) => {
    server.close(() => {
      resolve();
    });
  });
  if (address === null || typeof address === 'string') throw new Error('no port from listen(0)');
  return address.port;
}
