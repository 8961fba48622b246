import type { KubeObject } from './kube-object.js';
import { badRequest } from './status-error.js';

interface FieldRequirement {
  field: 'metadata.name' | 'metadata.namespace';
  equal: boolean;
  value: string;
}

const SUPPORTED = new Set(['metadata.name', 'metadata.namespace']);

/** A parsed `fieldSelector`; kube-sim supports the fields every resource has: name and namespace. */
export class FieldSelector {
  private constructor(private readonly requirements: FieldRequirement[]) {}

  static parse(text: string | null | undefined): FieldSelector {
    if (!text) return new FieldSelector([]);
    return new FieldSelector(
      text.split(',').map((part) => {
        const m = /^\s*([^!=\s]+)\s*(==|=|!=)\s*(.*?)\s*$/.exec(part);
        if (!m) throw badRequest(`invalid selector: '${text}'; can't understand '${part}'`);
        const field = m[1] ?? '';
        if (!SUPPORTED.has(field)) throw badRequest(`field label not supported: ${field}`);
        return { field: field as FieldRequirement['field'], equal: m[2] !== '!=', value: m[3] ?? '' };
      }),
    );
  }

  matches(object: KubeObject): boolean {
    return this.requirements.every((r) => {
      const actual = (r.field === 'metadata.name' ? object.metadata.name : object.metadata.namespace) ?? '';
      return (actual === r.value) === r.equal;
    });
  }
}
