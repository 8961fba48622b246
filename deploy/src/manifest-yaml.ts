import type { KubeObject } from '@noderings/kube';
import { stringify } from 'yaml';

/** One multi-document YAML stream, as `kubectl apply -f -` reads it. */
export function toYaml(objects: readonly KubeObject[]): string {
  return objects.map((o) => stringify(o, { lineWidth: 0 })).join('---\n');
}
