export type SandboxErrorCode =
  /** The control plane refused a seeding call; the message carries its answer. */
  | 'SEED_REQUEST_FAILED'
  /** The control plane could not reach the simulated agent cluster with the uploaded kubeconfig. */
  | 'PEERING_NOT_READY'
  /** The data directory holds files the sandbox did not put there, so it is not emptied. */
  | 'FOREIGN_DATA_DIR'
  /** The simulated agent cluster refused a setup call. */
  | 'AGENT_CLUSTER_SETUP_FAILED'
  /** The data directory holds a seed the sandbox cannot reuse (a part is missing, another database). */
  | 'INCONSISTENT_DATA_DIR'
  /** Another running sandbox uses the data directory. */
  | 'DATA_DIR_IN_USE'
  /** The proxmox-operator did not start. */
  | 'OPERATOR_FAILED'
  /** Preflight did not pass the seeded plans in time, so the marketplace would not list them. */
  | 'NOT_MARKETPLACE_READY';

/** Why the sandbox could not start; everything it had started is closed by then. */
export class SandboxError extends Error {
  constructor(
    readonly code: SandboxErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'SandboxError';
  }
}
