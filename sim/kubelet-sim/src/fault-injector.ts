/** The paths a test can make misbehave. */
export type KubeletPath = '/stats/summary' | '/metrics/cadvisor' | '/pods';

/** Answer with this status (and body), never answer, or answer late. */
export type KubeletFault = { status: number; body?: string } | { hang: true } | { delayMs: number };

const KUBELET_PATHS: readonly KubeletPath[] = ['/stats/summary', '/metrics/cadvisor', '/pods'];

export function isKubeletPath(path: string): path is KubeletPath {
  return (KUBELET_PATHS as readonly string[]).includes(path);
}

function validateFault(fault: KubeletFault): KubeletFault {
  if ('status' in fault) {
    if (!Number.isInteger(fault.status) || fault.status < 100 || fault.status > 599) {
      throw new Error(`a fault's status must be an HTTP status code, got ${fault.status}`);
    }
    return fault.body === undefined ? { status: fault.status } : { status: fault.status, body: fault.body };
  }
  if ('delayMs' in fault) {
    if (!Number.isFinite(fault.delayMs) || fault.delayMs < 0) {
      throw new Error(`a fault's delayMs must be a non-negative number, got ${fault.delayMs}`);
    }
    return { delayMs: fault.delayMs };
  }
  return { hang: true };
}

/** The faults set per path and the requests each path has had; hanging requests wait on a change. */
export class FaultInjector {
  private readonly faults = new Map<KubeletPath, KubeletFault>();
  private readonly counts = new Map<KubeletPath, number>();
  private readonly waiters = new Map<KubeletPath, Set<() => void>>();

  set(path: KubeletPath, fault: KubeletFault | undefined): void {
    if (!isKubeletPath(path))
      throw new Error(`faults apply to ${KUBELET_PATHS.join(', ')}, not ${String(path)}`);
    if (fault === undefined) this.faults.delete(path);
    else this.faults.set(path, validateFault(fault));
    const waiting = this.waiters.get(path);
    this.waiters.delete(path);
    for (const wake of waiting ?? []) wake();
  }

  get(path: KubeletPath): KubeletFault | undefined {
    return this.faults.get(path);
  }

  count(path: KubeletPath): void {
    this.counts.set(path, this.requestCount(path) + 1);
  }

  requestCount(path: KubeletPath): number {
    return this.counts.get(path) ?? 0;
  }

  /** Resolves when the fault on `path` is set or cleared, or when `signal` aborts. */
  changed(path: KubeletPath, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal.aborted) {
        resolve();
        return;
      }
      const waiting = this.waiters.get(path) ?? new Set<() => void>();
      this.waiters.set(path, waiting);
      const wake = (): void => {
        waiting.delete(wake);
        signal.removeEventListener('abort', wake);
        resolve();
      };
      waiting.add(wake);
      signal.addEventListener('abort', wake, { once: true });
    });
  }
}
