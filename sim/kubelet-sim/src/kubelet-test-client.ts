import type { IncomingHttpHeaders } from 'node:http';
import { request } from 'node:https';
import { parseExposition } from '@noderings/prom';

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body as it came over the wire (still gzipped if it was). */
  bytes: Buffer;
}

export interface RequestOptions {
  token?: string;
  method?: string;
  headers?: Record<string, string>;
  /** Give up after this long (the request is destroyed): for answers that should not come. */
  timeoutMs?: number;
}

/** One HTTPS request to a kubelet (simulated or not), trusting `caPem` and nothing else. */
export function call(
  target: { url: string; caPem: string },
  path: string,
  options: RequestOptions = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(path, target.url),
      {
        method: options.method ?? 'GET',
        ca: target.caPem,
        headers: {
          ...(options.token !== undefined ? { Authorization: `Bearer ${options.token}` } : {}),
          ...options.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const bytes = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: bytes.toString(), bytes });
        });
        res.on('error', reject);
      },
    );
    if (options.timeoutMs !== undefined) {
      req.setTimeout(options.timeoutMs, () =>
        req.destroy(new Error(`no answer within ${options.timeoutMs} ms`)),
      );
    }
    req.on('error', reject);
    req.end();
  });
}

export interface PromSample {
  name: string;
  labels: Record<string, string>;
  value: number;
  timestamp: number | undefined;
}

export interface Exposition {
  samples: PromSample[];
  help: Map<string, string>;
  types: Map<string, string>;
}

/**
 * The simulator's text read back with `@noderings/prom`'s parser, as samples with their families' HELP and
 * TYPE; every family the simulator writes declares its TYPE, so one without it is an error here.
 */
export function readExposition(text: string): Exposition {
  const families = parseExposition(text);
  const untyped = families.find((f) => f.type === 'untyped');
  if (untyped !== undefined) throw new Error(`${untyped.name} has no TYPE`);
  return {
    samples: families.flatMap((f) =>
      f.samples.map((s) => ({ name: s.name, labels: s.labels, value: s.value, timestamp: s.timestampMs })),
    ),
    help: new Map(families.flatMap((f) => (f.help === undefined ? [] : [[f.name, f.help] as const]))),
    types: new Map(families.map((f) => [f.name, f.type])),
  };
}
