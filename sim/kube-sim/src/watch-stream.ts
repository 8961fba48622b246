import type { ServerResponse } from 'node:http';
import type { FieldSelector } from './field-selector.js';
import type { KubeObject } from './kube-object.js';
import type { LabelSelector } from './label-selector.js';
import type { EventType, ObjectStore, StoreEvent, WatchSink } from './object-store.js';
import { apiVersionOf, resourceKey, type ResourceType } from './resource-type.js';
import { gone } from './status-error.js';
import { toTable, type IncludeObject } from './table.js';

export interface WatchRequest {
  type: ResourceType;
  version: string;
  namespace: string | undefined;
  labels: LabelSelector;
  fields: FieldSelector;
  /** Undefined or `0`: start with the current objects as ADDED; otherwise resume after this version. */
  resourceVersion: number | undefined;
  allowBookmarks: boolean;
  timeoutMs: number;
  bookmarkIntervalMs: number;
  /** Events carry one-row Tables instead of objects, as `kubectl get -w` asks. */
  table: IncludeObject | undefined;
}

/** A watcher that falls this many events behind (its client does not read) is closed, as kube drops slow watchers. */
const MAX_PENDING_EVENTS = 50_000;

/**
 * One watch: JSON lines `{"type": …, "object": …}` on a chunked response. Each event is encoded once
 * per form (version, table or not) and shared by every watcher; a watcher whose socket is full queues
 * its lines and waits for `drain`, so a slow reader never holds up the others.
 */
export class WatchStream implements WatchSink {
  private readonly pending: string[] = [];
  private blocked = false;
  private closed = false;
  private unsubscribe: (() => void) | undefined;
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly form: string;

  constructor(
    private readonly res: ServerResponse,
    private readonly store: ObjectStore,
    private readonly request: WatchRequest,
    private readonly onClose: (stream: WatchStream) => void,
  ) {
    this.form = `${request.version}|${request.table ?? 'object'}`;
  }

  start(): void {
    const { request, store } = this;
    const key = resourceKey(request.type.group, request.type.plural);
    this.res.writeHead(200, {
      'Content-Type': 'application/json',
      'Cache-Control': 'no-cache, private',
      'Transfer-Encoding': 'chunked',
    });
    this.res.flushHeaders();
    this.res.on('close', () => {
      this.close();
    });
    const from = request.resourceVersion;
    if (from === undefined || from === 0) {
      for (const object of store.list(key, request.namespace)) {
        if (this.matches(object)) this.write(this.encode('ADDED', object));
      }
    } else {
      const events = store.eventsSince(key, from);
      if (!events) {
        const status = gone(`too old resource version: ${from} (${store.oldestResumableRv + 1})`).toStatus();
        this.res.end(`${JSON.stringify({ type: 'ERROR', object: status })}\n`);
        this.close();
        return;
      }
      for (const event of events) this.deliver(event);
    }
    this.unsubscribe = store.watch(key, this);
    this.timers.push(
      setTimeout(() => {
        this.close();
      }, request.timeoutMs),
    );
    if (request.allowBookmarks) {
      this.timers.push(
        setInterval(() => {
          this.bookmark();
        }, request.bookmarkIntervalMs),
      );
    }
  }

  deliver(event: StoreEvent): void {
    if (this.closed) return;
    const now = this.matches(event.object);
    const before = event.previous !== undefined && event.type === 'MODIFIED' && this.matches(event.previous);
    let type: EventType | undefined;
    if (event.type === 'MODIFIED')
      type = now && before ? 'MODIFIED' : now ? 'ADDED' : before ? 'DELETED' : undefined;
    else type = now ? event.type : undefined;
    if (!type) return;
    const cacheKey = `${type}|${this.form}`;
    let line = event.encoded.get(cacheKey);
    if (line === undefined) {
      line = this.encode(type, event.object);
      event.encoded.set(cacheKey, line);
    }
    this.write(line);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe?.();
    for (const t of this.timers) clearTimeout(t);
    if (!this.res.writableEnded) this.res.end();
    this.onClose(this);
  }

  private matches(object: KubeObject): boolean {
    const { namespace, labels, fields } = this.request;
    if (namespace !== undefined && object.metadata.namespace !== namespace) return false;
    return labels.matches(object.metadata.labels) && fields.matches(object);
  }

  private encode(type: EventType, object: KubeObject): string {
    const { request } = this;
    const apiVersion = apiVersionOf(request.type.group, request.version);
    const shown = object.apiVersion === apiVersion ? object : { ...object, apiVersion };
    const payload = request.table
      ? toTable(
          request.type,
          request.version,
          [shown],
          { resourceVersion: object.metadata.resourceVersion ?? '' },
          request.table,
        )
      : shown;
    return `${JSON.stringify({ type, object: payload })}\n`;
  }

  private bookmark(): void {
    if (this.blocked) return;
    const { type, version } = this.request;
    const object = {
      kind: type.kind,
      apiVersion: apiVersionOf(type.group, version),
      metadata: { resourceVersion: String(this.store.resourceVersion) },
    };
    this.write(`${JSON.stringify({ type: 'BOOKMARK', object })}\n`);
  }

  private write(line: string): void {
    if (this.closed) return;
    if (this.blocked) {
      this.pending.push(line);
      if (this.pending.length > MAX_PENDING_EVENTS) this.close();
      return;
    }
    if (!this.res.write(line)) this.waitForDrain();
  }

  private waitForDrain(): void {
    this.blocked = true;
    this.res.once('drain', () => {
      this.blocked = false;
      while (this.pending.length > 0 && !this.closed) {
        const line = this.pending.shift() ?? '';
        if (!this.res.write(line)) {
          this.waitForDrain();
          return;
        }
      }
    });
  }
}
