/**
 * The OpenAPI v2 definitions of the built-in kinds kube-sim serves, under kube-apiserver's definition
 * names and with the fields of the Kubernetes 1.32 types, so that kubectl's client-side validation
 * (which it runs on `kind: List` documents) reports what it reports against a real server. Spec and
 * status parts kube-sim does not act on are left open (`type: object` with no properties), which the
 * validator accepts whatever they hold.
 */
export type SwaggerSchema = Record<string, unknown>;

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';
const CORE = 'io.k8s.api.core.v1';
const RBAC = 'io.k8s.api.rbac.v1';
const EXTENSIONS = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1';
const APPS = 'io.k8s.api.apps.v1';

export const OBJECT_META = `${META}.ObjectMeta`;
export const LIST_META = `${META}.ListMeta`;

const str: SwaggerSchema = { type: 'string' };
const bytes: SwaggerSchema = { type: 'string', format: 'byte' };
const bool: SwaggerSchema = { type: 'boolean' };
const int32: SwaggerSchema = { type: 'integer', format: 'int32' };
const int64: SwaggerSchema = { type: 'integer', format: 'int64' };
const open: SwaggerSchema = { type: 'object' };
const ref = (name: string): SwaggerSchema => ({ $ref: `#/definitions/${name}` });
const arr = (items: SwaggerSchema): SwaggerSchema => ({ type: 'array', items });
const map = (values: SwaggerSchema): SwaggerSchema => ({ type: 'object', additionalProperties: values });
const obj = (properties: Record<string, SwaggerSchema>, required?: string[]): SwaggerSchema => ({
  type: 'object',
  properties,
  ...(required ? { required } : {}),
});
/** A list that a strategic merge patch merges item by item, keyed by `key`. */
const keyed = (items: SwaggerSchema, key: string): SwaggerSchema => ({
  ...arr(items),
  'x-kubernetes-patch-merge-key': key,
  'x-kubernetes-patch-strategy': 'merge',
});
const time = ref(`${META}.Time`);
const intOrString = ref('io.k8s.apimachinery.pkg.util.intstr.IntOrString');
const quantity = ref('io.k8s.apimachinery.pkg.api.resource.Quantity');
const microTime = ref(`${META}.MicroTime`);

/** apiVersion, kind, metadata, then the kind's own fields. */
function kind(
  group: string,
  version: string,
  name: string,
  fields: Record<string, SwaggerSchema>,
  required?: string[],
): SwaggerSchema {
  return {
    ...obj({ apiVersion: str, kind: str, metadata: ref(OBJECT_META), ...fields }, required),
    'x-kubernetes-group-version-kind': [{ group, version, kind: name }],
  };
}

const condition = (extra: Record<string, SwaggerSchema> = {}): SwaggerSchema =>
  obj({ type: str, status: str, lastTransitionTime: time, reason: str, message: str, ...extra }, [
    'type',
    'status',
  ]);

/** Every built-in definition, keyed by its name in kube-apiserver's `/openapi/v2`. */
export function builtinDefinitions(): Record<string, SwaggerSchema> {
  return {
    [`${META}.Time`]: { type: 'string', format: 'date-time' },
    [`${META}.MicroTime`]: { type: 'string', format: 'date-time' },
    [`${META}.FieldsV1`]: open,
    [`${META}.Patch`]: open,
    [OBJECT_META]: obj({
      annotations: map(str),
      creationTimestamp: time,
      deletionGracePeriodSeconds: int64,
      deletionTimestamp: time,
      finalizers: arr(str),
      generateName: str,
      generation: int64,
      labels: map(str),
      managedFields: arr(ref(`${META}.ManagedFieldsEntry`)),
      name: str,
      namespace: str,
      ownerReferences: arr(ref(`${META}.OwnerReference`)),
      resourceVersion: str,
      selfLink: str,
      uid: str,
    }),
    [LIST_META]: obj({ continue: str, remainingItemCount: int64, resourceVersion: str, selfLink: str }),
    [`${META}.OwnerReference`]: obj(
      { apiVersion: str, blockOwnerDeletion: bool, controller: bool, kind: str, name: str, uid: str },
      ['apiVersion', 'kind', 'name', 'uid'],
    ),
    [`${META}.ManagedFieldsEntry`]: obj({
      apiVersion: str,
      fieldsType: str,
      fieldsV1: ref(`${META}.FieldsV1`),
      manager: str,
      operation: str,
      subresource: str,
      time,
    }),
    [`${META}.LabelSelector`]: obj({
      matchExpressions: arr(ref(`${META}.LabelSelectorRequirement`)),
      matchLabels: map(str),
    }),
    [`${META}.LabelSelectorRequirement`]: obj({ key: str, operator: str, values: arr(str) }, [
      'key',
      'operator',
    ]),
    [`${META}.Condition`]: obj(
      {
        lastTransitionTime: time,
        message: str,
        observedGeneration: int64,
        reason: str,
        status: str,
        type: str,
      },
      ['type', 'status', 'lastTransitionTime', 'reason', 'message'],
    ),
    'io.k8s.apimachinery.pkg.util.intstr.IntOrString': { type: 'string', format: 'int-or-string' },
    'io.k8s.apimachinery.pkg.api.resource.Quantity': str,
    ...coreDefinitions(),
    ...podDefinitions(),
    ...serviceDefinitions(),
    ...nodeDefinitions(),
    ...appsDefinitions(),
    ...rbacDefinitions(),
    ...extensionDefinitions(),
    'io.k8s.api.coordination.v1.Lease': kind('coordination.k8s.io', 'v1', 'Lease', {
      spec: ref('io.k8s.api.coordination.v1.LeaseSpec'),
    }),
    'io.k8s.api.coordination.v1.LeaseSpec': obj({
      acquireTime: microTime,
      holderIdentity: str,
      leaseDurationSeconds: int32,
      leaseTransitions: int32,
      preferredHolder: str,
      renewTime: microTime,
      strategy: str,
    }),
    'io.k8s.api.authorization.v1.SelfSubjectAccessReview': kind(
      'authorization.k8s.io',
      'v1',
      'SelfSubjectAccessReview',
      { spec: open, status: open },
      ['spec'],
    ),
    'io.k8s.api.authentication.v1.SelfSubjectReview': kind(
      'authentication.k8s.io',
      'v1',
      'SelfSubjectReview',
      {
        status: open,
      },
    ),
  };
}

function coreDefinitions(): Record<string, SwaggerSchema> {
  return {
    [`${CORE}.Namespace`]: kind('', 'v1', 'Namespace', {
      spec: obj({ finalizers: arr(str) }),
      status: obj({ conditions: arr(ref(`${CORE}.NamespaceCondition`)), phase: str }),
    }),
    [`${CORE}.NamespaceCondition`]: condition(),
    [`${CORE}.ConfigMap`]: kind('', 'v1', 'ConfigMap', {
      binaryData: map(bytes),
      data: map(str),
      immutable: bool,
    }),
    [`${CORE}.Secret`]: kind('', 'v1', 'Secret', {
      data: map(bytes),
      immutable: bool,
      stringData: map(str),
      type: str,
    }),
    [`${CORE}.ServiceAccount`]: kind('', 'v1', 'ServiceAccount', {
      automountServiceAccountToken: bool,
      imagePullSecrets: arr(ref(`${CORE}.LocalObjectReference`)),
      secrets: arr(ref(`${CORE}.ObjectReference`)),
    }),
    [`${CORE}.LocalObjectReference`]: obj({ name: str }),
    [`${CORE}.ObjectReference`]: obj({
      apiVersion: str,
      fieldPath: str,
      kind: str,
      name: str,
      namespace: str,
      resourceVersion: str,
      uid: str,
    }),
    [`${CORE}.Event`]: kind(
      '',
      'v1',
      'Event',
      {
        action: str,
        count: int32,
        eventTime: microTime,
        firstTimestamp: time,
        involvedObject: ref(`${CORE}.ObjectReference`),
        lastTimestamp: time,
        message: str,
        reason: str,
        related: ref(`${CORE}.ObjectReference`),
        reportingComponent: str,
        reportingInstance: str,
        series: obj({ count: int32, lastObservedTime: microTime }),
        source: obj({ component: str, host: str }),
        type: str,
      },
      ['metadata', 'involvedObject'],
    ),
  };
}

function rbacDefinitions(): Record<string, SwaggerSchema> {
  const rules = arr(ref(`${RBAC}.PolicyRule`));
  const binding = { roleRef: ref(`${RBAC}.RoleRef`), subjects: arr(ref(`${RBAC}.Subject`)) };
  return {
    [`${RBAC}.PolicyRule`]: obj(
      {
        apiGroups: arr(str),
        nonResourceURLs: arr(str),
        resourceNames: arr(str),
        resources: arr(str),
        verbs: arr(str),
      },
      ['verbs'],
    ),
    [`${RBAC}.AggregationRule`]: obj({ clusterRoleSelectors: arr(ref(`${META}.LabelSelector`)) }),
    [`${RBAC}.Subject`]: obj({ apiGroup: str, kind: str, name: str, namespace: str }, ['kind', 'name']),
    [`${RBAC}.RoleRef`]: obj({ apiGroup: str, kind: str, name: str }, ['apiGroup', 'kind', 'name']),
    [`${RBAC}.Role`]: kind('rbac.authorization.k8s.io', 'v1', 'Role', { rules }),
    [`${RBAC}.ClusterRole`]: kind('rbac.authorization.k8s.io', 'v1', 'ClusterRole', {
      aggregationRule: ref(`${RBAC}.AggregationRule`),
      rules,
    }),
    [`${RBAC}.RoleBinding`]: kind('rbac.authorization.k8s.io', 'v1', 'RoleBinding', binding, ['roleRef']),
    [`${RBAC}.ClusterRoleBinding`]: kind('rbac.authorization.k8s.io', 'v1', 'ClusterRoleBinding', binding, [
      'roleRef',
    ]),
  };
}

function extensionDefinitions(): Record<string, SwaggerSchema> {
  const d = (name: string): SwaggerSchema => ref(`${EXTENSIONS}.${name}`);
  const names = obj(
    { categories: arr(str), kind: str, listKind: str, plural: str, shortNames: arr(str), singular: str },
    ['plural', 'kind'],
  );
  return {
    [`${EXTENSIONS}.CustomResourceDefinition`]: kind(
      'apiextensions.k8s.io',
      'v1',
      'CustomResourceDefinition',
      { spec: d('CustomResourceDefinitionSpec'), status: d('CustomResourceDefinitionStatus') },
      ['spec'],
    ),
    [`${EXTENSIONS}.CustomResourceDefinitionSpec`]: obj(
      {
        conversion: obj({ strategy: str, webhook: open }, ['strategy']),
        group: str,
        names: d('CustomResourceDefinitionNames'),
        preserveUnknownFields: bool,
        scope: str,
        versions: arr(d('CustomResourceDefinitionVersion')),
      },
      ['group', 'names', 'scope', 'versions'],
    ),
    [`${EXTENSIONS}.CustomResourceDefinitionNames`]: names,
    [`${EXTENSIONS}.CustomResourceDefinitionVersion`]: obj(
      {
        additionalPrinterColumns: arr(d('CustomResourceColumnDefinition')),
        deprecated: bool,
        deprecationWarning: str,
        name: str,
        schema: obj({ openAPIV3Schema: d('JSONSchemaProps') }),
        selectableFields: arr(obj({ jsonPath: str }, ['jsonPath'])),
        served: bool,
        storage: bool,
        subresources: obj({
          scale: obj({ labelSelectorPath: str, specReplicasPath: str, statusReplicasPath: str }, [
            'specReplicasPath',
            'statusReplicasPath',
          ]),
          status: open,
        }),
      },
      ['name', 'served', 'storage'],
    ),
    [`${EXTENSIONS}.CustomResourceColumnDefinition`]: obj(
      { description: str, format: str, jsonPath: str, name: str, priority: int32, type: str },
      ['name', 'type', 'jsonPath'],
    ),
    // Recursive and full of keywords kube-sim checks itself when the CRD is written.
    [`${EXTENSIONS}.JSONSchemaProps`]: open,
    [`${EXTENSIONS}.CustomResourceDefinitionStatus`]: obj({
      acceptedNames: names,
      conditions: arr(condition()),
      storedVersions: arr(str),
    }),
  };
}

/**
 * A pod template down to its containers' names, images, arguments, environment and ports; the rest
 * of a pod spec is named (so unknown fields are still reported) but open.
 */
function podDefinitions(): Record<string, SwaggerSchema> {
  const containers = keyed(ref(`${CORE}.Container`), 'name');
  return {
    [`${CORE}.PodTemplateSpec`]: obj({ metadata: ref(OBJECT_META), spec: ref(`${CORE}.PodSpec`) }),
    [`${CORE}.PodSpec`]: obj(
      {
        activeDeadlineSeconds: int64,
        affinity: open,
        automountServiceAccountToken: bool,
        containers,
        dnsConfig: open,
        dnsPolicy: str,
        enableServiceLinks: bool,
        ephemeralContainers: keyed(open, 'name'),
        hostAliases: keyed(open, 'ip'),
        hostIPC: bool,
        hostNetwork: bool,
        hostPID: bool,
        hostUsers: bool,
        hostname: str,
        imagePullSecrets: keyed(ref(`${CORE}.LocalObjectReference`), 'name'),
        initContainers: containers,
        nodeName: str,
        nodeSelector: map(str),
        os: open,
        overhead: map(quantity),
        preemptionPolicy: str,
        priority: int32,
        priorityClassName: str,
        readinessGates: arr(open),
        resourceClaims: keyed(open, 'name'),
        resources: open,
        restartPolicy: str,
        runtimeClassName: str,
        schedulerName: str,
        schedulingGates: keyed(open, 'name'),
        securityContext: open,
        serviceAccount: str,
        serviceAccountName: str,
        setHostnameAsFQDN: bool,
        shareProcessNamespace: bool,
        subdomain: str,
        terminationGracePeriodSeconds: int64,
        tolerations: arr(open),
        topologySpreadConstraints: keyed(open, 'topologyKey'),
        volumes: keyed(open, 'name'),
      },
      ['containers'],
    ),
    [`${CORE}.Container`]: obj(
      {
        args: arr(str),
        command: arr(str),
        env: keyed(ref(`${CORE}.EnvVar`), 'name'),
        envFrom: arr(open),
        image: str,
        imagePullPolicy: str,
        lifecycle: open,
        livenessProbe: open,
        name: str,
        ports: keyed(ref(`${CORE}.ContainerPort`), 'containerPort'),
        readinessProbe: open,
        resizePolicy: arr(open),
        resources: open,
        restartPolicy: str,
        securityContext: open,
        startupProbe: open,
        stdin: bool,
        stdinOnce: bool,
        terminationMessagePath: str,
        terminationMessagePolicy: str,
        tty: bool,
        volumeDevices: keyed(open, 'devicePath'),
        volumeMounts: keyed(open, 'mountPath'),
        workingDir: str,
      },
      ['name'],
    ),
    [`${CORE}.EnvVar`]: obj({ name: str, value: str, valueFrom: open }, ['name']),
    [`${CORE}.ContainerPort`]: obj(
      { containerPort: int32, hostIP: str, hostPort: int32, name: str, protocol: str },
      ['containerPort'],
    ),
  };
}

function serviceDefinitions(): Record<string, SwaggerSchema> {
  return {
    [`${CORE}.Service`]: kind('', 'v1', 'Service', {
      spec: ref(`${CORE}.ServiceSpec`),
      status: ref(`${CORE}.ServiceStatus`),
    }),
    [`${CORE}.ServiceSpec`]: obj({
      allocateLoadBalancerNodePorts: bool,
      clusterIP: str,
      clusterIPs: arr(str),
      externalIPs: arr(str),
      externalName: str,
      externalTrafficPolicy: str,
      healthCheckNodePort: int32,
      internalTrafficPolicy: str,
      ipFamilies: arr(str),
      ipFamilyPolicy: str,
      loadBalancerClass: str,
      loadBalancerIP: str,
      loadBalancerSourceRanges: arr(str),
      ports: keyed(ref(`${CORE}.ServicePort`), 'port'),
      publishNotReadyAddresses: bool,
      selector: map(str),
      sessionAffinity: str,
      sessionAffinityConfig: open,
      trafficDistribution: str,
      type: str,
    }),
    [`${CORE}.ServicePort`]: obj(
      { appProtocol: str, name: str, nodePort: int32, port: int32, protocol: str, targetPort: intOrString },
      ['port'],
    ),
    [`${CORE}.ServiceStatus`]: obj({
      conditions: keyed(ref(`${META}.Condition`), 'type'),
      loadBalancer: open,
    }),
  };
}

function nodeDefinitions(): Record<string, SwaggerSchema> {
  return {
    [`${CORE}.Node`]: kind('', 'v1', 'Node', {
      spec: ref(`${CORE}.NodeSpec`),
      status: ref(`${CORE}.NodeStatus`),
    }),
    [`${CORE}.NodeSpec`]: obj({
      configSource: open,
      externalID: str,
      podCIDR: str,
      podCIDRs: arr(str),
      providerID: str,
      taints: arr(ref(`${CORE}.Taint`)),
      unschedulable: bool,
    }),
    [`${CORE}.Taint`]: obj({ effect: str, key: str, timeAdded: time, value: str }, ['key', 'effect']),
    [`${CORE}.NodeStatus`]: obj({
      addresses: keyed(obj({ address: str, type: str }, ['type', 'address']), 'type'),
      allocatable: map(quantity),
      capacity: map(quantity),
      conditions: keyed(ref(`${CORE}.NodeCondition`), 'type'),
      config: open,
      daemonEndpoints: open,
      features: open,
      images: arr(open),
      nodeInfo: open,
      phase: str,
      runtimeHandlers: arr(open),
      volumesAttached: arr(open),
      volumesInUse: arr(str),
    }),
    [`${CORE}.NodeCondition`]: condition({ lastHeartbeatTime: time }),
  };
}

function appsDefinitions(): Record<string, SwaggerSchema> {
  const selector = ref(`${META}.LabelSelector`);
  const template = ref(`${CORE}.PodTemplateSpec`);
  const workloadCondition = keyed(condition({ lastUpdateTime: time }), 'type');
  return {
    [`${APPS}.Deployment`]: kind('apps', 'v1', 'Deployment', {
      spec: ref(`${APPS}.DeploymentSpec`),
      status: ref(`${APPS}.DeploymentStatus`),
    }),
    [`${APPS}.DeploymentSpec`]: obj(
      {
        minReadySeconds: int32,
        paused: bool,
        progressDeadlineSeconds: int32,
        replicas: int32,
        revisionHistoryLimit: int32,
        selector,
        strategy: obj({
          rollingUpdate: obj({ maxSurge: intOrString, maxUnavailable: intOrString }),
          type: str,
        }),
        template,
      },
      ['selector', 'template'],
    ),
    [`${APPS}.DeploymentStatus`]: obj({
      availableReplicas: int32,
      collisionCount: int32,
      conditions: workloadCondition,
      observedGeneration: int64,
      readyReplicas: int32,
      replicas: int32,
      unavailableReplicas: int32,
      updatedReplicas: int32,
    }),
    [`${APPS}.DaemonSet`]: kind('apps', 'v1', 'DaemonSet', {
      spec: ref(`${APPS}.DaemonSetSpec`),
      status: ref(`${APPS}.DaemonSetStatus`),
    }),
    [`${APPS}.DaemonSetSpec`]: obj(
      {
        minReadySeconds: int32,
        revisionHistoryLimit: int32,
        selector,
        template,
        updateStrategy: obj({
          rollingUpdate: obj({ maxSurge: intOrString, maxUnavailable: intOrString }),
          type: str,
        }),
      },
      ['selector', 'template'],
    ),
    [`${APPS}.DaemonSetStatus`]: obj(
      {
        collisionCount: int32,
        conditions: keyed(condition(), 'type'),
        currentNumberScheduled: int32,
        desiredNumberScheduled: int32,
        numberAvailable: int32,
        numberMisscheduled: int32,
        numberReady: int32,
        numberUnavailable: int32,
        observedGeneration: int64,
        updatedNumberScheduled: int32,
      },
      ['currentNumberScheduled', 'numberMisscheduled', 'desiredNumberScheduled', 'numberReady'],
    ),
  };
}
