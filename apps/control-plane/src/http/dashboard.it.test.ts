import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestControlPlane, type TestControlPlane } from '../control-plane.test-support.js';

const INDEX = '<!doctype html><title>NodeRings</title><div id="root"></div>';

describe('the dashboard served by the control plane', () => {
  let dir: string;
  let t: TestControlPlane;
  let ready = false;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'nr-dashboard-'));
    await mkdir(join(dir, 'assets'));
    await writeFile(join(dir, 'index.html'), INDEX);
    await writeFile(join(dir, 'assets', 'app-1a2b3c.js'), 'console.log("dashboard")');
    await writeFile(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    t = await startTestControlPlane('embedded', { dashboardDir: dir, readiness: () => ready });
  }, 60_000);
  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  const get = (path: string) => fetch(`${t.url}${path}`);

  it('serves index.html at / and for the dashboard’s own routes, with a strict content security policy', async () => {
    for (const path of ['/', '/provider/plans', '/virtual-machines/abc?tab=charts']) {
      const response = await get(path);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/html');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(await response.text()).toBe(INDEX);
    }
  });

  it('serves built files, hashed assets as immutable', async () => {
    const asset = await get('/assets/app-1a2b3c.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect(await asset.text()).toBe('console.log("dashboard")');
    expect((await get('/favicon.svg')).headers.get('cache-control')).toBe('no-cache');
  });

  it('sends the security headers with every file: no sniffing, no framing, no HSTS over plain HTTP', async () => {
    for (const path of ['/', '/assets/app-1a2b3c.js', '/favicon.svg']) {
      const response = await get(path);
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(response.headers.get('x-frame-options'), path).toBe('DENY');
      expect(response.headers.get('content-security-policy'), path).toContain("frame-ancestors 'none'");
      expect(response.headers.get('strict-transport-security'), path).toBeNull();
    }
  });

  it('keeps API paths answering the API’s errors, and never serves files outside its folder', async () => {
    const missing = await get('/v1/no-such-thing');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: 'NOT_FOUND' });
    expect((await get('/healthz')).status).toBe(200);
    for (const path of ['/..%2f..%2fetc%2fpasswd', '/assets/..%2f..%2fpackage.json']) {
      const response = await get(path);
      expect(await response.text()).toBe(INDEX);
    }
    expect((await get('/%E0%A4%A')).status).toBe(400);
  });

  it('answers /readyz 503 until the embedding says it is ready', async () => {
    const starting = await get('/readyz');
    expect(starting.status).toBe(503);
    expect(await starting.json()).toEqual({ status: 'starting' });
    ready = true;
    expect((await get('/readyz')).status).toBe(200);
  });
});
