import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import type { KubeObject } from './kube-object.js';

/** A JSON Schema node of an `openAPIV3Schema`, as far as our CRDs use it. */
export interface JSONSchemaProps {
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  description?: string;
  properties?: Record<string, JSONSchemaProps>;
  items?: JSONSchemaProps;
  required?: string[];
  enum?: unknown[];
  default?: unknown;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-list-map-keys'?: string[];
}

export interface CustomResourceDefinitionVersion {
  name: string;
  served: boolean;
  storage: boolean;
  subresources?: { status?: Record<string, never> };
  additionalPrinterColumns?: { name: string; type: string; jsonPath: string; description?: string }[];
  schema: { openAPIV3Schema: JSONSchemaProps };
}

export interface CustomResourceDefinition extends KubeObject {
  spec: {
    group: string;
    scope: 'Namespaced' | 'Cluster';
    names: {
      kind: string;
      listKind?: string;
      plural: string;
      singular?: string;
      shortNames?: string[];
      categories?: string[];
    };
    versions: CustomResourceDefinitionVersion[];
  };
  status?: unknown;
}

/** The CRD files, in the order they should be applied. */
export const CRD_FILES = [
  'proxmoxvm.yaml',
  'vncrequest.yaml',
  'firewallruleset.yaml',
  'vmbackup.yaml',
  'vmsnapshot.yaml',
  'proxmoxinventory.yaml',
] as const;

/** Reads our six CRDs from `crds/` (the YAML is the source of truth) as parsed objects. */
export function loadCrds(): CustomResourceDefinition[] {
  return CRD_FILES.map((file) => parse(readFileSync(crdFileUrl(file), 'utf8')) as CustomResourceDefinition);
}

export function crdFileUrl(file: (typeof CRD_FILES)[number]): URL {
  return new URL(`../crds/${file}`, import.meta.url);
}

/** The served schema of `kind` at `version`. */
export function crdSchema(
  crds: readonly CustomResourceDefinition[],
  kind: string,
  version = 'v1alpha1',
): JSONSchemaProps {
  const crd = crds.find((c) => c.spec.names.kind === kind);
  const schema = crd?.spec.versions.find((v) => v.name === version)?.schema.openAPIV3Schema;
  if (schema === undefined) throw new TypeError(`No CRD schema for ${kind} ${version}`);
  return schema;
}
