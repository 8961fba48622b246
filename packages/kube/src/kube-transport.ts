import type { HttpMethod, KubeConfig } from '@kubernetes/client-node';
import { IsomorphicFetchHttpLibrary, RequestContext, Watch } from '@kubernetes/client-node';
import { isIP } from 'node:net';
import { Agent, interceptors, type Dispatcher } from 'undici';
import { isStatus, kubeApiError, parseStatus } from './kube-api-error.js';

export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  contentType?: string;
  signal?: AbortSignal;
}

/**
 * Resolves the API server's host name for each new connection, the connection going to an address it
 * answers: a caller that must not reach some addresses checks every resolved address here, and the
 * checked one is the one dialled (no second resolution a rebinding DNS server could answer differently).
 * A server given as an address literal is passed too (hostname as the URL spells it, `[::1]` in
 * brackets) before every request and watch, so the lookup may refuse it; what it answers is not used.
 */
export type DnsLookup = NonNullable<interceptors.DNSInterceptorOpts['lookup']>;

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/**
 * Raw JSON requests to the API server. Authentication, TLS and the HTTP engine are
 * @kubernetes/client-node's (so every kubeconfig auth method works); paths, bodies and errors are ours,
 * because the generated API classes throw away the Status body of a 401 and hand other bodies back as
 * text, and convert timestamps to `Date` on core kinds only.
 */
export class KubeTransport {
  private readonly http = new IsomorphicFetchHttpLibrary();
  private readonly server: string;
  /**
   * client-node builds a new undici Agent on every applySecurityAuthentication, so each request would
   * pay a TLS handshake (about 120 requests/s). The TLS settings come from the kubeconfig and do not
   * change, so the first Agent is kept and the later ones are closed unused; headers stay per request,
   * so rotating credentials (exec plugins, token files) still apply.
   */
  private dispatcher: Dispatcher | undefined;

  constructor(
    readonly kubeConfig: KubeConfig,
    private readonly lookup?: DnsLookup,
  ) {
    const cluster = kubeConfig.getCurrentCluster();
    if (cluster === null) throw new TypeError('The kubeconfig has no current cluster');
    this.server = cluster.server.replace(/\/+$/, '');
  }

  async request<T>(method: HttpMethod, path: string, options: RequestOptions = {}): Promise<T> {
    const url = new URL(this.server + path);
    for (const [key, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    const ctx = new RequestContext(url.toString(), method);
    ctx.setHeaderParam('Accept', 'application/json');
    if (options.body !== undefined) {
      ctx.setHeaderParam('Content-Type', options.contentType ?? 'application/json');
      ctx.setBody(JSON.stringify(options.body));
    }
    if (options.signal !== undefined) ctx.setSignal(options.signal);
    await this.refuseLiteral();
    await this.kubeConfig.applySecurityAuthentication(ctx);
    this.reuseDispatcher(ctx);
    const response = await this.http.send(ctx).toPromise();
    const text = await response.body.text();
    if (response.httpStatusCode < 200 || response.httpStatusCode > 299) {
      throw kubeApiError(response.httpStatusCode, parseStatus(text));
    }
    return (text === '' ? undefined : JSON.parse(text)) as T;
  }

  private reuseDispatcher(ctx: RequestContext): void {
    const fresh = ctx.getDispatcher();
    if (fresh === undefined && this.lookup === undefined) return;
    if (this.dispatcher === undefined) {
      // Without TLS settings of its own the kubeconfig gets the global dispatcher, which a lookup cannot join.
      const base = fresh ?? new Agent();
      this.dispatcher =
        this.lookup === undefined ? base : base.compose(interceptors.dns({ lookup: this.lookup }));
      ctx.setDispatcher(this.dispatcher);
      return;
    }
    ctx.setDispatcher(this.dispatcher);
    if (fresh === undefined) return;
    void fresh.close();
  }

  /** Asks the lookup about a server given as an address literal, which undici would dial unasked. */
  private refuseLiteral(): Promise<void> {
    const lookup = this.lookup;
    const origin = new URL(this.server);
    if (lookup === undefined || isIP(origin.hostname.replace(/^\[(.*)\]$/, '$1')) === 0)
      return Promise.resolve();
    return new Promise((resolve, reject) => {
      lookup(origin, {}, (err) => {
        if (err === null) resolve();
        else reject(err);
      });
    });
  }

  /**
   * The kubeconfig as the watch sees it: with a lookup, every watch gets a dispatcher of its own that
   * dials through it (client-node's Watch fetches with the dispatcher authentication leaves on the
   * request), handed to `onDispatcher` so it is closed when the watch ends.
   */
  private watchConfig(onDispatcher: (dispatcher: Dispatcher) => void): KubeConfig {
    const lookup = this.lookup;
    if (lookup === undefined) return this.kubeConfig;
    const config = Object.create(this.kubeConfig) as KubeConfig;
    config.applySecurityAuthentication = async (ctx: RequestContext): Promise<void> => {
      await this.refuseLiteral();
      await this.kubeConfig.applySecurityAuthentication(ctx);
      const dispatcher = (ctx.getDispatcher() ?? new Agent()).compose(interceptors.dns({ lookup }));
      onDispatcher(dispatcher);
      ctx.setDispatcher(dispatcher);
    };
    return config;
  }

  /** Closes the kept connections. */
  async close(): Promise<void> {
    await this.dispatcher?.close();
    this.dispatcher = undefined;
  }

  /**
   * Streams a watch until the server closes it (resolves), `signal` aborts (resolves), or it fails
   * (rejects with a KubeApiError when the server answered one, e.g. GoneError for a compacted
   * resourceVersion).
   */
  watch(
    path: string,
    query: Record<string, string | number | boolean | undefined>,
    onEvent: (type: WatchEventType, object: unknown) => void,
    signal: AbortSignal,
  ): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let controller: AbortController | undefined;
      let failure: Error | undefined;
      let dispatcher: Dispatcher | undefined;
      const onAbort = (): void => controller?.abort();
      signal.addEventListener('abort', onAbort, { once: true });
      const finish = (err: unknown): void => {
        signal.removeEventListener('abort', onAbort);
        void dispatcher?.destroy();
        if (failure !== undefined) reject(failure);
        else if (signal.aborted || err === null || err === undefined || isInactivityTimeout(err)) resolve();
        else reject(watchFailure(err));
      };
      // client-node's Watch swallows exceptions thrown by this callback, so nothing here may throw.
      const callback = (type: string, object: unknown): void => {
        if (type === 'ERROR') {
          failure = isStatus(object)
            ? kubeApiError(object.code ?? 500, object)
            : new Error('Watch error event');
          controller?.abort();
          return;
        }
        try {
          onEvent(type as WatchEventType, object);
        } catch (e: unknown) {
          failure = e instanceof Error ? e : new Error(String(e));
          controller?.abort();
        }
      };
      const config = this.watchConfig((d) => {
        dispatcher = d;
      });
      new Watch(config).watch(path, query, callback, finish).then(
        (c) => {
          controller = c;
          if (signal.aborted || failure !== undefined) c.abort();
        },
        (e: unknown) => {
          finish(e);
        },
      );
    });
  }
}

/** client-node aborts a watch that has been silent for 30 s; that is a normal end, not a failure. */
function isInactivityTimeout(err: unknown): boolean {
  return err instanceof DOMException && err.name === 'TimeoutError';
}

function watchFailure(err: unknown): Error {
  // client-node reports a non-200 answer to the watch request as an Error with `statusCode`, without
  // the body.
  const statusCode = (err as { statusCode?: unknown } | null)?.statusCode;
  if (typeof statusCode === 'number') return kubeApiError(statusCode, undefined);
  return err instanceof Error ? err : new Error(String(err));
}
