import type { PodRegistry } from './pod-registry.js';
import type { Labels } from './sample.js';

/**
 * The label sets of one tick, built once per pod and container and shared by all of their samples:
 * `node` everywhere; `namespace` and `pod` on pod series, plus `container` on container series; and
 * `workload_kind` and `workload` on both once the pod's workload is known.
 */
export class SeriesLabels {
  readonly node: Labels;
  private readonly pods = new Map<string, Labels>();
  private readonly containers = new Map<string, Labels>();

  constructor(
    private readonly nodeName: string,
    private readonly registry: Pick<PodRegistry, 'workloadOf'>,
  ) {
    this.node = { node: nodeName };
  }

  /** Without a UID the pod has no known workload. */
  pod(uid: string | undefined, namespace: string, name: string): Labels {
    const key = uid ?? `${namespace}/${name}`;
    let labels = this.pods.get(key);
    if (labels === undefined) {
      const workload = uid === undefined ? undefined : this.registry.workloadOf(uid);
      labels =
        workload === undefined
          ? { node: this.nodeName, namespace, pod: name }
          : {
              node: this.nodeName,
              namespace,
              pod: name,
              workload_kind: workload.kind,
              workload: workload.name,
            };
      this.pods.set(key, labels);
    }
    return labels;
  }

  container(uid: string | undefined, namespace: string, pod: string, container: string): Labels {
    const key = `${uid ?? `${namespace}/${pod}`}/${container}`;
    let labels = this.containers.get(key);
    if (labels === undefined) {
      labels = { ...this.pod(uid, namespace, pod), container };
      this.containers.set(key, labels);
    }
    return labels;
  }
}
