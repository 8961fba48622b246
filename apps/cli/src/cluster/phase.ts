import type { ApiClient } from '../api-client.js';
import type { ConfigStore } from '../config-store.js';
import type { Host, HostCommand } from '../host/host.js';
import type { Output } from '../output.js';
import type { ClusterState, PhaseName } from './cluster-state.js';
import { loadPlatformVersions, type PlatformVersions } from './platform-versions.js';
import { readProxmoxInstances, type ProxmoxInstance } from './proxmox-instances.js';

/** What `nr cluster register` was asked, flags checked. */
export interface RegisterInput {
  readonly name: string;
  readonly agentIp: string;
  readonly gatewayRegion: string;
  readonly agentId?: string;
  readonly proxmoxInstancesFile?: string;
  readonly registerPlatform: boolean;
  readonly regionId?: string;
  readonly apiServerUrl?: string;
  readonly force: boolean;
  readonly skipPrechecks: boolean;
  readonly skipOperatorInstall: boolean;
  readonly reinstallOperator: boolean;
  readonly offline: boolean;
  readonly dryRun: boolean;
  readonly resume: boolean;
}

/** What every phase runs with. Phases keep what later ones need in `state` (persisted) or here (not). */
export interface RegisterContext {
  readonly host: Host;
  readonly api: ApiClient;
  readonly apiUrl: string;
  readonly configDir: string;
  readonly store: ConfigStore;
  readonly out: Output;
  readonly input: RegisterInput;
  readonly state: ClusterState;
  /** Progress for stderr. */
  readonly say: (message: string) => void;
  readonly sleep: (ms: number) => Promise<void>;
  pins?: PlatformVersions;
  instances?: ProxmoxInstance[];
}

/** One thing a phase would do: a host command (shown as a shell would read it) or an API call. */
interface PlannedStep {
  readonly description: string;
  readonly command?: HostCommand;
}

/**
 * A register phase as data: `isDone` only reads (the host, the cluster, the API) and says whether the
 * phase's outcome is already there; `plan` lists what `run` would do, from the same command builders;
 * `run` does it and leaves the outcome `isDone` recognises, so that a phase killed half-way is run again
 * and converges.
 */
export interface Phase {
  readonly name: PhaseName;
  readonly title: string;
  /** Why the phase does not apply to this register (a flag), if it does not. */
  readonly skipped?: (ctx: RegisterContext) => string | undefined;
  readonly isDone: (ctx: RegisterContext) => Promise<boolean>;
  readonly plan: (ctx: RegisterContext) => Promise<PlannedStep[]>;
  readonly run: (ctx: RegisterContext) => Promise<void>;
}

export async function pinsOf(ctx: RegisterContext): Promise<PlatformVersions> {
  ctx.pins ??= await loadPlatformVersions({
    apiUrl: ctx.apiUrl,
    configDir: ctx.configDir,
    offline: ctx.input.offline,
    keep: !ctx.input.dryRun,
  });
  return ctx.pins;
}

/** The instances file of this register (the flag, or the one the first run recorded). */
export async function instancesOf(ctx: RegisterContext): Promise<ProxmoxInstance[]> {
  const file = ctx.input.proxmoxInstancesFile ?? ctx.state.register_scope.proxmox_instances_file;
  if (file === undefined) return [];
  ctx.instances ??= await readProxmoxInstances(file);
  return ctx.instances;
}

export function agentIdOf(ctx: RegisterContext): string {
  const id = ctx.state.agent_id;
  if (id === undefined) throw new Error('the agent phase has not run: no agent id in the state file');
  return id;
}

/** Polls `check` until it returns a value, or fails with `what` after `timeoutMs`. */
export async function waitFor<T>(
  ctx: RegisterContext,
  what: string,
  timeoutMs: number,
  check: () => Promise<T | undefined>,
  intervalMs = 1000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline)
      throw new Error(`${what} did not happen within ${String(Math.round(timeoutMs / 1000))} s`);
    await ctx.sleep(intervalMs);
  }
}
