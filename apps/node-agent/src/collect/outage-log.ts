import type { KubeletSource } from './kubelet-collector.js';

export interface OutageLogLine {
  level: 'warn' | 'info';
  message: string;
}

/** While an outage lasts, at most one warning per this period. */
const REPEAT_WARNING_MS = 10 * 60 * 1000;

const ENDPOINTS: Record<KubeletSource, string> = {
  summary: '/stats/summary',
  cadvisor: '/metrics/cadvisor',
  pods: '/pods',
};

const CONSEQUENCES: Record<KubeletSource, string> = {
  summary: 'node, pod and container CPU, memory, network and filesystem series are not sent',
  cadvisor:
    'CPU throttling, OOM and disk I/O series are not sent; node CPU usage uses the last known core count',
  pods:
    'pods first seen now are sent without workload labels, and kubelet_pods, container_restarts_total and ' +
    'container_waiting are repeated from the last answer for two intervals, then stop until /pods answers',
};

/**
 * Decides what to log about one kubelet endpoint, tick after tick: a warning when an outage starts, then at
 * most one every 10 minutes while it lasts, and an info line when the endpoint answers again.
 */
export class OutageLog {
  private outageStartMs: number | undefined;
  private lastWarningMs = 0;

  constructor(private readonly source: KubeletSource) {}

  observe(ok: boolean, nowMs: number, error?: string): OutageLogLine | undefined {
    const endpoint = `kubelet ${ENDPOINTS[this.source]}`;
    if (ok) {
      if (this.outageStartMs === undefined) return undefined;
      const lasted = formatDuration(nowMs - this.outageStartMs);
      this.outageStartMs = undefined;
      return { level: 'info', message: `${endpoint} answers again after failing for ${lasted}` };
    }
    const reason = error ?? 'unknown error';
    const consequence = CONSEQUENCES[this.source];
    if (this.outageStartMs === undefined) {
      this.outageStartMs = nowMs;
      this.lastWarningMs = nowMs;
      return { level: 'warn', message: `${endpoint} failed: ${reason}; ${consequence}` };
    }
    if (nowMs - this.lastWarningMs < REPEAT_WARNING_MS) return undefined;
    this.lastWarningMs = nowMs;
    const lasting = formatDuration(nowMs - this.outageStartMs);
    return {
      level: 'warn',
      message: `${endpoint} has been failing for ${lasting}: ${reason}; ${consequence}`,
    };
  }
}

/** `45s`, `12m 30s`, `2h 5m`. */
function formatDuration(ms: number): string {
  const totalSeconds = Math.max(0, Math.round(ms / 1000));
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  if (hours > 0) return minutes > 0 ? `${hours}h ${minutes}m` : `${hours}h`;
  if (minutes > 0) return seconds > 0 ? `${minutes}m ${seconds}s` : `${minutes}m`;
  return `${seconds}s`;
}
