import { age } from './human-duration.js';
import type { KubeObject } from './kube-object.js';
import { displayValue, isRecord } from './json-value.js';
import type { ResourceType } from './resource-type.js';
import { evaluateJsonPath } from './schema/index.js';

interface ColumnDefinition {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

interface Column {
  definition: ColumnDefinition;
  cell: (object: KubeObject, now: Date) => unknown;
}

export type IncludeObject = 'None' | 'Metadata' | 'Object';

export interface Table {
  kind: 'Table';
  apiVersion: 'meta.k8s.io/v1';
  metadata: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  columnDefinitions: ColumnDefinition[];
  rows: { cells: unknown[]; object?: unknown }[];
}

/** Whether the client asked for `meta.k8s.io/v1` Table output, as kubectl get does. */
export function wantsTable(accept: string | undefined): boolean {
  return (accept ?? '').split(',').some((part) =>
    part
      .split(';')
      .map((p) => p.trim())
      .includes('as=Table'),
  );
}

function column(
  name: string,
  type: string,
  description: string,
  cell: Column['cell'],
  format = '',
  priority = 0,
): Column {
  return { definition: { name, type, format, description, priority }, cell };
}

const NAME = column(
  'Name',
  'string',
  'Name must be unique within a namespace.',
  (o) => o.metadata.name ?? '',
  'name',
);
const AGE = column(
  'Age',
  'string',
  'CreationTimestamp is a timestamp representing the server time when this object was created.',
  (o, now) => age(o.metadata.creationTimestamp, now),
);
const CREATED_AT = column(
  'Created At',
  'date',
  'CreationTimestamp is a timestamp representing the server time when this object was created.',
  (o) => o.metadata.creationTimestamp ?? '',
);

function field(object: KubeObject, ...path: string[]): unknown {
  let v: unknown = object;
  for (const p of path) v = isRecord(v) ? v[p] : undefined;
  return v;
}

function count(value: unknown): number {
  if (Array.isArray(value)) return value.length;
  return isRecord(value) ? Object.keys(value).length : 0;
}

const BUILTIN_COLUMNS: Record<string, Column[]> = {
  '/namespaces': [
    NAME,
    column('Status', 'string', 'The status of the namespace', (o) => field(o, 'status', 'phase') ?? ''),
    AGE,
  ],
  '/secrets': [
    NAME,
    column('Type', 'string', 'The type of the secret', (o) => o.type ?? ''),
    column('Data', 'string', 'The number of entries in the secret', (o) => count(o.data)),
    AGE,
  ],
  '/configmaps': [
    NAME,
    column(
      'Data',
      'string',
      'The number of entries in the config map',
      (o) => count(o.data) + count(o.binaryData),
    ),
    AGE,
  ],
  '/serviceaccounts': [
    NAME,
    column('Secrets', 'string', 'The number of secrets of the service account', (o) => count(o.secrets)),
    AGE,
  ],
  '/events': [
    column('Last Seen', 'string', 'The last time the event was seen', (o, now) =>
      age(o.lastTimestamp ?? o.eventTime ?? o.metadata.creationTimestamp, now),
    ),
    column('Type', 'string', 'The type of the event', (o) => o.type ?? ''),
    column('Reason', 'string', 'The reason of the event', (o) => o.reason ?? ''),
    column('Object', 'string', 'The object the event is about', (o) => {
      const kind = displayValue(field(o, 'involvedObject', 'kind') ?? '').toLowerCase();
      return `${kind}/${displayValue(field(o, 'involvedObject', 'name') ?? '')}`;
    }),
    column('Message', 'string', 'The message of the event', (o) => o.message ?? ''),
  ],
  'coordination.k8s.io/leases': [
    NAME,
    column('Holder', 'string', 'The holder of the lease', (o) => field(o, 'spec', 'holderIdentity') ?? ''),
    AGE,
  ],
  'rbac.authorization.k8s.io/roles': [NAME, CREATED_AT],
  'rbac.authorization.k8s.io/clusterroles': [NAME, CREATED_AT],
  'rbac.authorization.k8s.io/rolebindings': [NAME, roleColumn(), AGE],
  'rbac.authorization.k8s.io/clusterrolebindings': [NAME, roleColumn(), AGE],
  'apiextensions.k8s.io/customresourcedefinitions': [NAME, CREATED_AT],
};

function roleColumn(): Column {
  return column(
    'Role',
    'string',
    'The role the binding grants',
    (o) => `${String(field(o, 'roleRef', 'kind'))}/${String(field(o, 'roleRef', 'name'))}`,
  );
}

function customColumns(type: ResourceType, version: string): Column[] {
  const printer = type.custom?.columns.get(version) ?? [];
  if (printer.length === 0) return [NAME, AGE];
  return [
    NAME,
    ...printer.map((p) =>
      column(
        p.name,
        p.type,
        p.description ?? '',
        (o, now) => {
          const value = evaluateJsonPath(o, p.jsonPath);
          if (value === undefined || value === null) return null;
          return p.type === 'date' ? age(value, now) : value;
        },
        p.format ?? '',
        p.priority ?? 0,
      ),
    ),
  ];
}

function columnsOf(type: ResourceType, version: string): Column[] {
  if (type.custom) return customColumns(type, version);
  return BUILTIN_COLUMNS[`${type.group}/${type.plural}`] ?? [NAME, AGE];
}

/** Objects as a Table with the resource's columns; each row carries the object's metadata (or the object). */
export function toTable(
  type: ResourceType,
  version: string,
  objects: readonly KubeObject[],
  metadata: Table['metadata'],
  include: IncludeObject,
  now = new Date(),
): Table {
  const columns = columnsOf(type, version);
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata,
    columnDefinitions: columns.map((c) => c.definition),
    rows: objects.map((o) => ({
      cells: columns.map((c) => c.cell(o, now)),
      ...(include === 'None'
        ? {}
        : {
            object:
              include === 'Object'
                ? o
                : { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: o.metadata },
          }),
    })),
  };
}
