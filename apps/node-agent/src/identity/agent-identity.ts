import { join } from 'node:path';

import type { EnrollResponse, HostSignals } from '@noderings/fleet';
import { createUser } from '@nats-io/nkeys';
import type { Logger } from '@noderings/log';
import { isAborted, sleep } from '@noderings/retry';
import { type BackoffOptions, RetrySchedule } from '@noderings/retry';

import { AgentError } from '../agent-error.js';
import type { NodeAgentType } from '../config.js';
import {
  type AgentState,
  type EnrolledState,
  STATE_VERSION,
  isEnrolled,
  publicKeyOf,
} from './agent-state.js';
import { requestEnrollment } from './enrollment-client.js';
import { differingHostSignal } from './host-signals.js';
import { STATE_FILE, moveStateFileAside, readStateFile, writeStateFile } from './state-file.js';

/** Who this agent is configured to be, on this host. */
export interface AgentSelf {
  readonly dataDir: string;
  readonly agentType: NodeAgentType;
  readonly name: string;
  readonly hostSignals: HostSignals;
}

/** The identity found in (or prepared for) the data directory. */
export type LoadedIdentity =
  | { readonly kind: 'enrolled'; readonly state: EnrolledState }
  /** A pending state, on disk already: enroll with its key. */
  | { readonly kind: 'pending'; readonly state: AgentState };

const REMEDY =
  "Give each agent its own data directory: start the host agent with --data-dir (e.g. /var/lib/proxima-agent-host), or move the DaemonSet pod's host path (nodeAgent.hostDataDir in the Helm chart, the hostPath volume of the DaemonSet, e.g. /var/lib/proxima-node-agent).";

/**
 * The identity of the data directory. Adopts a state file of this agent type made on this host; refuses
 * (IDENTITY_CONFLICT) one of another type or another host, leaving it untouched; moves an unreadable one
 * aside; otherwise writes a pending state with a fresh key, so that enrolling can resume after a crash.
 */
export async function loadIdentity(self: AgentSelf, log: Logger, now: Date): Promise<LoadedIdentity> {
  const file = join(self.dataDir, STATE_FILE);
  const content = await readStateFile(self.dataDir);
  if (content.kind === 'found') {
    checkOwnership(content.state, self, file);
    if (content.state.name !== self.name) {
      log.info(
        {
          enrolledName: content.state.name,
          configuredName: self.name,
        },
        'the state file names this agent differently from its configuration; keeping the enrolled identity',
      );
    }
    return isEnrolled(content.state)
      ? { kind: 'enrolled', state: content.state }
      : { kind: 'pending', state: { ...content.state, name: self.name } };
  }
  if (content.kind === 'invalid') {
    const aside = await moveStateFileAside(self.dataDir, now);
    log.warn(
      {
        reason: content.reason,
        movedTo: aside,
      },
      'the state file is unreadable; moved it aside and enrolling anew',
    );
  }
  const pending: AgentState = {
    version: STATE_VERSION,
    agentType: self.agentType,
    name: self.name,
    nkeySeed: new TextDecoder().decode(createUser().getSeed()),
    hostSignals: self.hostSignals,
  };
  await writeStateFile(self.dataDir, pending);
  return { kind: 'pending', state: pending };
}

function checkOwnership(state: AgentState, self: AgentSelf, file: string): void {
  const who = `a ${state.agentType} agent named '${state.name}'${state.agentId === undefined ? ' (still enrolling)' : ` (agent id ${state.agentId})`}`;
  if (state.agentType !== self.agentType) {
    throw new AgentError(
      'IDENTITY_CONFLICT',
      `${file} holds the identity of another agent: ${who}, while this agent runs as ${self.agentType}. Two agents sharing one data directory would report as one. ${REMEDY} The file was left untouched.`,
    );
  }
  const differing = differingHostSignal(state.hostSignals, self.hostSignals);
  if (differing !== undefined) {
    throw new AgentError(
      'IDENTITY_CONFLICT',
      `${file} holds the identity of an agent of another host: ${who}, whose ${differing.signal} is ${differing.stored} while this host's is ${differing.current} (was the directory copied or shared?). ${REMEDY} The file was left untouched.`,
    );
  }
}

export interface EnrollTiming {
  /** After a 409: from about 15 s up to 5 min. */
  readonly conflict: BackoffOptions;
  /** After no answer, a 5xx or a 429. */
  readonly retry: BackoffOptions;
}

export const DEFAULT_ENROLL_TIMING: EnrollTiming = {
  conflict: { baseMs: 15_000, maxMs: 300_000 },
  retry: { baseMs: 2_000, maxMs: 300_000 },
};

export interface EnrollInput {
  readonly backendUrl: string;
  readonly installToken: string;
  readonly version: string;
  readonly dataDir: string;
  readonly log: Logger;
  readonly timing: EnrollTiming;
  readonly signal: AbortSignal;
  readonly now: () => Date;
}

/**
 * Enrolls the pending identity until the control plane accepts it, then writes the final state. Retries
 * a 409 (the name is taken) and transient failures for as long as the process runs; a refusal of the
 * install token or the request is ENROLLMENT_REJECTED. Undefined when aborted first.
 */
export async function enrollUntilDone(
  pending: AgentState,
  input: EnrollInput,
): Promise<{ readonly state: EnrolledState; readonly response: EnrollResponse } | undefined> {
  const conflictBackoff = new RetrySchedule(input.timing.conflict);
  const retryBackoff = new RetrySchedule(input.timing.retry);
  const request = {
    agentType: pending.agentType,
    name: pending.name,
    version: input.version,
    publicKey: publicKeyOf(pending.nkeySeed),
    hostSignals: pending.hostSignals,
  };
  for (let attempt = 1; !input.signal.aborted; attempt++) {
    const outcome = await requestEnrollment(input.backendUrl, input.installToken, request, input.signal);
    if (isAborted(input.signal)) return undefined;
    let waitMs: number;
    switch (outcome.kind) {
      case 'enrolled': {
        const state: EnrolledState = {
          ...pending,
          name: outcome.response.name,
          agentId: outcome.response.agentId,
          environmentId: outcome.response.environmentId,
          enrolledAt: input.now().toISOString(),
        };
        await writeStateFile(input.dataDir, state);
        input.log.info(
          {
            agentId: state.agentId,
            environmentId: state.environmentId,
            name: state.name,
            agentType: state.agentType,
          },
          outcome.response.rebound ? 'enrolled, re-bound onto the quiet record of this host' : 'enrolled',
        );
        return { state, response: outcome.response };
      }
      case 'conflict':
        waitMs = conflictBackoff.next();
        input.log.warn(
          {
            attempt,
            name: request.name,
            agentType: request.agentType,
            serverMessage: outcome.message,
            ...(outcome.code === undefined ? {} : { serverCode: outcome.code }),
            retryInSeconds: Math.round(waitMs / 1000),
            hint: 'if the old agent is gone for good, free its name with POST /api/v1/fleet/agents/{agentID}/release-identity; re-binding onto a record quiet for five minutes needs a host signal (host root mount)',
          },
          'enrollment refused: the name is taken by another agent (409); retrying',
        );
        break;
      case 'retry':
        waitMs = Math.max(retryBackoff.next(), outcome.retryAfterMs ?? 0);
        input.log.warn(
          {
            attempt,
            reason: outcome.reason,
            retryInSeconds: Math.round(waitMs / 1000),
          },
          'enrollment failed; retrying',
        );
        break;
      case 'rejected':
        throw new AgentError('ENROLLMENT_REJECTED', outcome.message);
    }
    await sleep(waitMs, input.signal);
  }
  return undefined;
}
