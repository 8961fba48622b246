import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { field, ok, text, WatchClient } from './api-test-client.js';
import { startKubeSim, type KubeSim } from './kube-sim.js';

const WINDOW = 20;
let sim: KubeSim;

beforeAll(async () => {
  sim = await startKubeSim({ watchWindow: WINDOW, bookmarkIntervalMs: 50 });
});

afterAll(async () => {
  await sim.close();
});

const CM = '/api/v1/namespaces/default/configmaps';

async function freshNamespace(name: string): Promise<string> {
  await ok(sim, 'POST', '/api/v1/namespaces', { body: { metadata: { name } } });
  return `/api/v1/namespaces/${name}/configmaps`;
}

describe('watch', () => {
  it('streams ADDED, MODIFIED and DELETED in order from a resourceVersion', async () => {
    const path = await freshNamespace('watch-order');
    const list = await ok(sim, 'GET', path);
    const watch = await WatchClient.open(
      sim,
      `${path}?watch=true&resourceVersion=${text(list, 'metadata.resourceVersion')}`,
    );
    try {
      const a = await ok(sim, 'POST', path, { body: { metadata: { name: 'a' } } });
      await ok(sim, 'PUT', `${path}/a`, { body: { ...a, data: { k: 'v' } } });
      await ok(sim, 'DELETE', `${path}/a`);
      await watch.until((w) => w.events.length >= 3);
      expect(watch.events.map((e) => [e.type, field(e.object, 'metadata.name')])).toEqual([
        ['ADDED', 'a'],
        ['MODIFIED', 'a'],
        ['DELETED', 'a'],
      ]);
      const versions = watch.events.map((e) => Number(field(e.object, 'metadata.resourceVersion')));
      expect([...versions].sort((x, y) => x - y)).toEqual(versions);
      expect(field(watch.events[1]?.object, 'data')).toEqual({ k: 'v' });
    } finally {
      watch.close();
    }
  });

  it('starts with the current objects as ADDED without a resourceVersion, and filters by label', async () => {
    const path = await freshNamespace('watch-initial');
    await ok(sim, 'POST', path, { body: { metadata: { name: 'x', labels: { app: 'a' } } } });
    await ok(sim, 'POST', path, { body: { metadata: { name: 'y' } } });
    const watch = await WatchClient.open(sim, `${path}?watch=1&labelSelector=app%3Da`);
    try {
      await watch.until((w) => w.events.length >= 1);
      const y = await ok(sim, 'GET', `${path}/y`);
      // Gaining the label enters the selection (ADDED); losing it leaves it (DELETED).
      const labelled = await ok(sim, 'PUT', `${path}/y`, {
        body: { ...y, metadata: { ...(y.metadata as object), labels: { app: 'a' } } },
      });
      await ok(sim, 'PUT', `${path}/y`, {
        body: { ...labelled, metadata: { ...(labelled.metadata as object), labels: {} } },
      });
      await watch.until((w) => w.events.length >= 3);
      expect(watch.events.map((e) => [e.type, field(e.object, 'metadata.name')])).toEqual([
        ['ADDED', 'x'],
        ['ADDED', 'y'],
        ['DELETED', 'y'],
      ]);
    } finally {
      watch.close();
    }
  });

  it('sends BOOKMARKs when asked', async () => {
    const watch = await WatchClient.open(
      sim,
      `${CM}?watch=true&allowWatchBookmarks=true&resourceVersion=${text(await ok(sim, 'GET', CM), 'metadata.resourceVersion')}`,
    );
    try {
      await watch.until((w) => w.events.some((e) => e.type === 'BOOKMARK'));
      const bookmark = watch.events.find((e) => e.type === 'BOOKMARK');
      expect(bookmark?.object).toMatchObject({
        kind: 'ConfigMap',
        apiVersion: 'v1',
        metadata: { resourceVersion: expect.stringMatching(/^\d+$/) as string },
      });
    } finally {
      watch.close();
    }
  });

  it('ends the stream after timeoutSeconds', async () => {
    const started = Date.now();
    const watch = await WatchClient.open(sim, `${CM}?watch=true&timeoutSeconds=1`);
    await watch.until((w) => w.ended, 3000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('answers 410 Expired for a resourceVersion older than the event window', async () => {
    const path = await freshNamespace('watch-gone');
    const list = await ok(sim, 'GET', path);
    for (let i = 0; i < WINDOW + 5; i++)
      await ok(sim, 'POST', path, { body: { metadata: { name: `n${i}` } } });
    const watch = await WatchClient.open(
      sim,
      `${path}?watch=true&resourceVersion=${text(list, 'metadata.resourceVersion')}`,
    );
    await watch.until((w) => w.ended);
    expect(watch.events).toEqual([
      {
        type: 'ERROR',
        object: expect.objectContaining({
          kind: 'Status',
          status: 'Failure',
          reason: 'Expired',
          code: 410,
          message: expect.stringMatching(/^too old resource version: \d+ \(\d+\)$/) as string,
        }) as object,
      },
    ]);
  });

  it('resumes from the last resourceVersion seen without repeating events', async () => {
    const path = await freshNamespace('watch-resume');
    const list = await ok(sim, 'GET', path);
    const first = await WatchClient.open(
      sim,
      `${path}?watch=true&resourceVersion=${text(list, 'metadata.resourceVersion')}`,
    );
    await ok(sim, 'POST', path, { body: { metadata: { name: 'one' } } });
    await ok(sim, 'POST', path, { body: { metadata: { name: 'two' } } });
    await first.until((w) => w.events.length >= 2);
    first.close();
    const last = text(first.events.at(-1)?.object, 'metadata.resourceVersion');
    await ok(sim, 'POST', path, { body: { metadata: { name: 'three' } } });
    const second = await WatchClient.open(sim, `${path}?watch=true&resourceVersion=${last}`);
    try {
      await ok(sim, 'POST', path, { body: { metadata: { name: 'four' } } });
      await second.until((w) => w.events.length >= 2);
      await new Promise((r) => setTimeout(r, 50));
      expect(second.events.map((e) => field(e.object, 'metadata.name'))).toEqual(['three', 'four']);
    } finally {
      second.close();
    }
  });

  it('keeps delivering to other watchers while one does not read', async () => {
    const path = await freshNamespace('watch-slow');
    const rv = text(await ok(sim, 'GET', path), 'metadata.resourceVersion');
    const stalled = await WatchClient.open(sim, `${path}?watch=true&resourceVersion=${rv}`);
    (stalled as unknown as { res: { pause(): void } }).res.pause();
    const watchers = await Promise.all(
      Array.from({ length: 10 }, () => WatchClient.open(sim, `${path}?watch=true&resourceVersion=${rv}`)),
    );
    try {
      const big = 'x'.repeat(64 * 1024);
      for (let i = 0; i < 40; i++)
        await ok(sim, 'POST', path, { body: { metadata: { name: `o${i}` }, data: { big } } });
      await Promise.all(watchers.map((w) => w.until((x) => x.events.length >= 40, 10_000)));
      for (const w of watchers)
        expect(w.events.map((e) => field(e.object, 'metadata.name'))).toEqual(
          Array.from({ length: 40 }, (_, i) => `o${i}`),
        );
    } finally {
      stalled.close();
      for (const w of watchers) w.close();
    }
  });
});
