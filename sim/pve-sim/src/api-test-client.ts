import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { PveSim } from './pve-sim.js';

/** A raw HTTP(S) view of one answer, for tests that check the wire exactly as a client sees it. */
export interface ApiReply {
  status: number;
  statusMessage: string;
  headers: IncomingHttpHeaders;
  text: string;
  body: Buffer;
  /** The parsed JSON body, if the body was JSON (an empty object otherwise). */
  json: PveBody;
}

/** PVE's envelope; test control answers `{data}` or `{error}`. */
interface PveBody {
  data?: unknown;
  errors?: Record<string, string>;
  message?: string;
  error?: string;
}

export interface CallOptions {
  /** Form parameters: the query string for GET/DELETE, a form body for POST/PUT. */
  params?: Record<string, string | number | boolean>;
  json?: unknown;
  rawBody?: string | Buffer;
  contentType?: string;
  /** `PVEAPIToken=…` value; default the simulator's first token; null sends no Authorization. */
  token?: string | null;
  headers?: Record<string, string>;
}

export function tokenHeader(sim: PveSim, index = 0): string {
  const t = sim.tokens[index];
  if (!t) throw new Error(`the simulator has no token ${index}`);
  return `PVEAPIToken=${t.id}=${t.secret}`;
}

/** One request to the simulator, verifying its certificate against the one it generated. */
export function call(
  sim: PveSim,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<ApiReply> {
  const url = new URL(path.startsWith('/sim') ? `${sim.url}${path}` : `${sim.apiUrl}${path}`);
  let body: Buffer | undefined;
  const headers: Record<string, string> = { ...options.headers };
  const token = options.token === undefined ? tokenHeader(sim) : options.token;
  if (token !== null) headers.Authorization = token;
  const form = new URLSearchParams(
    Object.entries(options.params ?? {}).map(([k, v]): [string, string] => [
      k,
      typeof v === 'boolean' ? (v ? '1' : '0') : String(v),
    ]),
  );
  if (options.rawBody !== undefined) {
    body = Buffer.from(options.rawBody);
    headers['Content-Type'] = options.contentType ?? 'application/x-www-form-urlencoded';
  } else if (options.json !== undefined) {
    body = Buffer.from(JSON.stringify(options.json));
    headers['Content-Type'] = 'application/json';
  } else if (method === 'POST' || method === 'PUT') {
    body = Buffer.from(form.toString());
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
  } else {
    for (const [k, v] of form) url.searchParams.set(k, v);
  }
  if (body) headers['Content-Length'] = String(body.length);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      url,
      { method, headers, ...(sim.certPem ? { ca: sim.certPem } : {}), agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          const text = raw.toString('utf8');
          let json: PveBody;
          try {
            json = text ? (JSON.parse(text) as PveBody) : {};
          } catch {
            json = {};
          }
          resolve({
            status: res.statusCode ?? 0,
            statusMessage: res.statusMessage ?? '',
            headers: res.headers,
            text,
            body: raw,
            json,
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The `data` of a 200 answer; fails loudly with Proxmox's message otherwise. */
export async function data<T = unknown>(
  sim: PveSim,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<T> {
  const reply = await call(sim, method, path, options);
  if (reply.status !== 200)
    throw new Error(`${method} ${path}: ${reply.status} ${reply.statusMessage} ${reply.text}`);
  return (reply.json as { data: T }).data;
}

export interface FinishedTask {
  exitstatus: string;
  log: string[];
}

/** Polls a task until it stops, as clients do. */
export async function waitTask(
  sim: PveSim,
  upid: string,
  auth: Pick<CallOptions, 'token'> = {},
): Promise<FinishedTask> {
  const options: CallOptions = auth.token === undefined ? {} : { token: auth.token };
  const node = upid.split(':')[1] ?? '';
  const path = `/nodes/${node}/tasks/${encodeURIComponent(upid)}`;
  for (;;) {
    const status = await data<{ status: string; exitstatus?: string }>(sim, 'GET', `${path}/status`, options);
    if (status.status === 'stopped') {
      const log = await data<{ n: number; t: string }[]>(sim, 'GET', `${path}/log`, {
        ...options,
        params: { limit: 1000 },
      });
      return { exitstatus: status.exitstatus ?? '', log: log.map((l) => l.t) };
    }
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Runs an API call that starts a task and waits for it. */
export async function runTask(
  sim: PveSim,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<FinishedTask> {
  const upid = await data<string>(sim, method, path, options);
  return waitTask(sim, upid, options.token === undefined ? {} : { token: options.token });
}
