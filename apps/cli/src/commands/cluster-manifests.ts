import { toYaml } from '@noderings/deploy';

import type { Command } from '../command.js';
import { openClusterSession, readOnlyContext } from '../cluster/cluster-session.js';
import { instancesOf } from '../cluster/phase.js';
import { stackObjects } from '../cluster/phases/stack.js';
import { calicoInstallation } from '../cluster/phases/calico.js';

export const clusterManifests: Command = {
  path: ['cluster', 'manifests'],
  summary: "prints the YAML register applies for the agent's stack (Secrets' values left out)",
  synopsis: '[--name NAME]',
  options: { name: { type: 'string' } },
  args: [],
  run: async (ctx) => {
    const session = await openClusterSession(ctx);
    const readOnly = readOnlyContext(ctx, session);
    // The current pins, as register would apply them.
    const phaseCtx = { ...readOnly, input: { ...readOnly.input, offline: false } };
    const objects = [calicoInstallation(), ...(await stackObjects(phaseCtx))];
    const instances = await instancesOf(phaseCtx).catch(() => []);
    const note =
      instances.length === 0
        ? ''
        : `# and a Secret proxmox-system/proxmox-credentials-<id> per instance: ${instances.map((i) => i.id).join(', ')}\n`;
    ctx.out.result(objects, () => `${note}${toYaml(objects)}`);
  },
};
