import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { KubeSim } from './kube-sim.js';

/** A raw view of one answer, for tests that check the wire as a client sees it. */
export interface ApiReply {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** The parsed JSON body, or undefined if the body was not JSON. */
  json: Json | undefined;
}

export type Json = Record<string, unknown>;

/** The value at a dotted path (`metadata.name`, `items.0.spec`), for assertions on JSON answers. */
export function field(value: unknown, path: string): unknown {
  let current = value;
  for (const key of path.split('.')) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** `field` as a string (empty if absent), for building URLs and bodies from answers. */
export function text(value: unknown, path: string): string {
  const v = field(value, path);
  return typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v);
}

export interface CallOptions {
  /** Sent as JSON unless `rawBody` is given. */
  body?: unknown;
  rawBody?: string | Buffer;
  contentType?: string;
  /** Bearer token; default the admin's; null sends no Authorization. */
  token?: string | null;
  headers?: Record<string, string>;
}

function send(sim: KubeSim, method: string, path: string, options: CallOptions): Promise<IncomingMessage> {
  const url = new URL(`${sim.url}${path}`);
  const headers: Record<string, string> = { ...options.headers };
  const token = options.token === undefined ? sim.adminToken : options.token;
  if (token !== null) headers.Authorization = `Bearer ${token}`;
  let body: Buffer | undefined;
  if (options.rawBody !== undefined) body = Buffer.from(options.rawBody);
  else if (options.body !== undefined) body = Buffer.from(JSON.stringify(options.body));
  if (body) {
    headers['Content-Type'] = options.contentType ?? 'application/json';
    headers['Content-Length'] = String(body.length);
  }
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method, headers, ...(sim.caPem ? { ca: sim.caPem } : {}), agent: false },
      resolve,
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** One request to the simulator, verifying its certificate against the CA it generated. */
export async function call(
  sim: KubeSim,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<ApiReply> {
  const res = await send(sim, method, path, options);
  const chunks: Buffer[] = [];
  for await (const chunk of res as AsyncIterable<Buffer>) chunks.push(chunk);
  const text = Buffer.concat(chunks).toString('utf8');
  let json: Json | undefined;
  try {
    json = JSON.parse(text) as Json;
  } catch {
    json = undefined;
  }
  return { status: res.statusCode ?? 0, headers: res.headers, text, json };
}

/** The JSON body of a 2xx answer; fails with the Status otherwise. */
export async function ok(
  sim: KubeSim,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Json> {
  const reply = await call(sim, method, path, options);
  if (reply.status < 200 || reply.status > 299 || !reply.json)
    throw new Error(`${method} ${path}: ${reply.status} ${reply.text}`);
  return reply.json;
}

export interface WatchEvent {
  type: string;
  object: Json;
}

/** An open watch: its events as they arrive, and whether the server ended it. */
export class WatchClient {
  readonly events: WatchEvent[] = [];
  ended = false;
  private waiters: (() => void)[] = [];

  private constructor(private readonly res: IncomingMessage) {
    let buffer = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      buffer += chunk;
      let newline = buffer.indexOf('\n');
      while (newline >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        if (line.trim()) this.events.push(JSON.parse(line) as WatchEvent);
        newline = buffer.indexOf('\n');
      }
      this.wake();
    });
    res.on('end', () => {
      this.ended = true;
      this.wake();
    });
    res.on('error', () => {
      this.ended = true;
      this.wake();
    });
  }

  static async open(sim: KubeSim, path: string, options: CallOptions = {}): Promise<WatchClient> {
    const res = await send(sim, 'GET', path, options);
    if (res.statusCode !== 200) throw new Error(`watch ${path}: ${res.statusCode ?? 0}`);
    return new WatchClient(res);
  }

  /** Resolves once `predicate` holds, or fails after `timeoutMs`. */
  async until(predicate: (w: WatchClient) => boolean, timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this)) {
      const left = deadline - Date.now();
      if (left <= 0) {
        const seen = this.events.map((e) => [e.type, field(e.object, 'metadata.name')]);
        throw new Error(`watch: condition not met in ${timeoutMs} ms; events: ${JSON.stringify(seen)}`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  close(): void {
    this.res.destroy();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}

/** Polls until `check` returns a value (not undefined), as clients wait for controllers. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A small CRD for tests: namespaced `widgets` with a status subresource, defaults and printer columns. */
export function widgetCrd(
  scope: 'Namespaced' | 'Cluster' = 'Namespaced',
  plural = 'widgets',
  kind = 'Widget',
): Json {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.test.kube-sim.dev` },
    spec: {
      group: 'test.kube-sim.dev',
      scope,
      names: {
        kind,
        plural,
        singular: kind.toLowerCase(),
        shortNames: [`${plural.slice(0, 2)}x`],
        categories: ['all'],
      },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: { status: {} },
          additionalPrinterColumns: [
            { name: 'Size', type: 'integer', jsonPath: '.spec.size' },
            { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
            { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
          ],
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  required: ['size'],
                  properties: {
                    size: { type: 'integer', minimum: 1 },
                    color: { type: 'string', default: 'blue' },
                  },
                },
                status: { type: 'object', properties: { phase: { type: 'string' } } },
              },
            },
          },
        },
      ],
    },
  };
}

/** Creates the CRD and waits until it is Established. */
export async function installCrd(sim: KubeSim, crd: Json): Promise<void> {
  await ok(sim, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: crd });
  await eventually(async () => {
    const got = await ok(
      sim,
      'GET',
      `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${text(crd, 'metadata.name')}`,
    );
    const conditions = (field(got, 'status.conditions') ?? []) as Json[];
    return conditions.some((c) => c.type === 'Established' && c.status === 'True') ? true : undefined;
  });
}
