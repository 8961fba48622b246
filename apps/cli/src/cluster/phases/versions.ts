import type { Phase } from '../phase.js';
import { pinsOf } from '../phase.js';
import {
  ALLOY_COMPONENT,
  cachedDownloadPath,
  isCached,
  OPERATOR_COMPONENT,
  pinOf,
  PVE_EXPORTER_COMPONENT,
  REQUIRED_DOWNLOADS,
  verifiedDownload,
} from '../platform-versions.js';

/**
 * Phase 1: the version pins (`GET /v1/platform-versions`, or the CLI's own with `--offline`), and every
 * download verified by its SHA-256 into `~/.nr/bin`. nr needs no companion tools (no helm, no liqoctl):
 * k3s brings kubectl, and the stack is applied from manifests nr renders itself.
 */
export const versionsPhase: Phase = {
  name: 'versions',
  title: 'Versions and downloads',
  isDone: async (ctx) => {
    const pins = await pinsOf(ctx);
    const downloads = REQUIRED_DOWNLOADS.map((name) => pinOf(pins, name));
    return (await Promise.all(downloads.map((pin) => isCached(ctx.configDir, pin)))).every(Boolean);
  },
  plan: async (ctx) => {
    const pins = await pinsOf(ctx);
    return REQUIRED_DOWNLOADS.map((name) => {
      const pin = pinOf(pins, name);
      return {
        description: `download ${name} ${pin.version} from ${pin.downloadUrl ?? '?'} to ${cachedDownloadPath(ctx.configDir, pin)}, checking SHA-256 ${pin.checksumSha256}`,
      };
    });
  },
  run: async (ctx) => {
    const pins = await pinsOf(ctx);
    for (const name of REQUIRED_DOWNLOADS) {
      const pin = pinOf(pins, name);
      await verifiedDownload(ctx.configDir, pin);
      ctx.state.versions[name] = pin.version;
      ctx.say(`${name} ${pin.version}: verified (sha256 ${pin.checksumSha256.slice(0, 12)}…)`);
    }
    if (!ctx.input.skipOperatorInstall) {
      for (const name of [OPERATOR_COMPONENT, PVE_EXPORTER_COMPONENT, ALLOY_COMPONENT])
        ctx.state.versions[name] = pinOf(pins, name).version;
    }
  },
};
