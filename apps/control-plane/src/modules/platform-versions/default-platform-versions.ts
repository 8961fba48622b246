import type { PlatformVersions } from '@noderings/domain';

/**
 * What is published when no file is configured: only pins whose checksum is known here. The operator,
 * pve-exporter and Alloy images have no published digest yet, so they are left out rather than guessed;
 * a deployment names them in its own file.
 */
export const DEFAULT_PLATFORM_VERSIONS: PlatformVersions = {
  channel: 'stable',
  components: [
    {
      name: 'k3s',
      version: 'v1.34.2+k3s1',
      downloadUrl: 'https://github.com/k3s-io/k3s/releases/download/v1.34.2%2Bk3s1/k3s',
      checksumSha256: '15811d34187e03fe29d0e46108c42cc33e62cec1b3d9d80f50944536ebcad40a',
    },
  ],
};
