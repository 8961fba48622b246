import type { CollectorStatus } from '@noderings/fleet';

/**
 * The integration-to-asset bridge (seed 004): an integration collector in a heartbeat means the agent
 * found that service on its host, which makes the service an asset of the environment, whether the agent
 * runs as a DaemonSet or on a bare-metal host.
 */

type AssetType = 'database' | 'cache' | 'web_server' | 'container_runtime' | 'message_queue' | 'service';

const ASSET_TYPES: Readonly<Record<string, AssetType>> = {
  postgresql: 'database',
  postgres: 'database',
  mysql: 'database',
  mariadb: 'database',
  mongodb: 'database',
  clickhouse: 'database',
  elasticsearch: 'database',
  redis: 'cache',
  valkey: 'cache',
  memcached: 'cache',
  nginx: 'web_server',
  apache: 'web_server',
  httpd: 'web_server',
  caddy: 'web_server',
  haproxy: 'web_server',
  traefik: 'web_server',
  docker: 'container_runtime',
  containerd: 'container_runtime',
  podman: 'container_runtime',
  'cri-o': 'container_runtime',
  rabbitmq: 'message_queue',
  kafka: 'message_queue',
  nats: 'message_queue',
};

export interface IntegrationAsset {
  readonly integration: string;
  readonly assetType: AssetType;
  /** Where the service answers; '' when the collector did not say (one such asset per host). */
  readonly target: string;
  readonly status: CollectorStatus['status'];
  readonly details: Readonly<Record<string, string>>;
}

/**
 * The assets a heartbeat's collectors describe: every integration collector that is not disabled (a
 * disabled one found nothing to watch). One asset per integration and target, the last one winning.
 */
export function integrationAssets(collectors: readonly CollectorStatus[]): IntegrationAsset[] {
  const assets = new Map<string, IntegrationAsset>();
  for (const c of collectors) {
    if (c.kind !== 'integration' || c.status === 'disabled') continue;
    const target = c.target ?? '';
    assets.set(JSON.stringify([c.name, target]), {
      integration: c.name,
      assetType: ASSET_TYPES[c.name] ?? 'service',
      target,
      status: c.status,
      details: c.details ?? {},
    });
  }
  return [...assets.values()];
}
