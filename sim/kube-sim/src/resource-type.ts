import type { validateCustomResource } from './schema/index.js';

/** The OpenAPI v3 schema of one version of a custom resource, as the schema module takes it. */
export type ResourceSchema = Parameters<typeof validateCustomResource>[0];

export interface PrinterColumn {
  name: string;
  type: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath: string;
}

/** One served resource (a plural under a group), built in or defined by a CRD. */
export interface ResourceType {
  group: string;
  /** Served versions, the preferred (storage) one first. */
  versions: string[];
  kind: string;
  listKind: string;
  plural: string;
  singular: string;
  namespaced: boolean;
  shortNames: string[];
  categories: string[];
  verbs: string[];
  /** Subresources beyond the object itself, e.g. `status` or `token`. */
  subresources: string[];
  /** Set for custom resources, keyed by version; the CRD's name too. */
  custom?: {
    crdName: string;
    schemas: Map<string, ResourceSchema | undefined>;
    columns: Map<string, PrinterColumn[]>;
  };
  /** Resources that are answered by a handler rather than stored (TokenRequest, SelfSubjectAccessReview). */
  virtual?: boolean;
  /** Whether `metadata.generation` is maintained (custom resources and CRDs, as in kube). */
  generation: boolean;
}

/** `group/plural`: the key objects are stored under, the same for every version. */
export function resourceKey(group: string, plural: string): string {
  return `${group}/${plural}`;
}

export function apiVersionOf(group: string, version: string): string {
  return group ? `${group}/${version}` : version;
}

export const ALL_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

/** How errors name the resource: its plural and group. */
export function refOf(type: ResourceType): { group: string; resource: string } {
  return { group: type.group, resource: type.plural };
}
