import type { KubeObject } from './kube-object.js';
import { isRecord } from './json-value.js';
import { ALL_VERBS, type PrinterColumn, type ResourceSchema, type ResourceType } from './resource-type.js';

interface CrdVersion {
  name: string;
  served?: boolean;
  storage?: boolean;
  schema?: { openAPIV3Schema?: ResourceSchema };
  subresources?: { status?: unknown; scale?: unknown };
  additionalPrinterColumns?: PrinterColumn[];
}

export interface CrdSpec {
  group: string;
  scope: 'Namespaced' | 'Cluster';
  names: {
    kind: string;
    plural: string;
    singular?: string;
    listKind?: string;
    shortNames?: string[];
    categories?: string[];
  };
  versions: CrdVersion[];
}

export function crdSpec(crd: KubeObject): CrdSpec {
  return crd.spec as CrdSpec;
}

/** The names a CRD is served under, with kube's defaults filled in (`status.acceptedNames`). */
export function acceptedNames(spec: CrdSpec): Required<CrdSpec['names']> {
  return {
    kind: spec.names.kind,
    plural: spec.names.plural,
    singular: spec.names.singular ?? spec.names.kind.toLowerCase(),
    listKind: spec.names.listKind ?? `${spec.names.kind}List`,
    shortNames: spec.names.shortNames ?? [],
    categories: spec.names.categories ?? [],
  };
}

/** The served resource a (validated) CRD defines. */
export function resourceTypeFromCrd(crd: KubeObject): ResourceType {
  const spec = crdSpec(crd);
  const names = acceptedNames(spec);
  const served = spec.versions.filter((v) => v.served !== false);
  // The storage version is listed first so that it is the one discovery prefers.
  served.sort((a, b) => Number(b.storage === true) - Number(a.storage === true));
  const withStatus = served.some((v) => isRecord(v.subresources?.status));
  return {
    group: spec.group,
    versions: served.map((v) => v.name),
    kind: names.kind,
    listKind: names.listKind,
    plural: names.plural,
    singular: names.singular,
    namespaced: spec.scope === 'Namespaced',
    shortNames: names.shortNames,
    categories: names.categories,
    verbs: ALL_VERBS,
    subresources: withStatus ? ['status'] : [],
    generation: true,
    custom: {
      crdName: crd.metadata.name ?? '',
      schemas: new Map(served.map((v) => [v.name, v.schema?.openAPIV3Schema])),
      columns: new Map(served.map((v) => [v.name, v.additionalPrinterColumns ?? []])),
    },
  };
}
