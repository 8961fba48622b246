import { isDeepStrictEqual } from 'node:util';
import { isAborted, sleep } from '@noderings/retry';
import type { Lease, LeaseSpec } from './core-types.js';
import { KubeAlreadyExistsError, KubeConflictError, KubeNotFoundError } from './kube-api-error.js';
import type { ResourceClient } from './resource-client.js';

export interface LeaderElectionOptions {
  leases: ResourceClient<Lease>;
  namespace: string;
  /** The Lease's name, shared by all replicas that compete. */
  name: string;
  /** Unique per replica, e.g. the pod name plus a random suffix. */
  identity: string;
  /** How long others wait after the last renewal they saw before taking over. Default 15 s. */
  leaseDurationMs?: number;
  /** The leader steps down if it could not renew for this long; less than the lease. Default 10 s. */
  renewDeadlineMs?: number;
  /** How often to try to acquire or renew. Default 2 s. */
  retryPeriodMs?: number;
  /**
   * Runs while this replica leads: start the controllers here. `signal` aborts when leadership ends;
   * the elector waits for the returned promise before releasing the Lease.
   */
  onStartedLeading: (signal: AbortSignal) => Promise<void>;
  onStoppedLeading?: () => void;
  /** Called whenever the observed holder changes (including to this replica). */
  onNewLeader?: (identity: string) => void;
  onError?: (error: unknown) => void;
  now?: () => number;
}

/**
 * Leader election on a coordination.k8s.io/v1 Lease, after client-go: every write carries the Lease's
 * resourceVersion, so of two replicas racing only one wins. A Lease counts as expired when its record
 * has not changed for leaseDuration by *our* clock, so clock skew between replicas does not matter.
 */
export class LeaderElector {
  private readonly leaseDurationMs: number;
  private readonly renewDeadlineMs: number;
  private readonly retryPeriodMs: number;
  private readonly now: () => number;
  private observed: { spec: LeaseSpec | undefined; at: number } | undefined;
  private lastHolder: string | undefined;
  private leading = false;

  constructor(private readonly options: LeaderElectionOptions) {
    this.leaseDurationMs = options.leaseDurationMs ?? 15_000;
    this.renewDeadlineMs = options.renewDeadlineMs ?? 10_000;
    this.retryPeriodMs = options.retryPeriodMs ?? 2_000;
    this.now = options.now ?? Date.now;
    if (!(this.leaseDurationMs > this.renewDeadlineMs && this.renewDeadlineMs > this.retryPeriodMs)) {
      throw new RangeError('Leader election needs leaseDuration > renewDeadline > retryPeriod');
    }
    if (options.identity === '') throw new TypeError('Leader election needs a non-empty identity');
  }

  isLeader(): boolean {
    return this.leading;
  }

  /**
   * Competes for the Lease until `signal` aborts. Each time it wins it runs `onStartedLeading` until
   * leadership is lost or `signal` aborts; on abort it releases the Lease so another replica takes over
   * at once.
   */
  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      if (await this.tryAcquireOrRenew(signal)) {
        await this.lead(signal);
      } else {
        await sleep(this.jittered(this.retryPeriodMs), signal);
      }
    }
  }

  private async lead(signal: AbortSignal): Promise<void> {
    this.leading = true;
    const leadership = new AbortController();
    const stopLeading = (): void => {
      leadership.abort();
    };
    signal.addEventListener('abort', stopLeading, { once: true });
    const work = this.options.onStartedLeading(leadership.signal).catch((e: unknown) => {
      this.options.onError?.(e);
    });
    let lastRenewal = this.now();
    while (!leadership.signal.aborted) {
      await sleep(this.retryPeriodMs, leadership.signal);
      if (isAborted(leadership.signal)) break;
      if (await this.tryAcquireOrRenew(leadership.signal)) {
        lastRenewal = this.now();
      } else if (
        this.lastHolder !== this.options.identity ||
        this.now() - lastRenewal > this.renewDeadlineMs
      ) {
        leadership.abort();
      }
    }
    signal.removeEventListener('abort', stopLeading);
    await work;
    this.leading = false;
    this.options.onStoppedLeading?.();
    if (signal.aborted) await this.release();
  }

  private async tryAcquireOrRenew(outer: AbortSignal): Promise<boolean> {
    const { leases, namespace, name, identity } = this.options;
    const now = this.now();
    // A hung request must not outlive the renew deadline, or a leader could not step down in time.
    const signal = AbortSignal.any([outer, AbortSignal.timeout(this.renewDeadlineMs)]);
    try {
      const lease = await leases.find({ namespace, name }, signal);
      if (lease === undefined) {
        await leases.create({ metadata: { namespace, name }, spec: this.record(undefined, now) }, { signal });
        this.observe(this.record(undefined, now), now);
        return true;
      }
      const spec = lease.spec ?? {};
      this.observe(spec, now);
      const holder = spec.holderIdentity ?? '';
      if (holder !== '' && holder !== identity && !this.expired(now)) return false;
      const next = this.record(spec, now);
      const updated = await leases.replace({ ...lease, spec: next }, { signal });
      this.observe(updated.spec ?? next, now);
      return true;
    } catch (e: unknown) {
      // Losing a race is expected; anything else is worth reporting, and both mean "not now".
      const expected = outer.aborted || e instanceof KubeConflictError || e instanceof KubeAlreadyExistsError;
      if (!expected) this.options.onError?.(e);
      return false;
    }
  }

  private record(current: LeaseSpec | undefined, now: number): LeaseSpec {
    const { identity } = this.options;
    const renewing = current?.holderIdentity === identity;
    const time = microTime(now);
    return {
      holderIdentity: identity,
      leaseDurationSeconds: Math.ceil(this.leaseDurationMs / 1000),
      acquireTime: renewing ? (current.acquireTime ?? time) : time,
      renewTime: time,
      leaseTransitions: (current?.leaseTransitions ?? 0) + (renewing || current === undefined ? 0 : 1),
    };
  }

  private observe(spec: LeaseSpec, now: number): void {
    if (this.observed === undefined || !isDeepStrictEqual(this.observed.spec, spec)) {
      this.observed = { spec, at: now };
    }
    const holder = spec.holderIdentity ?? '';
    if (holder !== this.lastHolder) {
      this.lastHolder = holder;
      if (holder !== '') this.options.onNewLeader?.(holder);
    }
  }

  private expired(now: number): boolean {
    const seconds = this.observed?.spec?.leaseDurationSeconds;
    const durationMs = seconds === undefined || seconds === null ? this.leaseDurationMs : seconds * 1000;
    return this.observed === undefined || now - this.observed.at > durationMs;
  }

  /** Gives the Lease up (holder cleared, one-second duration) so a follower need not wait it out. */
  private async release(): Promise<void> {
    const { leases, namespace, name, identity } = this.options;
    try {
      const lease = await leases.get({ namespace, name });
      if (lease.spec?.holderIdentity !== identity) return;
      const time = microTime(this.now());
      await leases.replace({
        ...lease,
        spec: {
          ...lease.spec,
          holderIdentity: '',
          leaseDurationSeconds: 1,
          acquireTime: time,
          renewTime: time,
        },
      });
    } catch (e: unknown) {
      if (!(e instanceof KubeNotFoundError || e instanceof KubeConflictError)) this.options.onError?.(e);
    }
  }

  private jittered(ms: number): number {
    return ms * (1 + Math.random() * 0.2);
  }
}

/** Lease times are MicroTime: RFC 3339 with exactly six fractional digits. */
function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}
