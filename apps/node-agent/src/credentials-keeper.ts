import type { NatsCredentials } from '@noderings/fleet';
import type { Logger } from '@noderings/log';
import { isAborted, sleep } from '@noderings/retry';
import { type BackoffOptions, RetrySchedule } from '@noderings/retry';

import { requestCredentials } from './identity/credentials-client.js';

export interface CredentialsTiming {
  readonly retry: BackoffOptions;
  /** After a 410 the identity is gone; asking again now and then costs nothing. */
  readonly goneRetryMs: number;
  /** The soonest a refresh follows the last one, whatever the JWT's lifetime or an error says. */
  readonly minRefreshMs: number;
}

export const DEFAULT_CREDENTIALS_TIMING: CredentialsTiming = {
  retry: { baseMs: 2_000, maxMs: 120_000 },
  goneRetryMs: 30 * 60_000,
  minRefreshMs: 5_000,
};

export interface CredentialsKeeperOptions {
  readonly backendUrl: string;
  readonly agentId: string;
  readonly nkeySeed: string;
  readonly log: Logger;
  /** Credentials the enrollment answer carried, if any. */
  readonly initial?: NatsCredentials;
  readonly timing: CredentialsTiming;
  readonly now: () => Date;
}

/**
 * Keeps the agent's NATS user JWT fresh in memory: asks the control plane for a new one (signed with the
 * agent's key) at half the current one's lifetime, and at once after NATS refuses the current one. A 410
 * means the identity was released or re-bound to another agent: `gone` turns true and the agent stops
 * publishing, asking again only rarely.
 */
export class CredentialsKeeper {
  private credentials: NatsCredentials | undefined;
  private receivedAtMs = 0;
  private isGone = false;
  private forced = false;
  private wakeLoop: (() => void) | undefined;
  private readonly listeners: (() => void)[] = [];

  constructor(private readonly options: CredentialsKeeperOptions) {
    if (options.initial !== undefined) this.accept(options.initial);
  }

  get current(): NatsCredentials | undefined {
    return this.credentials;
  }

  /** True after the control plane answered 410 (and until it issues credentials again). */
  get gone(): boolean {
    return this.isGone;
  }

  /** The current JWT, for the NATS authenticator (empty before the first is issued). */
  jwt(): string {
    return this.credentials?.jwt ?? '';
  }

  /** Called after every change of the credentials or of `gone`. */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** Asks for a new JWT now (NATS refused the current one as expired or unauthorised). */
  refreshNow(reason: string): void {
    if (this.forced) return;
    this.options.log.info({ reason }, 'refreshing the NATS credentials');
    this.forced = true;
    this.wakeLoop?.();
  }

  /** Keeps the credentials fresh until the signal aborts. */
  async run(signal: AbortSignal): Promise<void> {
    const backoff = new RetrySchedule(this.options.timing.retry);
    while (!signal.aborted) {
      await this.waitForRefreshTime(signal);
      if (isAborted(signal)) return;
      this.forced = false;
      const outcome = await requestCredentials(
        this.options.backendUrl,
        { agentId: this.options.agentId, nkeySeed: this.options.nkeySeed },
        this.options.now(),
        signal,
      );
      if (isAborted(signal)) return;
      if (outcome.kind === 'issued') {
        backoff.reset();
        if (this.isGone)
          this.options.log.info('the control plane issues credentials again; publishing resumes');
        this.isGone = false;
        this.accept(outcome.nats);
        this.options.log.debug({ expiresAt: outcome.nats.expiresAt }, 'NATS credentials refreshed');
        this.notify();
      } else if (outcome.kind === 'gone') {
        if (!this.isGone) {
          this.options.log.error(
            {
              agentId: this.options.agentId,
              serverMessage: outcome.message,
              ...(outcome.code === undefined ? {} : { serverCode: outcome.code }),
            },
            'this identity was released or re-bound to another agent (410): publishing stops; the agent stays up and asks again rarely. Remove state.json from the data directory and restart to enroll anew.',
          );
        }
        this.isGone = true;
        this.notify();
        await this.sleep(this.options.timing.goneRetryMs, signal);
      } else {
        const waitMs = backoff.next();
        this.options.log.warn(
          {
            reason: outcome.reason,
            retryInSeconds: Math.round(waitMs / 1000),
          },
          'could not refresh the NATS credentials; retrying',
        );
        await this.sleep(waitMs, signal);
      }
    }
  }

  private accept(credentials: NatsCredentials): void {
    this.credentials = credentials;
    this.receivedAtMs = this.options.now().getTime();
  }

  private async waitForRefreshTime(signal: AbortSignal): Promise<void> {
    if (this.credentials === undefined || this.isGone) return;
    const expiresMs = Date.parse(this.credentials.expiresAt);
    const halfLife = (expiresMs - this.receivedAtMs) / 2;
    const dueMs = this.receivedAtMs + Math.max(halfLife, this.options.timing.minRefreshMs);
    const waitMs = dueMs - this.options.now().getTime();
    if (waitMs > 0) await this.sleep(waitMs, signal);
    // A forced refresh still waits out the minimum since the last one.
    const sinceLast = this.options.now().getTime() - this.receivedAtMs;
    if (this.forced && sinceLast < this.options.timing.minRefreshMs)
      await sleep(this.options.timing.minRefreshMs - sinceLast, signal);
  }

  /** Sleeps, cut short by `refreshNow`. */
  private async sleep(ms: number, signal: AbortSignal): Promise<void> {
    if (this.forced) return;
    const wake = new AbortController();
    this.wakeLoop = () => {
      wake.abort();
    };
    await sleep(ms, AbortSignal.any([signal, wake.signal]));
    this.wakeLoop = undefined;
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}
