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
 * Which of seed 001's ten phases each of ours covers (ADR 0029). Liqo, its outbound peering and namespace
 * offloading have none: the control plane reaches the cluster through the uploaded kubeconfig.
 */
export const SEED_PHASES: Readonly<Record<PhaseName, readonly string[]>> = {
  versions: ['versions and tools'],
  prechecks: ['prechecks'],
  agent: ['agent'],
  k3s: ['k3s'],
  calico: ['calico'],
  stack: ['operator_install'],
  inbound_peering: ['inbound_peering'],
  platform: [],
  verify: ['verify'],
};

/** Seed 001's phases with no counterpart here, for `nr cluster status`. */
export const SEED_PHASES_NOT_RUN = ['liqo', 'peering', 'offloading'] as const;
