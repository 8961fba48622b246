import { AGENT_TYPES, type AgentType, type HostSignals } from '@noderings/fleet';
import { fromSeed } from '@nats-io/nkeys';

/** The state file's format; a file of a later version was written by a newer agent. */
export const STATE_VERSION = 1;

/**
 * What `state.json` holds: the agent's identity. Before enrolling the agent writes it without `agentId`,
 * `environmentId` and `enrolledAt` (a pending state), so that a crash before the final write re-enrolls
 * with the same key.
 */
export interface AgentState {
  readonly version: typeof STATE_VERSION;
  readonly agentType: AgentType;
  readonly name: string;
  /** The private nkey seed (`SU…`); it never leaves the data directory. */
  readonly nkeySeed: string;
  readonly hostSignals: HostSignals;
  readonly agentId?: string;
  readonly environmentId?: string;
  readonly enrolledAt?: string;
}

export interface EnrolledState extends AgentState {
  readonly agentId: string;
  readonly environmentId: string;
  readonly enrolledAt: string;
}

export function isEnrolled(state: AgentState): state is EnrolledState {
  return state.agentId !== undefined && state.environmentId !== undefined && state.enrolledAt !== undefined;
}

/** The nkey public key (`U…`) of a seed. */
export function publicKeyOf(seed: string): string {
  return fromSeed(new TextEncoder().encode(seed)).getPublicKey();
}

/** The state a file's text describes, or why it describes none (a sentence fragment). */
export function parseAgentState(text: string): AgentState | { readonly invalid: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e: unknown) {
    return { invalid: `not JSON (${e instanceof Error ? e.message : String(e)})` };
  }
  if (!isRecord(value)) return { invalid: 'not a JSON object' };
  if (value.version !== STATE_VERSION) return { invalid: `unknown version ${JSON.stringify(value.version)}` };
  const agentType = AGENT_TYPES.find((t) => t === value.agentType);
  if (agentType === undefined) return { invalid: 'no known agentType' };
  if (typeof value.name !== 'string' || value.name === '') return { invalid: 'no name' };
  if (typeof value.nkeySeed !== 'string' || !isUserSeed(value.nkeySeed))
    return { invalid: 'no valid nkeySeed' };
  const hostSignals = readHostSignals(value.hostSignals);
  if (hostSignals === undefined) return { invalid: 'hostSignals is not an object of strings' };
  const enrolled = [value.agentId, value.environmentId, value.enrolledAt];
  const state: AgentState = {
    version: STATE_VERSION,
    agentType,
    name: value.name,
    nkeySeed: value.nkeySeed,
    hostSignals,
  };
  if (enrolled.every((v) => v === undefined)) return state;
  if (!enrolled.every((v) => typeof v === 'string' && v !== ''))
    return { invalid: 'agentId, environmentId and enrolledAt must be given together' };
  return {
    ...state,
    agentId: String(value.agentId),
    environmentId: String(value.environmentId),
    enrolledAt: String(value.enrolledAt),
  };
}

/** The version number a file claims, if any: a later one than ours was written by a newer agent. */
export function claimedVersion(text: string): number | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) && typeof value.version === 'number' ? value.version : undefined;
  } catch {
    return undefined;
  }
}

function readHostSignals(value: unknown): HostSignals | undefined {
  if (value === undefined) return {};
  if (!isRecord(value)) return undefined;
  const { machineId, systemUuid } = value;
  if (machineId !== undefined && typeof machineId !== 'string') return undefined;
  if (systemUuid !== undefined && typeof systemUuid !== 'string') return undefined;
  return {
    ...(machineId === undefined ? {} : { machineId }),
    ...(systemUuid === undefined ? {} : { systemUuid }),
  };
}

function isUserSeed(seed: string): boolean {
  if (!seed.startsWith('SU')) return false;
  try {
    publicKeyOf(seed);
    return true;
  } catch {
    return false;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
