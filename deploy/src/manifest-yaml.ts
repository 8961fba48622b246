import type { KubeObject } from '@noderings/kube';
import { stringify } from 'yaml';

/**
 * One multi-document YAML stream, as `kubectl apply -f -` reads it. An object used twice (the labels of a
 * Deployment and of its pod template) is written out twice, not as an anchor and alias.
 */
export function toYaml(objects: readonly KubeObject[]): string {
  return objects.map((o) => stringify(o, { lineWidth: 0, aliasDuplicateObjects: false })).join('---\n');
}
