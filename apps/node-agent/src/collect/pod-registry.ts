import { AgingMap } from './aging-map.js';
import type { Pod, PodReference } from './kubelet-documents.js';
import { resolveWorkload } from './workload.js';
import type { Workload } from './workload.js';

interface KnownPod {
  /** Undefined until the pod is seen in /pods. */
  workload: Workload | undefined;
}

/**
 * The pods the agent has seen in /stats/summary or /pods, by UID, with the workload each belongs to. A pod's
 * workload is resolved from its first /pods appearance and never changes afterwards, so its series keep the
 * same labels through /pods outages; a pod is forgotten after some rounds absent from both documents.
 */
export class PodRegistry {
  private readonly pods: AgingMap<KnownPod>;
  /** `namespace/name` to UID, for cAdvisor rows whose cgroup path carries no UID. */
  private readonly uids: AgingMap<string>;

  constructor(idleRoundsBeforeForgetting: number) {
    this.pods = new AgingMap(idleRoundsBeforeForgetting);
    this.uids = new AgingMap(idleRoundsBeforeForgetting);
  }

  observeSummaryPod(ref: PodReference): void {
    this.pods.use(ref.uid, () => ({ workload: undefined }));
    this.uids.set(`${ref.namespace}/${ref.name}`, ref.uid);
  }

  observePodListItem(pod: Pod): void {
    const { uid, namespace, name } = pod.metadata;
    const known = this.pods.use(uid, () => ({ workload: undefined }));
    known.workload ??= resolveWorkload(pod);
    this.uids.set(`${namespace}/${name}`, uid);
  }

  workloadOf(uid: string): Workload | undefined {
    return this.pods.peek(uid)?.workload;
  }

  uidOf(namespace: string, name: string): string | undefined {
    return this.uids.peek(`${namespace}/${name}`);
  }

  endRound(): void {
    this.pods.endRound();
    this.uids.endRound();
  }
}
