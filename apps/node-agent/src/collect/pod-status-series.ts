import { containerKey } from './container-key.js';
import type { ContainerStatus, Pod, PodList } from './kubelet-documents.js';
import type { Labels, Sample } from './sample.js';
import type { SeriesLabels } from './series-labels.js';

export type PodsSeriesState = 'fresh' | 'held' | 'stopped';

const POD_PHASES = ['Running', 'Pending', 'Succeeded', 'Failed', 'Unknown'] as const;
type PodPhase = (typeof POD_PHASES)[number];
const KNOWN_PHASES: ReadonlySet<string> = new Set(POD_PHASES);

interface SeriesValue {
  name: string;
  labels: Labels;
  value: number;
}

/**
 * The three series from /pods: `kubelet_pods{phase}`, `container_restarts_total` and `container_waiting`.
 * While /pods fails they are repeated from the last good answer for as long as it is recent enough, then
 * not sent at all until /pods answers again: stale values must not pass for current ones.
 *
 * `container_waiting` is 1 with the reason while a container waits; on the first answer in which it no
 * longer waits with that reason (it runs, waits for another reason, or is gone) it is sent once as 0 with
 * the old reason, so the series ends at 0 instead of lingering at 1.
 */
export class PodStatusSeries {
  private readonly phaseLabels: Record<PodPhase, Labels>;
  private lastValues: SeriesValue[] = [];
  private lastAnswerMs: number | undefined;
  /** The `container_waiting` labels of the containers waiting in the last answer, by container key. */
  private waiting = new Map<string, Labels>();

  constructor(
    nodeName: string,
    /** How old the last answer may be and still be repeated. */
    private readonly holdForMs: number,
  ) {
    this.phaseLabels = {
      Running: { node: nodeName, phase: 'Running' },
      Pending: { node: nodeName, phase: 'Pending' },
      Succeeded: { node: nodeName, phase: 'Succeeded' },
      Failed: { node: nodeName, phase: 'Failed' },
      Unknown: { node: nodeName, phase: 'Unknown' },
    };
  }

  /** The series from a good answer. */
  fromAnswer(list: PodList, nowMs: number, labels: SeriesLabels): Sample[] {
    const counts: Record<PodPhase, number> = { Running: 0, Pending: 0, Succeeded: 0, Failed: 0, Unknown: 0 };
    const values: SeriesValue[] = [];
    const waiting = new Map<string, Labels>();
    for (const pod of list.items) {
      const { phase } = pod.status;
      // A phase the agent does not know (or none) is reported as Unknown, so the phases still add up.
      counts[phase !== undefined && KNOWN_PHASES.has(phase) ? (phase as PodPhase) : 'Unknown']++;
      addContainers(pod, pod.status.containerStatuses, false, labels, values, waiting);
      addContainers(pod, pod.status.initContainerStatuses, true, labels, values, waiting);
    }
    for (const phase of POD_PHASES) {
      values.push({ name: 'kubelet_pods', labels: this.phaseLabels[phase], value: counts[phase] });
    }
    const samples = values.map(({ name, labels: seriesLabels, value }) => ({
      name,
      labels: seriesLabels,
      value,
      timestampMs: nowMs,
    }));
    for (const [key, before] of this.waiting) {
      if (waiting.get(key)?.reason !== before.reason) {
        samples.push({ name: 'container_waiting', labels: before, value: 0, timestampMs: nowMs });
      }
    }
    this.waiting = waiting;
    this.lastValues = values;
    this.lastAnswerMs = nowMs;
    return samples;
  }

  /** The series for a tick in which /pods failed. */
  withoutAnswer(nowMs: number): { state: 'held' | 'stopped'; samples: Sample[] } {
    if (this.lastAnswerMs === undefined || nowMs - this.lastAnswerMs > this.holdForMs) {
      return { state: 'stopped', samples: [] };
    }
    return {
      state: 'held',
      samples: this.lastValues.map(({ name, labels, value }) => ({
        name,
        labels,
        value,
        timestampMs: nowMs,
      })),
    };
  }
}

function addContainers(
  pod: Pod,
  statuses: readonly ContainerStatus[],
  init: boolean,
  labels: SeriesLabels,
  values: SeriesValue[],
  waiting: Map<string, Labels>,
): void {
  const { uid, namespace, name } = pod.metadata;
  for (const status of statuses) {
    const containerLabels = labels.container(uid, namespace, name, status.name);
    const seriesLabels = init ? { ...containerLabels, init: 'true' } : containerLabels;
    values.push({ name: 'container_restarts_total', labels: seriesLabels, value: status.restartCount });
    if (status.waitingReason === undefined) continue;
    // The kubelet always gives a reason; without one the series has no reason label rather than an empty one.
    const waitingLabels =
      status.waitingReason === '' ? seriesLabels : { ...seriesLabels, reason: status.waitingReason };
    waiting.set(containerKey(uid, status.name), waitingLabels);
    values.push({ name: 'container_waiting', labels: waitingLabels, value: 1 });
  }
}
