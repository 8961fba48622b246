import type { ConfigStore } from '../config-store.js';

/** The register phases, in order; `nr cluster status` and the state file name them so. */
export const PHASE_NAMES = [
  'versions',
  'prechecks',
  'agent',
  'k3s',
  'calico',
  'stack',
  'inbound_peering',
  'platform',
  'verify',
] as const;
export type PhaseName = (typeof PHASE_NAMES)[number];

export interface Checkpoint {
  readonly phase: PhaseName;
  readonly timestamp: string;
  readonly status: 'success' | 'failed' | 'skipped';
  readonly duration_ms: number;
}

interface LastError {
  readonly phase: PhaseName;
  readonly timestamp: string;
  readonly error: string;
  /** Whether `--resume` can be expected to get past it (false: the input must change first). */
  readonly recoverable: boolean;
}

/** What a register run chose, so that `--resume` and `verify` act on the same scope. */
interface RegisterScope {
  readonly skip_operator_install: boolean;
  readonly register_platform: boolean;
  readonly proxmox_instances_file?: string;
  readonly api_server_url?: string;
  readonly region_id?: string;
}

/**
 * `~/.nr/clusters/<name>/state.json`: where a register got to. The keys are the original CLI's (snake
 * case), so that its users find what they know.
 */
export interface ClusterState {
  readonly agent_name: string;
  agent_id?: string;
  readonly agent_ip: string;
  readonly gateway_region: string;
  readonly api_url: string;
  readonly registration_time: string;
  phase: PhaseName | 'current' | 'complete' | 'failed';
  last_updated: string;
  checkpoints: Checkpoint[];
  last_error?: LastError;
  /** The pinned version of each component installed, by name. */
  versions: Record<string, string>;
  register_scope: RegisterScope;
  platform_id?: string;
}

export function readClusterState(store: ConfigStore, name: string): Promise<ClusterState | undefined> {
  return store.readClusterState<ClusterState>(name);
}

export async function writeClusterState(store: ConfigStore, state: ClusterState): Promise<void> {
  state.last_updated = new Date().toISOString();
  await store.writeClusterState(state.agent_name, state);
}

/** The last checkpoint of the phase, if any. */
export function checkpointOf(state: ClusterState, phase: PhaseName): Checkpoint | undefined {
  return state.checkpoints.filter((c) => c.phase === phase).at(-1);
}

export function succeeded(state: ClusterState, phase: PhaseName): boolean {
  return checkpointOf(state, phase)?.status === 'success';
}
