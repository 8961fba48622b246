import type { ClusterRole, ClusterRoleBinding, PolicyRule, RbacObjects, Subject } from './rbac-objects.js';

const RBAC_GROUP = 'rbac.authorization.k8s.io';
const BOOTSTRAP_LABELS = { 'kubernetes.io/bootstrapping': 'rbac-defaults' };
const AUTOUPDATE = { 'rbac.authorization.kubernetes.io/autoupdate': 'true' };
const READ = ['get', 'list', 'watch'];
const WRITE = ['create', 'delete', 'deletecollection', 'patch', 'update'];
const ALL_VERBS = [...READ, ...WRITE];
const AGGREGATE_TO = (role: string): string => `rbac.authorization.k8s.io/aggregate-to-${role}`;

/** What `view` reads: the namespaced workload objects, never secrets. */
const VIEWABLE: [string, string[]][] = [
  [
    '',
    [
      'configmaps',
      'endpoints',
      'persistentvolumeclaims',
      'persistentvolumeclaims/status',
      'pods',
      'pods/log',
      'pods/status',
      'replicationcontrollers',
      'replicationcontrollers/scale',
      'replicationcontrollers/status',
      'serviceaccounts',
      'services',
      'services/status',
      'bindings',
      'events',
      'limitranges',
      'namespaces',
      'namespaces/status',
      'resourcequotas',
      'resourcequotas/status',
    ],
  ],
  [
    'apps',
    [
      'controllerrevisions',
      'daemonsets',
      'daemonsets/status',
      'deployments',
      'deployments/scale',
      'deployments/status',
      'replicasets',
      'replicasets/scale',
      'replicasets/status',
      'statefulsets',
      'statefulsets/scale',
      'statefulsets/status',
    ],
  ],
  ['batch', ['cronjobs', 'cronjobs/status', 'jobs', 'jobs/status']],
  ['autoscaling', ['horizontalpodautoscalers', 'horizontalpodautoscalers/status']],
  ['policy', ['poddisruptionbudgets', 'poddisruptionbudgets/status']],
  ['networking.k8s.io', ['ingresses', 'ingresses/status', 'networkpolicies']],
  ['discovery.k8s.io', ['endpointslices']],
  ['coordination.k8s.io', ['leases']],
];

/** What `edit` may change: the viewable objects without their status, plus secrets and pod access. */
const EDITABLE: [string, string[]][] = VIEWABLE.map(([group, resources]) => [
  group,
  resources.filter(
    (r) =>
      !r.endsWith('/status') &&
      !['bindings', 'events', 'limitranges', 'namespaces', 'resourcequotas', 'pods/log'].includes(r),
  ),
]);

function rulesFor(table: [string, string[]][], verbs: string[]): PolicyRule[] {
  return table.map(([group, resources]) => ({ apiGroups: [group], resources, verbs }));
}

function clusterRole(name: string, rules: PolicyRule[], extra: Partial<ClusterRole> = {}): ClusterRole {
  return {
    metadata: { name, labels: { ...BOOTSTRAP_LABELS }, annotations: { ...AUTOUPDATE } },
    rules,
    ...extra,
  };
}

function aggregated(name: string, rules: PolicyRule[], aggregateInto: string[]): ClusterRole {
  const role = clusterRole(name, rules, {
    aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [AGGREGATE_TO(name)]: 'true' } }] },
  });
  for (const target of aggregateInto)
    role.metadata.labels = { ...role.metadata.labels, [AGGREGATE_TO(target)]: 'true' };
  return role;
}

function binding(name: string, role: string, subjects: Subject[]): ClusterRoleBinding {
  return {
    metadata: { name, labels: { ...BOOTSTRAP_LABELS }, annotations: { ...AUTOUPDATE } },
    roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: role },
    subjects,
  };
}

function group(name: string): Subject {
  return { kind: 'Group', apiGroup: RBAC_GROUP, name };
}

/**
 * The RBAC objects a fresh kube-apiserver creates: cluster-admin for system:masters, discovery and the
 * self-review APIs for every authenticated user, public health/version paths for everyone, and the
 * user-facing admin ⊇ edit ⊇ view roles (aggregating roles labelled `aggregate-to-<role>`).
 */
export function bootstrapRbac(): RbacObjects {
  const view = rulesFor(VIEWABLE, READ);
  const edit = [
    ...view,
    ...rulesFor(EDITABLE, WRITE),
    { apiGroups: [''], resources: ['secrets'], verbs: ALL_VERBS },
    {
      apiGroups: [''],
      resources: ['pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy', 'services/proxy'],
      verbs: ['create', 'get'],
    },
    { apiGroups: [''], resources: ['pods/eviction', 'serviceaccounts/token'], verbs: ['create'] },
  ];
  const admin = [
    ...edit,
    { apiGroups: [RBAC_GROUP], resources: ['rolebindings', 'roles'], verbs: ALL_VERBS },
    { apiGroups: ['authorization.k8s.io'], resources: ['localsubjectaccessreviews'], verbs: ['create'] },
  ];
  const clusterRoles: ClusterRole[] = [
    clusterRole('cluster-admin', [
      { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
      { nonResourceURLs: ['*'], verbs: ['*'] },
    ]),
    aggregated('admin', admin, []),
    aggregated('edit', edit, ['admin']),
    aggregated('view', view, ['edit', 'admin']),
    clusterRole('system:discovery', [
      {
        nonResourceURLs: [
          '/api',
          '/api/*',
          '/apis',
          '/apis/*',
          '/healthz',
          '/livez',
          '/openapi',
          '/openapi/*',
          '/readyz',
          '/version',
          '/version/',
        ],
        verbs: ['get'],
      },
    ]),
    clusterRole('system:basic-user', [
      {
        apiGroups: ['authorization.k8s.io'],
        resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'],
        verbs: ['create'],
      },
      { apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'], verbs: ['create'] },
    ]),
    clusterRole('system:public-info-viewer', [
      { nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'], verbs: ['get'] },
    ]),
  ];
  const clusterRoleBindings = [
    binding('cluster-admin', 'cluster-admin', [group('system:masters')]),
    binding('system:discovery', 'system:discovery', [group('system:authenticated')]),
    binding('system:basic-user', 'system:basic-user', [group('system:authenticated')]),
    binding('system:public-info-viewer', 'system:public-info-viewer', [
      group('system:authenticated'),
      group('system:unauthenticated'),
    ]),
  ];
  return { roles: [], clusterRoles, roleBindings: [], clusterRoleBindings };
}
