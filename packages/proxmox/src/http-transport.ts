import { Agent } from 'undici';
import type { Dispatcher, FormData } from 'undici';
import WebSocket from 'ws';

import { abortError, Backoff, type BackoffOptions, sleep } from '@noderings/retry';

import { connectSocket, createConnector } from './connector.js';
import type { Connector } from './connector.js';
import {
  MalformedResponseError,
  ProxmoxError,
  PveUnauthorizedError,
  UnreachableError,
  errorFromResponse,
} from './errors.js';
import type { RequestContext } from './errors.js';
import { encodeForm } from './form-encoding.js';
import type { FormParams } from './form-encoding.js';
import { unreachableError } from './network-failure.js';
import type { TlsVerification } from './tls-pinning.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Supplies the credentials of each request (API token or ticket). */
export interface Authenticator {
  headers(method: HttpMethod, signal?: AbortSignal): Promise<Record<string, string>>;
  /** After a 401: drops cached credentials and says whether one more attempt with fresh ones makes sense. */
  renew?(): boolean;
}

export interface RetryPolicy extends BackoffOptions {
  /** Retries after the first attempt; 0 disables retrying. */
  count: number;
}

export interface TransportOptions {
  /** Origin plus any path prefix, without a trailing slash; `/api2/json` is appended here. */
  baseUrl: URL;
  auth: Authenticator;
  tls: TlsVerification;
  timeoutMs: number;
  connectTimeoutMs: number;
  retry: RetryPolicy;
}

export interface ApiCall {
  method: HttpMethod;
  /** Below `/api2/json`, every segment already percent-encoded. */
  path: string;
  /** Sent in the query string for GET/DELETE and as a form body for POST/PUT. */
  params?: FormParams | undefined;
  /** A multipart body instead of `params` (storage upload). */
  multipart?: FormData | undefined;
  signal?: AbortSignal | undefined;
  /** Overrides the client's per-request timeout (uploads). */
  timeoutMs?: number | undefined;
  /** Sends no credentials (the ticket login itself). */
  anonymous?: boolean | undefined;
}

/** The `{"data": …}` envelope of a successful answer; some lists add `total`. */
export interface Envelope {
  data: unknown;
  total?: number;
}

const API_PREFIX = '/api2/json';
const BODY_EXCERPT_CHARS = 200;

/**
 * HTTP to one Proxmox API endpoint: credentials, certificate checks, per-request deadline, and retries
 * that never repeat a mutating request Proxmox may already have received.
 */
export class HttpTransport {
  readonly #options: TransportOptions;
  readonly #backoff: Backoff;
  readonly #connector: Connector;
  readonly #agent: Agent;

  constructor(options: TransportOptions) {
    this.#options = options;
    this.#backoff = new Backoff({
      ...options.retry,
      maxMs: Math.max(options.retry.maxMs, options.retry.baseMs),
    });
    this.#connector = createConnector(options.tls, options.connectTimeoutMs);
    this.#agent = new Agent({ connect: this.#connector });
  }

  async call(call: ApiCall): Promise<Envelope> {
    let renewed = false;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.#once(call);
      } catch (e: unknown) {
        if (
          e instanceof PveUnauthorizedError &&
          call.anonymous !== true &&
          !renewed &&
          this.#options.auth.renew?.() === true
        ) {
          renewed = true;
          continue;
        }
        if (attempt >= this.#options.retry.count || !isRetryable(e, call.method)) throw e;
        if (!(await sleep(this.#backoff.delayMs(attempt + 1), call.signal)) && call.signal) {
          throw abortError(call.signal);
        }
      }
    }
  }

  /** Opens a WebSocket below `/api2/json` with the same credentials and certificate checks. */
  async webSocket(call: { path: string; params: FormParams; protocol: string }): Promise<WebSocket> {
    const url = this.#url(call.path, encodeForm(call.params));
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    const context = { method: 'GET', path: call.path };
    const headers = await this.#options.auth.headers('GET');
    let socket;
    try {
      socket = await connectSocket(this.#connector, this.#url(call.path, ''));
    } catch (e: unknown) {
      throw unreachableError(e, context);
    }
    const ws = new WebSocket(url, [call.protocol], {
      headers,
      handshakeTimeout: this.#options.timeoutMs,
      createConnection: () => socket,
    });
    return new Promise<WebSocket>((resolve, reject) => {
      // Stays attached after a failed handshake: tearing the request down may report a second error.
      const onError = (error: Error): void => {
        reject(unreachableError(error, context));
      };
      ws.on('error', onError);
      ws.once('open', () => {
        // The server may speak first (a VNC server does), in the same packet as the handshake; paused,
        // those bytes wait until the caller has attached its listeners and calls resume().
        ws.pause();
        ws.off('error', onError);
        resolve(ws);
      });
      ws.once('unexpected-response', (request, response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.once('end', () => {
          request.destroy();
          reject(
            errorFromResponse({
              ...context,
              status: response.statusCode ?? 0,
              statusText: response.statusMessage ?? '',
              body: Buffer.concat(chunks).toString('utf8'),
            }),
          );
        });
      });
    });
  }

  async close(): Promise<void> {
    await this.#agent.close();
  }

  async #once(call: ApiCall): Promise<Envelope> {
    const context: RequestContext = { method: call.method, path: call.path };
    const inQuery = call.method === 'GET' || call.method === 'DELETE';
    const form = encodeForm(call.params ?? {});
    const url = this.#url(call.path, inQuery ? form : '');
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...(call.anonymous === true ? {} : await this.#options.auth.headers(call.method, call.signal)),
    };
    let body: string | FormData | undefined;
    if (call.multipart !== undefined) {
      body = call.multipart;
    } else if (!inQuery) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = form;
    }

    const deadline = new AbortController();
    const timeoutMs = call.timeoutMs ?? this.#options.timeoutMs;
    const timer = setTimeout(() => {
      deadline.abort();
    }, timeoutMs);
    const signal =
      call.signal === undefined ? deadline.signal : AbortSignal.any([call.signal, deadline.signal]);
    let status: number;
    let statusText: string;
    let text: string;
    try {
      const response: Dispatcher.ResponseData = await this.#agent.request({
        origin: url.origin,
        path: url.pathname + url.search,
        method: call.method,
        headers,
        body,
        signal,
      });
      status = response.statusCode;
      statusText = response.statusText;
      text = await response.body.text();
    } catch (e: unknown) {
      call.signal?.throwIfAborted();
      if (deadline.signal.aborted) {
        throw new UnreachableError({
          ...context,
          reason: 'timeout',
          pveMessage: `no complete answer within ${timeoutMs} ms`,
          requestMayHaveBeenSent: true,
          transient: true,
        });
      }
      throw unreachableError(e, context);
    } finally {
      clearTimeout(timer);
    }

    if (status < 200 || status >= 300)
      throw errorFromResponse({ ...context, status, statusText, body: text });
    return parseEnvelope(text, { ...context, status });
  }

  #url(path: string, query: string): URL {
    const url = new URL(this.#options.baseUrl.href);
    url.pathname = `${url.pathname.replace(/\/$/, '')}${API_PREFIX}${path}`;
    url.search = query;
    return url;
  }
}

function isRetryable(error: unknown, method: HttpMethod): boolean {
  if (error instanceof UnreachableError) {
    return error.transient && (method === 'GET' || !error.requestMayHaveBeenSent);
  }
  if (method !== 'GET' || !(error instanceof ProxmoxError) || error.status === undefined) return false;
  // A recognised error (missing VM, lock, …) says the same thing the next time; only unclassified
  // server-side failures (an overloaded daemon, Proxmox's 595 for a node it could not proxy to) may pass.
  return error.constructor === ProxmoxError && error.status >= 500;
}

function parseEnvelope(text: string, context: RequestContext & { status: number }): Envelope {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw malformed(context, 'the answer is not JSON', text);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || !('data' in parsed)) {
    throw malformed(context, 'the answer has no "data" member', text);
  }
  const envelope: Envelope = { data: parsed.data };
  if ('total' in parsed && typeof parsed.total === 'number') envelope.total = parsed.total;
  return envelope;
}

function malformed(
  context: RequestContext & { status: number },
  problem: string,
  text: string,
): ProxmoxError {
  const excerpt = text.length > BODY_EXCERPT_CHARS ? `${text.slice(0, BODY_EXCERPT_CHARS)}…` : text;
  return new MalformedResponseError({ ...context, pveMessage: `${problem}: ${JSON.stringify(excerpt)}` });
}
