import { KubeConfig } from '@kubernetes/client-node';

/** Where a client's cluster address and credentials come from. */
export type KubeConfigSource =
  | { kubeconfigPath: string; context?: string }
  | { kubeconfigYaml: string; context?: string }
  /** The pod's service account (KUBERNETES_SERVICE_HOST/PORT and the mounted token and CA). */
  | { inCluster: true }
  | { kubeConfig: KubeConfig };

export function loadKubeConfig(source: KubeConfigSource): KubeConfig {
  if ('kubeConfig' in source) return source.kubeConfig;
  const kc = new KubeConfig();
  if ('inCluster' in source) {
    kc.loadFromCluster();
  } else if ('kubeconfigPath' in source) {
    kc.loadFromFile(source.kubeconfigPath);
  } else {
    kc.loadFromString(source.kubeconfigYaml);
  }
  if ('context' in source && source.context !== undefined) kc.setCurrentContext(source.context);
  if (kc.getCurrentCluster() === null) {
    throw new TypeError('The kubeconfig has no current cluster (set current-context or pass `context`)');
  }
  return kc;
}

/** The namespace of the current context, if it names one. */
export function contextNamespace(kc: KubeConfig): string | undefined {
  return kc.getContextObject(kc.getCurrentContext())?.namespace;
}
