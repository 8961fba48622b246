import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

import { FailedPreconditionError, NotFoundError, UnavailableError } from '@noderings/domain';

import type { SecretBox } from '../../crypto/secret-box.js';
import { hashToken } from '../../crypto/opaque-token.js';
import type { VirtualMachineRepository } from '../virtual-machines/index.js';
import type { ConsoleSessionState, VmConsoleRepository } from './vm-console.repository.js';

/** How long a console request waits for the operator's answer by default. */
const DEFAULT_WAIT_MS = 15_000;
const DEFAULT_POLL_MS = 100;
const TOKEN_BYTES = 32;
/** Recognisable by secret scanners, like the other tokens (crypto/opaque-token.ts). */
const TOKEN_PREFIX = 'nrc';

/** The sealed secrets of a console session open only as that session's. */
export function consoleSecretAssociatedData(sessionId: string, secret: 'ticket' | 'password'): string {
  return `vm-console-sessions/${sessionId}/${secret}`;
}

/** The VNCRequest of a session: `nr-{vmId}-vnc-{first 8 hex digits of the session id}`. */
function consoleObjectName(vmId: string, sessionId: string): string {
  return `nr-${vmId}-vnc-${sessionId.slice(0, 8)}`;
}

/** What a customer gets to open the console: shown once, never stored in clear. */
export interface ConsoleAccess {
  readonly sessionId: string;
  /** Opens the session at the relay together with `sessionId`; only its hash is kept. */
  readonly token: string;
  /** The RFB (VNC) password the session's VNC server asks for. */
  readonly password: string;
  readonly expiresAt: Date;
}

export interface VmConsoleOptions {
  /** How long a request waits for the operator to open the console. Default 15 s. */
  readonly waitMs?: number;
  /** How often the session's row is read meanwhile. Default 100 ms. */
  readonly pollMs?: number;
}

/**
 * Opens a VM's console: a session row the dispatcher turns into a VNCRequest in the VM's agent cluster,
 * answered once the operator has opened a Proxmox VNC proxy and status sync has sealed its ticket and RFB
 * password on the row. The row is read, not an in-process signal waited for: any replica may hold the
 * agent's watch.
 */
export class VmConsoleService {
  readonly #waitMs: number;
  readonly #pollMs: number;

  constructor(
    private readonly deps: {
      readonly vms: Pick<VirtualMachineRepository, 'find'>;
      readonly sessions: Pick<VmConsoleRepository, 'insert' | 'find' | 'withdraw'>;
      readonly secretBox: Pick<SecretBox, 'open'>;
      readonly newId: () => string;
      /** Told after a new session: the dispatcher looks at once instead of at its next poll. */
      readonly changed: () => void;
      readonly options?: VmConsoleOptions;
    },
  ) {
    this.#waitMs = positive('waitMs', deps.options?.waitMs ?? DEFAULT_WAIT_MS);
    this.#pollMs = positive('pollMs', deps.options?.pollMs ?? DEFAULT_POLL_MS);
  }

  async open(clientOrganizationId: string, vmId: string): Promise<ConsoleAccess> {
    const vm = await this.deps.vms.find({ clientOrganizationId }, vmId);
    if (vm === undefined) throw NotFoundError.of('Virtual machine', vmId);
    if (vm.desiredState === 'ABSENT')
      throw new FailedPreconditionError(`Virtual machine ${vmId} is being deleted.`);
    if (vm.observedPowerState !== 'Running')
      throw new FailedPreconditionError(
        `Virtual machine ${vmId} is not running (${vm.observedPowerState === '' ? 'not provisioned yet' : vm.observedPowerState}): start it before opening its console.`,
      );
    const id = this.deps.newId();
    const token = `${TOKEN_PREFIX}_${randomBytes(TOKEN_BYTES).toString('base64url')}`;
    await this.deps.sessions.insert({
      id,
      vmId,
      clientOrganizationId,
      agentId: vm.agentId,
      objectName: consoleObjectName(vmId, id),
      tokenHash: hashToken(token),
    });
    this.deps.changed();
    try {
      const answered = await this.#answer(id);
      return {
        sessionId: id,
        token,
        password: this.deps.secretBox.open(answered.password, consoleSecretAssociatedData(id, 'password')),
        expiresAt: answered.expiresAt,
      };
    } catch (e: unknown) {
      // Nobody will use this session: its VNCRequest goes now rather than at the sweep.
      await this.deps.sessions.withdraw(id);
      this.deps.changed();
      throw e;
    }
  }

  /** Waits for the operator's answer, or for a reason there will be none. */
  async #answer(id: string): Promise<{ password: string; expiresAt: Date }> {
    const deadline = performance.now() + this.#waitMs;
    for (;;) {
      const session = await this.deps.sessions.find(id);
      if (session === undefined) throw new Error(`console session ${id} vanished`);
      const answer = answerOf(session);
      if (answer !== undefined) return answer;
      refuseIfFailed(session);
      if (performance.now() >= deadline)
        throw new UnavailableError(
          `The provider's agent did not open the console within ${String(this.#waitMs / 1000)} s; try again.`,
        );
      await sleep(this.#pollMs);
    }
  }
}

function answerOf(session: ConsoleSessionState): { password: string; expiresAt: Date } | undefined {
  const { phase, passwordCiphertext, expiresAt } = session;
  if (phase !== 'Ready' || passwordCiphertext === null || expiresAt === null) return undefined;
  return { password: passwordCiphertext, expiresAt };
}

/** The operator refused (the guest is not running, say), or the agent cluster cannot be reached. */
function refuseIfFailed(session: ConsoleSessionState): void {
  if (session.phase === 'Failed')
    throw new FailedPreconditionError(`The console could not be opened: ${session.message}`);
  if (session.phase === 'Expired' || session.finished)
    throw new UnavailableError('The console session ended before it could be used; try again.');
  if (session.dispatchError !== '')
    throw new UnavailableError(`The provider's agent cannot be reached: ${session.dispatchError}`);
}

function positive(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0)
    throw new RangeError(`VmConsoleService option ${name} must be a positive number, not ${String(value)}`);
  return value;
}
