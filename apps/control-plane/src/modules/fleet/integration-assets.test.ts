import { describe, expect, it } from 'vitest';

import { integrationAssets } from './integration-assets.js';

describe('integrationAssets', () => {
  it('makes an asset of each integration collector that found something', () => {
    expect(
      integrationAssets([
        { name: 'kubelet', kind: 'core', status: 'ok' },
        {
          name: 'postgresql',
          kind: 'integration',
          status: 'ok',
          target: ':5432',
          details: { version: '16' },
        },
        { name: 'postgresql', kind: 'integration', status: 'failing', target: ':5433' },
        { name: 'redis', kind: 'integration', status: 'degraded' },
        { name: 'nginx', kind: 'integration', status: 'ok' },
        { name: 'docker', kind: 'integration', status: 'ok' },
        { name: 'mysql', kind: 'integration', status: 'disabled' },
        { name: 'exotic', kind: 'integration', status: 'ok' },
      ]),
    ).toEqual([
      {
        integration: 'postgresql',
        assetType: 'database',
        target: ':5432',
        status: 'ok',
        details: { version: '16' },
      },
      { integration: 'postgresql', assetType: 'database', target: ':5433', status: 'failing', details: {} },
      { integration: 'redis', assetType: 'cache', target: '', status: 'degraded', details: {} },
      { integration: 'nginx', assetType: 'web_server', target: '', status: 'ok', details: {} },
      { integration: 'docker', assetType: 'container_runtime', target: '', status: 'ok', details: {} },
      { integration: 'exotic', assetType: 'service', target: '', status: 'ok', details: {} },
    ]);
  });

  it('keeps the last report of an integration and target given twice', () => {
    expect(
      integrationAssets([
        { name: 'redis', kind: 'integration', status: 'ok', target: ':6379' },
        { name: 'redis', kind: 'integration', status: 'failing', target: ':6379' },
      ]),
    ).toEqual([
      { integration: 'redis', assetType: 'cache', target: ':6379', status: 'failing', details: {} },
    ]);
  });
});
