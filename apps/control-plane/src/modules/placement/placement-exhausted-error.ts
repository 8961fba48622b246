import { ResourceExhaustedError } from '@noderings/domain';

/** Why one node of the plan could not take the VM. */
export interface NodeRefusal {
  readonly nodeId: string;
  readonly nodeName: string;
  /** Every reason, not only the first, so that a preflight note can list what to fix. */
  readonly reasons: readonly string[];
}

/** No node of the plan can take one more VM now (RESOURCE_EXHAUSTED): each node's reasons are kept. */
export class PlacementExhaustedError extends ResourceExhaustedError {
  constructor(
    readonly planId: string,
    readonly refusals: readonly NodeRefusal[],
  ) {
    super(
      refusals.length === 0
        ? `Plan ${planId} has no node to place a VM on.`
        : `No node of plan ${planId} can take the VM: ${refusals
            .map((r) => `${r.nodeName}: ${r.reasons.join('; ')}`)
            .join(' | ')}.`,
    );
  }
}
