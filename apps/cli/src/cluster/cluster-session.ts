import type { ApiClient } from '../api-client.js';
import type { CommandContext } from '../command.js';
import type { Host } from '../host/host.js';
import type { ClusterState } from './cluster-state.js';
import { hostOf, targetCluster } from './cluster-target.js';
import type { RegisterContext } from './phase.js';

/** What the cluster commands after register act with: the host, the API and the cluster's state. */
export interface ClusterSession {
  readonly host: Host;
  readonly api: ApiClient;
  readonly state: ClusterState;
}

export async function openClusterSession(ctx: CommandContext): Promise<ClusterSession> {
  const state = await targetCluster(ctx);
  return { host: hostOf(ctx.io.env), api: await ctx.client(), state };
}

/** A register context for reusing phase code (read-only use) outside register. */
export function readOnlyContext(ctx: CommandContext, session: ClusterSession): RegisterContext {
  return {
    host: session.host,
    api: session.api,
    apiUrl: ctx.settings.apiUrl ?? session.state.api_url,
    configDir: ctx.store.dir,
    store: ctx.store,
    out: ctx.out,
    state: session.state,
    say: (message) => {
      ctx.io.stderr(`${message}\n`);
    },
    sleep: ctx.io.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
    input: {
      name: session.state.agent_name,
      agentIp: session.state.agent_ip,
      gatewayRegion: session.state.gateway_region,
      registerPlatform: session.state.register_scope.register_platform,
      force: false,
      skipPrechecks: false,
      skipOperatorInstall: session.state.register_scope.skip_operator_install,
      reinstallOperator: false,
      offline: true,
      dryRun: true,
      resume: true,
      ...(session.state.register_scope.proxmox_instances_file === undefined
        ? {}
        : { proxmoxInstancesFile: session.state.register_scope.proxmox_instances_file }),
    },
  };
}
