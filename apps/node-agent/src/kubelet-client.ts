import { readFile } from 'node:fs/promises';

import type { SecretValues } from '@noderings/log';
import { Agent, request } from 'undici';

import { messageOf } from './agent-error.js';
import type { KubeletSource, SourceResult } from './collect/index.js';

export const KUBELET_PATHS: Readonly<Record<KubeletSource, string>> = {
  summary: '/stats/summary',
  cadvisor: '/metrics/cadvisor',
  pods: '/pods',
};

/** The RBAC subresource the kubelet checks for each path (KEP-2862; `nodes/proxy` before 1.33 for /pods). */
const SUBRESOURCES: Readonly<Record<KubeletSource, string>> = {
  summary: 'nodes/stats',
  cadvisor: 'nodes/metrics',
  pods: 'nodes/pods (nodes/proxy before Kubernetes 1.33)',
};

/** A slow or hanging /pods must not hold a tick up for longer than this. */
const PODS_DEADLINE_MS = 2_000;
/** Bound bearer tokens rotate (about hourly); the file is read again this often. */
const TOKEN_REREAD_MS = 60_000;
/** A busy node's cAdvisor text runs to tens of MB; anything past this is not a kubelet answer. */
const MAX_BODY_BYTES = 128 * 1024 * 1024;
const MAX_ERROR_BODY_CHARS = 300;

const TLS_ERROR_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

export interface KubeletClientOptions {
  /** `https://<node>:10250`, without a trailing slash. */
  readonly url: string;
  readonly tokenFile: string;
  /** The CA that signed the kubelet's serving certificate; the system's CAs when undefined. */
  readonly caPem: string | undefined;
  readonly insecureSkipVerify: boolean;
  /** The deadline of /stats/summary and /metrics/cadvisor (below the metrics interval). */
  readonly timeoutMs: number;
  /** Where the service-account token goes as it is read, so that no log line carries it. */
  readonly secrets: SecretValues;
  readonly now?: () => number;
}

/**
 * The kubelet's read-only endpoints over HTTPS with the service account's bearer token, which is read
 * again every minute and at once after a 401 (bound tokens rotate). Every failure comes back as a
 * sentence saying what to fix, never as an exception.
 */
export class KubeletClient {
  private readonly dispatcher: Agent;
  private token: { readonly value: string; readonly readAtMs: number } | undefined;

  constructor(private readonly options: KubeletClientOptions) {
    this.dispatcher = new Agent({
      connect: options.insecureSkipVerify
        ? { rejectUnauthorized: false }
        : options.caPem === undefined
          ? {}
          : { ca: options.caPem },
    });
  }

  /** The three documents of a tick, fetched at once; /pods has its own short deadline. */
  async fetchAll(): Promise<Record<KubeletSource, SourceResult>> {
    const [summary, cadvisor, pods] = await Promise.all([
      this.fetch('summary', this.options.timeoutMs),
      this.fetch('cadvisor', this.options.timeoutMs),
      this.fetch('pods', Math.min(PODS_DEADLINE_MS, this.options.timeoutMs)),
    ]);
    return { summary, cadvisor, pods };
  }

  /** One endpoint's body, or why there is none. Settles within `timeoutMs` whatever the kubelet does. */
  async fetch(source: KubeletSource, timeoutMs: number): Promise<SourceResult> {
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<SourceResult>((resolve) => {
      timer = setTimeout(() => {
        controller.abort();
        resolve({
          ok: false,
          error: `GET ${KUBELET_PATHS[source]} timed out after ${formatSeconds(timeoutMs)}`,
        });
      }, timeoutMs);
    });
    const work = this.fetchWithToken(source, controller.signal).catch((e: unknown): SourceResult => ({
      ok: false,
      error: messageOf(e),
    }));
    try {
      return await Promise.race([work, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    await this.dispatcher.close().catch(() => undefined);
  }

  private async fetchWithToken(source: KubeletSource, signal: AbortSignal): Promise<SourceResult> {
    const token = await this.readToken(false);
    if (typeof token !== 'string') return token;
    const first = await this.get(source, token, signal);
    if (!('status' in first) || first.status !== 401) return this.interpret(source, first);
    // The token may have rotated since it was read: read it again, and try once more if it changed.
    const fresh = await this.readToken(true);
    if (typeof fresh !== 'string') return fresh;
    return this.interpret(source, fresh === token ? first : await this.get(source, fresh, signal));
  }

  private async get(
    source: KubeletSource,
    token: string,
    signal: AbortSignal,
  ): Promise<{ readonly status: number; readonly body: string } | { readonly error: string }> {
    const url = `${this.options.url}${KUBELET_PATHS[source]}`;
    try {
      const response = await request(url, {
        dispatcher: this.dispatcher,
        method: 'GET',
        headers: {
          authorization: `Bearer ${token}`,
          accept: source === 'cadvisor' ? 'text/plain' : 'application/json',
        },
        signal,
      });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of response.body) {
        const buffer = chunk as Buffer;
        size += buffer.byteLength;
        if (size > MAX_BODY_BYTES) {
          response.body.destroy();
          return {
            error: `GET ${KUBELET_PATHS[source]} answered more than ${MAX_BODY_BYTES / 1024 / 1024} MiB`,
          };
        }
        chunks.push(buffer);
      }
      return { status: response.statusCode, body: Buffer.concat(chunks).toString('utf8') };
    } catch (e: unknown) {
      return { error: this.describeFailure(url, e) };
    }
  }

  private interpret(
    source: KubeletSource,
    answer: { readonly status: number; readonly body: string } | { readonly error: string },
  ): SourceResult {
    if ('error' in answer) return { ok: false, error: answer.error };
    const path = KUBELET_PATHS[source];
    if (answer.status === 200) return { ok: true, body: answer.body };
    const said = oneLine(answer.body);
    if (answer.status === 401) {
      return {
        ok: false,
        error: `the kubelet rejected the service-account token for GET ${path} (401 Unauthorized): its webhook token authentication is likely off; enable authentication.webhook.enabled in the kubelet configuration (--authentication-token-webhook)`,
      };
    }
    if (answer.status === 403) {
      return {
        ok: false,
        error: `the kubelet refused GET ${path} (403 Forbidden: ${said}): the node agent's ClusterRole lacks get on ${SUBRESOURCES[source]}`,
      };
    }
    return { ok: false, error: `GET ${path} answered ${answer.status}${said === '' ? '' : `: ${said}`}` };
  }

  /** The bearer token, read again when a minute old or when `force`d; an error result when unreadable. */
  private async readToken(force: boolean): Promise<string | SourceResult> {
    const now = this.options.now?.() ?? Date.now();
    if (!force && this.token !== undefined && now - this.token.readAtMs < TOKEN_REREAD_MS)
      return this.token.value;
    try {
      const value = (await readFile(this.options.tokenFile, 'utf8')).trim();
      if (value === '')
        return { ok: false, error: `the service-account token file ${this.options.tokenFile} is empty` };
      if (value !== this.token?.value) this.options.secrets.add(value);
      this.token = { value, readAtMs: now };
      return value;
    } catch (e: unknown) {
      // A token read earlier is still worth trying while the file is being replaced.
      if (this.token !== undefined && !force) return this.token.value;
      return {
        ok: false,
        error: `cannot read the service-account token file ${this.options.tokenFile}: ${messageOf(e)}`,
      };
    }
  }

  private describeFailure(url: string, e: unknown): string {
    const code = codeOf(e) ?? codeOf(e instanceof Error ? e.cause : undefined);
    if (code !== undefined && TLS_ERROR_CODES.has(code)) {
      return `cannot verify the kubelet's certificate at ${url} (${messageOf(e)}): set PROXIMA_KUBELET_CA_FILE to the CA that signed it, or PROXIMA_KUBELET_INSECURE_SKIP_VERIFY=true (self-signed kubelet certificates)`;
    }
    return `cannot reach the kubelet at ${url}: ${messageOf(e)}${code !== undefined && !messageOf(e).includes(code) ? ` (${code})` : ''}`;
  }
}

function codeOf(e: unknown): string | undefined {
  return e instanceof Error && 'code' in e && typeof e.code === 'string' ? e.code : undefined;
}

function oneLine(text: string): string {
  // Only the start matters: an error page can be large.
  const line = text
    .slice(0, 4 * MAX_ERROR_BODY_CHARS)
    .replace(/\s+/g, ' ')
    .trim();
  return line.length > MAX_ERROR_BODY_CHARS ? `${line.slice(0, MAX_ERROR_BODY_CHARS)}…` : line;
}

function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}
