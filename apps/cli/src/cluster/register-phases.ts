import type { PhaseName } from './cluster-state.js';
import type { Phase } from './phase.js';
import { agentPhase } from './phases/agent.js';
import { calicoPhase } from './phases/calico.js';
import { inboundPeeringPhase } from './phases/inbound-peering.js';
import { k3sPhase } from './phases/k3s.js';
import { platformPhase } from './phases/platform.js';
import { precheckPhase } from './phases/prechecks.js';
import { stackPhase } from './phases/stack.js';
import { verifyPhase } from './phases/verify.js';
import { versionsPhase } from './phases/versions.js';

/** `nr cluster register`, in order. */
export const REGISTER_PHASES: readonly Phase[] = [
  versionsPhase,
  precheckPhase,
  agentPhase,
  k3sPhase,
  calicoPhase,
  stackPhase,
  inboundPeeringPhase,
  platformPhase,
  verifyPhase,
];

/**
 * Which of seed 001's ten phases (by its numbers and names) each of ours covers (ADR 0029). Its
 * version pins come before its phase 1, as our `versions` does; `platform` is new.
 */
export const SEED_PHASES: Readonly<Record<PhaseName, readonly string[]>> = {
  versions: ['version pins and companion tools'],
  prechecks: ['2 Prechecks'],
  agent: ['1 Agent record'],
  k3s: ['3 k3s'],
  calico: ['4 Calico'],
  stack: ['9 Operator'],
  inbound_peering: ['8 Inbound peering'],
  platform: [],
  verify: ['10 Verify'],
};

/**
 * Seed 001's phases with no counterpart, for `nr cluster status`: the control plane reaches the cluster
 * through the uploaded least-privilege kubeconfig (ADR 0006), so there is no Liqo to install, peer or
 * offload namespaces with.
 */
export const SEED_PHASES_NOT_RUN = ['5 Liqo', '6 Outbound peer', '7 Offloading'] as const;
