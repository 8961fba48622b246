import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { PlatformVersions } from '@noderings/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { PlatformVersionsFileError, startControlPlane } from '../../control-plane.js';
import { startTestControlPlane, type TestControlPlane } from '../../control-plane.test-support.js';
import { DATABASE_KINDS } from '../../db/test-database.test-support.js';
import { DEFAULT_PLATFORM_VERSIONS } from './default-platform-versions.js';

const OPERATOR_DIGEST = randomBytes(32).toString('hex');
const DOCUMENT: PlatformVersions = {
  channel: 'stable',
  components: [
    {
      name: 'k3s',
      version: 'v1.34.2+k3s1',
      downloadUrl: 'https://github.com/k3s-io/k3s/releases/download/v1.34.2%2Bk3s1/k3s',
      checksumSha256: randomBytes(32).toString('hex'),
    },
    {
      name: 'proxmox-operator',
      version: '0.1.0',
      image: `ghcr.io/noderings/proxmox-operator@sha256:${OPERATOR_DIGEST}`,
      checksumSha256: OPERATOR_DIGEST,
    },
  ],
};
const [K3S, OPERATOR] = DOCUMENT.components as [
  PlatformVersions['components'][number],
  PlatformVersions['components'][number],
];

let dir: string;

async function documentFile(name: string, document: unknown): Promise<string> {
  const path = join(dir, `${name}.json`);
  await writeFile(path, typeof document === 'string' ? document : JSON.stringify(document));
  return path;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'platform-versions-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe.each(DATABASE_KINDS)('GET /v1/platform-versions (%s)', (kind) => {
  let t: TestControlPlane;
  let fromFile: TestControlPlane;

  beforeAll(async () => {
    t = await startTestControlPlane(kind);
    fromFile = await startTestControlPlane(kind, {
      platformVersionsFile: await documentFile(`served-${kind}`, DOCUMENT),
    });
  });

  afterAll(async () => {
    await t.close();
    await fromFile.close();
  });

  it('answers anyone, without a token, with the configured document, cacheable for five minutes', async () => {
    const response = await fetch(`${fromFile.url}/v1/platform-versions`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(DOCUMENT);
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    expect(response.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]+"$/);
  });

  it('serves the built-in pins (k3s alone, with its real checksum) when no file is configured', async () => {
    const response = await t.call<PlatformVersions>('GET', '/v1/platform-versions');
    expect(response.status).toBe(200);
    expect(response.body).toEqual(DEFAULT_PLATFORM_VERSIONS);
    expect(response.body.components.map((c) => c.name)).toEqual(['k3s']);
  });

  it('answers 304 without a body to If-None-Match naming its ETag, weakly compared, and 200 otherwise', async () => {
    const url = `${fromFile.url}/v1/platform-versions`;
    const etag = (await fetch(url)).headers.get('etag') ?? '';
    for (const ifNoneMatch of [etag, `W/${etag}`, `"stale", ${etag}`, '*']) {
      const response = await fetch(url, { headers: { 'if-none-match': ifNoneMatch } });
      expect(response.status, ifNoneMatch).toBe(304);
      expect(await response.text()).toBe('');
      expect(response.headers.get('etag')).toBe(etag);
      expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    }
    const stale = await fetch(url, { headers: { 'if-none-match': '"stale"' } });
    expect(stale.status).toBe(200);
    expect(await stale.json()).toEqual(DOCUMENT);
    // Another document is another tag: a cached copy of the default is not taken for this one.
    const defaultTag = (await fetch(`${t.url}/v1/platform-versions`)).headers.get('etag');
    expect(defaultTag).not.toBe(etag);
  });

  it('is documented as public', async () => {
    const document = (
      await t.call<{ paths: Record<string, Record<string, { 'x-noderings-access'?: unknown }>> }>(
        'GET',
        '/openapi.json',
      )
    ).body;
    expect(document.paths['/v1/platform-versions']?.get?.['x-noderings-access']).toEqual({ kind: 'public' });
  });
});

describe('a platform versions file the control plane refuses to start with', () => {
  const { checksumSha256: _, ...k3sWithoutChecksum } = K3S;
  const cases: [string, unknown, RegExp][] = [
    ['a pin without a checksum', [k3sWithoutChecksum], /components\.0\.checksumSha256: is required/],
    [
      'an image not pinned by digest',
      [{ ...OPERATOR, image: 'ghcr.io/noderings/proxmox-operator:0.1.0' }],
      /components\.0\.image: must be pinned by digest/,
    ],
    [
      "a checksum other than the image's digest",
      [K3S, { ...OPERATOR, checksumSha256: K3S.checksumSha256 }],
      /components\.1\.checksumSha256: must equal the image's digest/,
    ],
    ['a name listed twice', [K3S, OPERATOR, K3S], /components\.2\.name: k3s is listed twice/],
    [
      'a download not over https',
      [{ ...K3S, downloadUrl: 'http://github.com/k3s-io/k3s/releases/download/v1.34.2%2Bk3s1/k3s' }],
      /components\.0\.downloadUrl: must be an https:\/\/ URL/,
    ],
  ];

  it.each(cases)('%s, naming the field', async (name, components, message) => {
    const path = await documentFile(name.replaceAll(' ', '-'), { channel: 'stable', components });
    const start = startControlPlane({
      database: { inMemory: true },
      secretKey: randomBytes(32),
      platformVersionsFile: path,
    });
    await expect(start).rejects.toThrow(PlatformVersionsFileError);
    await expect(start).rejects.toThrow(message);
    await expect(start).rejects.toThrow(path);
  });

  it('that is missing or not JSON', async () => {
    const missing = join(dir, 'missing.json');
    await expect(
      startControlPlane({
        database: { inMemory: true },
        secretKey: randomBytes(32),
        platformVersionsFile: missing,
      }),
    ).rejects.toThrow(`cannot read the platform versions file ${missing}`);
    const notJson = await documentFile('not-json', '{"channel": "stable",');
    await expect(
      startControlPlane({
        database: { inMemory: true },
        secretKey: randomBytes(32),
        platformVersionsFile: notJson,
      }),
    ).rejects.toThrow(/is not JSON/);
  });

  it('makes `npm run control-plane` exit 2 with the message, before it opens a database', async () => {
    const path = await documentFile('main', { channel: 'stable', components: [k3sWithoutChecksum] });
    const main = fileURLToPath(new URL('../../main.ts', import.meta.url));
    const loader = fileURLToPath(new URL('../../../../../node_modules/tsx/dist/loader.mjs', import.meta.url));
    const outcome = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        ['--import', loader, main, '--data-dir', join(dir, 'main-data'), '--listen', '127.0.0.1:0'],
        { env: { PATH: process.env.PATH, NR_PLATFORM_VERSIONS_FILE: path }, timeout: 60_000 },
        (_error, _stdout, stderr) => {
          resolve({ code: child.exitCode, stderr });
        },
      );
    });
    expect(outcome.stderr).toContain(
      `the platform versions file ${path} is refused: components.0.checksumSha256: is required`,
    );
    expect(outcome.code).toBe(2);
  });
});
