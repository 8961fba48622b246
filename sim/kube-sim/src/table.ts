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
  '/services': [
    NAME,
    column('Type', 'string', 'The type of the service', (o) => field(o, 'spec', 'type') ?? ''),
    column(
      'Cluster-IP',
      'string',
      'The cluster IP of the service',
      (o) => field(o, 'spec', 'clusterIP') ?? '',
    ),
    column('External-IP', 'string', 'The external IPs of the service', externalIPs),
    column('Port(s)', 'string', 'The ports of the service', servicePorts),
    AGE,
    column(
      'Selector',
      'string',
      'The selector of the service',
      (o) => mapText(field(o, 'spec', 'selector')),
      '',
      1,
    ),
  ],
  '/nodes': [
    NAME,
    column('Status', 'string', 'The status of the node', nodeStatus),
    column('Roles', 'string', 'The roles of the node', nodeRoles),
    AGE,
    column('Version', 'string', 'The kubelet version of the node', (o) =>
      displayValue(field(o, 'status', 'nodeInfo', 'kubeletVersion') ?? ''),
    ),
  ],
  'apps/deployments': [
    NAME,
    column(
      'Ready',
      'string',
      'Ready pods of the desired ones',
      (o) => `${number(field(o, 'status', 'readyReplicas'))}/${number(field(o, 'spec', 'replicas'))}`,
    ),
    statusCount('Up-to-date', 'updatedReplicas', 'Pods running the newest template'),
    statusCount('Available', 'availableReplicas', 'Pods available to serve'),
    AGE,
    ...templateColumns(),
  ],
  'apps/daemonsets': [
    NAME,
    statusCount('Desired', 'desiredNumberScheduled', 'The number of nodes that should run the pod'),
    statusCount('Current', 'currentNumberScheduled', 'The number of nodes running the pod'),
    statusCount('Ready', 'numberReady', 'The number of nodes whose pod is ready'),
    statusCount('Up-to-date', 'updatedNumberScheduled', 'The number of nodes running the newest template'),
    statusCount('Available', 'numberAvailable', 'The number of nodes whose pod is available'),
    column('Node Selector', 'string', 'The node selector of the pod template', (o) =>
      mapText(field(o, 'spec', 'template', 'spec', 'nodeSelector')),
    ),
    AGE,
    ...templateColumns(),
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

function number(value: unknown): number {
  return typeof value === 'number' ? value : 0;
}

/** `<none>` for nothing, as kubectl's printers show an empty map or list. */
function mapText(value: unknown): string {
  const entries = isRecord(value) ? Object.entries(value) : [];
  return entries.length ? entries.map(([k, v]) => `${k}=${displayValue(v)}`).join(',') : '<none>';
}

function statusCount(name: string, key: string, description: string): Column {
  return column(name, 'integer', description, (o) => number(field(o, 'status', key)));
}

/** The wide columns of workloads: their containers, images and selector. */
function templateColumns(): Column[] {
  const containers = (o: KubeObject): Record<string, unknown>[] => {
    const list = field(o, 'spec', 'template', 'spec', 'containers');
    return Array.isArray(list) ? list.filter(isRecord) : [];
  };
  return [
    column(
      'Containers',
      'string',
      'The containers of the pod template',
      (o) =>
        containers(o)
          .map((c) => displayValue(c.name))
          .join(','),
      '',
      1,
    ),
    column(
      'Images',
      'string',
      'The images of the pod template',
      (o) =>
        containers(o)
          .map((c) => displayValue(c.image))
          .join(','),
      '',
      1,
    ),
    column(
      'Selector',
      'string',
      'The label selector',
      (o) => mapText(field(o, 'spec', 'selector', 'matchLabels')),
      '',
      1,
    ),
  ];
}

function externalIPs(o: KubeObject): string {
  const ingress = field(o, 'status', 'loadBalancer', 'ingress');
  const fromStatus = Array.isArray(ingress)
    ? ingress.filter(isRecord).map((i) => displayValue(i.ip ?? i.hostname))
    : [];
  const listed = field(o, 'spec', 'externalIPs');
  const ips = [...fromStatus, ...(Array.isArray(listed) ? listed.map(displayValue) : [])];
  if (ips.length > 0) return ips.join(',');
  const type = field(o, 'spec', 'type');
  if (type === 'ExternalName') return displayValue(field(o, 'spec', 'externalName'));
  return type === 'LoadBalancer' ? '<pending>' : '<none>';
}

function servicePorts(o: KubeObject): string {
  const ports = field(o, 'spec', 'ports');
  const list = Array.isArray(ports) ? ports.filter(isRecord) : [];
  if (list.length === 0) return '<none>';
  return list
    .map((p) => {
      const node = p.nodePort ? `:${displayValue(p.nodePort)}` : '';
      return `${displayValue(p.port)}${node}/${displayValue(p.protocol ?? 'TCP')}`;
    })
    .join(',');
}

function nodeStatus(o: KubeObject): string {
  const conditions = field(o, 'status', 'conditions');
  const ready = Array.isArray(conditions)
    ? conditions.filter(isRecord).find((c) => c.type === 'Ready')
    : undefined;
  let status = 'Unknown';
  if (ready?.status === 'True') status = 'Ready';
  else if (ready?.status === 'False') status = 'NotReady';
  return field(o, 'spec', 'unschedulable') === true ? `${status},SchedulingDisabled` : status;
}

const ROLE_LABEL = 'node-role.kubernetes.io/';

function nodeRoles(o: KubeObject): string {
  const roles = Object.keys(o.metadata.labels ?? {})
    .filter((k) => k.startsWith(ROLE_LABEL) && k.length > ROLE_LABEL.length)
    .map((k) => k.slice(ROLE_LABEL.length));
  return roles.length ? roles.sort().join(',') : '<none>';
}

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
