import type { IncomingHttpHeaders } from 'node:http';
import { request } from 'node:https';

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

/** A strict reader of the Prometheus text format, enough to check what the simulator writes. */
export function parseExposition(text: string): Exposition {
  const samples: PromSample[] = [];
  const help = new Map<string, string>();
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const meta = /^# (HELP|TYPE) (\S+) (.*)$/.exec(line);
    if (meta) {
      (meta[1] === 'HELP' ? help : types).set(meta[2] ?? '', meta[3] ?? '');
      continue;
    }
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: (-?\d+))?$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const name = m[1] ?? '';
    if (!types.has(name)) throw new Error(`${name} has a sample before its TYPE`);
    const value = m[3] === '+Inf' ? Infinity : m[3] === '-Inf' ? -Infinity : Number(m[3]);
    samples.push({
      name,
      labels: parseLabels(m[2] ?? ''),
      value,
      timestamp: m[4] === undefined ? undefined : Number(m[4]),
    });
  }
  return { samples, help, types };
}

function parseLabels(text: string): Record<string, string> {
  const labels: Record<string, string> = {};
  const re = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?/y;
  while (re.lastIndex < text.length) {
    const start = re.lastIndex;
    const m = re.exec(text);
    if (!m) throw new Error(`bad labels at ${start}: ${text}`);
    labels[m[1] ?? ''] = (m[2] ?? '').replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
  }
  return labels;
}
