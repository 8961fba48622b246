import type { ContainerInput, UsageHint } from './pod-factory.js';
import type { TerminationReason } from './pod-model.js';

const MiB = 1024 * 1024;

/** Something that had happened to one replica before the node model's clock started. */
export type Scenario =
  | { kind: 'oomKilled'; container: string; restarts: number }
  | { kind: 'crashLoop' | 'initCrashLoop'; container: string; restarts: number }
  | { kind: 'restarted'; container: string; restarts: number; reason: TerminationReason }
  | { kind: 'pending' | 'succeeded' | 'failed' | 'evicted' };

export interface WorkloadTemplate {
  kind: 'Deployment' | 'Rollout' | 'StatefulSet' | 'DaemonSet' | 'Job' | 'CronJob' | 'Static' | 'Bare';
  namespace: string;
  name: string;
  /** Pods of the workload on this node; for a CronJob, the runs still kept. */
  replicas?: number;
  hostNetwork?: boolean;
  serviceAccount?: string;
  priorityClassName?: string;
  restartPolicy?: 'Always' | 'OnFailure' | 'Never';
  initContainers?: ContainerInput[];
  containers: ContainerInput[];
  /** A StatefulSet's volume claim template. */
  claim?: { name: string; gi: number };
  configMaps?: string[];
  emptyDirs?: string[];
  /** Host paths by volume name (not in volume stats: the kubelet measures no host path). */
  hostPaths?: Record<string, string>;
  /** The FNV value behind the template hash, when a workload needs a short one. */
  templateFnv?: number;
  /** A CronJob's schedule; its newest run is still going when `newestRunning`. */
  everyMinutes?: number;
  newestRunning?: boolean;
  scenarios?: Partial<Record<number, Scenario>>;
}

/** The pods that show every case an agent must handle; with fewer pods asked for, these come first. */
export const ESSENTIAL = [
  'shop/web#0',
  'shop/storefront#0',
  'data/postgres#0',
  'kube-system/kube-proxy#0',
  'kube-system/kube-apiserver#0',
  'shop/cart#0',
  'payments/fraud-scorer#0',
  'reporting/report-api#1',
  'ml/model-server#1',
  'batch/nightly-report#0',
  'batch/schema-migrate-v42#0',
  'default/debug-toolbox#0',
  'reporting/report-worker#0',
  'shop/checkout#0',
  'shop/recommendations#0',
  'kube-system/calico-node#0',
];

export function res(
  reqCpu?: string,
  reqMemory?: string,
  limCpu?: string,
  limMemory?: string,
): ContainerInput['resources'] {
  const requests = { ...(reqCpu ? { cpu: reqCpu } : {}), ...(reqMemory ? { memory: reqMemory } : {}) };
  const limits = { ...(limCpu ? { cpu: limCpu } : {}), ...(limMemory ? { memory: limMemory } : {}) };
  return {
    ...(Object.keys(limits).length ? { limits } : {}),
    ...(Object.keys(requests).length ? { requests } : {}),
  };
}

export function c(
  name: string,
  image: string,
  resources: ContainerInput['resources'],
  cpuCores: number,
  memoryMiB: number,
  more: Omit<UsageHint, 'cpuCores' | 'memoryBytes'> = {},
): ContainerInput {
  return { name, image, resources, usage: { cpuCores, memoryBytes: memoryMiB * MiB, ...more } };
}

/** A short-lived init container's footprint. */
function init(name: string, image: string, resources: ContainerInput['resources'] = {}): ContainerInput {
  return c(name, image, resources, 0.002, 4);
}

const CALICO = 'v3.29.3';
const K8S = 'v1.33.2';
const RELOADER = 'quay.io/prometheus-operator/prometheus-config-reloader:v0.81.0';
const RBAC_PROXY = 'quay.io/brancz/kube-rbac-proxy:v0.19.0';
const CSI = 'public.ecr.aws/eks-distro/kubernetes-csi';
const BUSYBOX = 'docker.io/library/busybox:1.37.0';

/** The workloads of a busy node: platform DaemonSets and control plane, and the teams' applications. */
export const CATALOGUE: WorkloadTemplate[] = [
  {
    kind: 'DaemonSet',
    namespace: 'kube-system',
    name: 'kube-proxy',
    hostNetwork: true,
    hostPaths: { 'xtables-lock': '/run/xtables.lock', 'lib-modules': '/lib/modules' },
    serviceAccount: 'kube-proxy',
    priorityClassName: 'system-node-critical',
    containers: [c('kube-proxy', `registry.k8s.io/kube-proxy:${K8S}`, {}, 0.008, 38)],
  },
  {
    kind: 'DaemonSet',
    namespace: 'kube-system',
    name: 'calico-node',
    hostNetwork: true,
    serviceAccount: 'calico-node',
    priorityClassName: 'system-node-critical',
    initContainers: [
      init('upgrade-ipam', `docker.io/calico/cni:${CALICO}`),
      init('install-cni', `docker.io/calico/cni:${CALICO}`),
      init('mount-bpffs', `docker.io/calico/node:${CALICO}`),
    ],
    containers: [c('calico-node', `docker.io/calico/node:${CALICO}`, res('250m'), 0.045, 160)],
  },
  {
    kind: 'DaemonSet',
    namespace: 'kube-system',
    name: 'ebs-csi-node',
    serviceAccount: 'ebs-csi-node-sa',
    priorityClassName: 'system-node-critical',
    containers: [
      c(
        'ebs-plugin',
        'public.ecr.aws/ebs-csi-driver/aws-ebs-csi-driver:v1.41.0',
        res('10m', '40Mi', undefined, '256Mi'),
        0.002,
        30,
      ),
      c(
        'node-driver-registrar',
        `${CSI}/node-driver-registrar:v2.13.0-eks-1-32-7`,
        res('10m', '40Mi', undefined, '256Mi'),
        0.0005,
        12,
      ),
      c(
        'liveness-probe',
        `${CSI}/livenessprobe:v2.15.0-eks-1-32-7`,
        res('10m', '40Mi', undefined, '256Mi'),
        0.0008,
        14,
      ),
    ],
  },
  {
    kind: 'Deployment',
    namespace: 'kube-system',
    name: 'coredns',
    replicas: 2,
    serviceAccount: 'coredns',
    priorityClassName: 'system-cluster-critical',
    configMaps: ['config-volume'],
    containers: [
      c(
        'coredns',
        'registry.k8s.io/coredns/coredns:v1.12.0',
        res('100m', '70Mi', undefined, '170Mi'),
        0.006,
        28,
        {
          netRxBps: 6000,
          netTxBps: 9000,
        },
      ),
    ],
  },
  {
    kind: 'Deployment',
    namespace: 'kube-system',
    name: 'metrics-server',
    serviceAccount: 'metrics-server',
    priorityClassName: 'system-cluster-critical',
    emptyDirs: ['tmp-dir'],
    containers: [
      c(
        'metrics-server',
        'registry.k8s.io/metrics-server/metrics-server:v0.7.2',
        res('100m', '200Mi'),
        0.008,
        32,
      ),
    ],
  },
  ...(
    [
      ['etcd', 'registry.k8s.io/etcd:3.5.21-0', res('100m', '100Mi'), 0.12, 420, { fsWriteBps: 400_000 }],
      ['kube-apiserver', `registry.k8s.io/kube-apiserver:${K8S}`, res('250m'), 0.3, 1100, {}],
      [
        'kube-controller-manager',
        `registry.k8s.io/kube-controller-manager:${K8S}`,
        res('200m'),
        0.04,
        110,
        {},
      ],
      ['kube-scheduler', `registry.k8s.io/kube-scheduler:${K8S}`, res('100m'), 0.012, 48, {}],
    ] as const
  ).map(([name, image, resources, cpu, memory, more]): WorkloadTemplate => ({
    kind: 'Static',
    namespace: 'kube-system',
    name,
    hostNetwork: true,
    priorityClassName: 'system-node-critical',
    hostPaths:
      name === 'etcd'
        ? { 'etcd-certs': '/etc/kubernetes/pki/etcd', 'etcd-data': '/var/lib/etcd' }
        : { 'ca-certs': '/etc/ssl/certs', 'k8s-certs': '/etc/kubernetes/pki' },
    containers: [c(name, image, resources, cpu, memory, more)],
  })),
  {
    kind: 'DaemonSet',
    namespace: 'monitoring',
    name: 'node-exporter',
    hostNetwork: true,
    hostPaths: { proc: '/proc', sys: '/sys', root: '/' },
    serviceAccount: 'node-exporter',
    containers: [
      c(
        'node-exporter',
        'quay.io/prometheus/node-exporter:v1.9.1',
        res('102m', '180Mi', '250m', '180Mi'),
        0.03,
        22,
      ),
      c('kube-rbac-proxy', RBAC_PROXY, res('10m', '20Mi', '20m', '40Mi'), 0.006, 16, {
        throttledRatio: 0.32,
      }),
    ],
  },
  {
    kind: 'StatefulSet',
    namespace: 'monitoring',
    name: 'prometheus-k8s',
    serviceAccount: 'prometheus-k8s',
    claim: { name: 'prometheus-k8s-db', gi: 50 },
    initContainers: [init('init-config-reloader', RELOADER, res('10m', '50Mi', '10m', '50Mi'))],
    containers: [
      c('prometheus', 'quay.io/prometheus/prometheus:v3.2.1', res('500m', '2Gi'), 0.45, 2600, {
        fsReadBps: 300_000,
        fsWriteBps: 1_200_000,
        netRxBps: 900_000,
        netTxBps: 60_000,
      }),
      c('config-reloader', RELOADER, res('10m', '50Mi', '10m', '50Mi'), 0.001, 14),
    ],
  },
  {
    kind: 'StatefulSet',
    namespace: 'monitoring',
    name: 'alertmanager-main',
    serviceAccount: 'alertmanager-main',
    claim: { name: 'alertmanager-main-db', gi: 1 },
    containers: [
      c(
        'alertmanager',
        'quay.io/prometheus/alertmanager:v0.28.1',
        res('4m', '100Mi', '100m', '100Mi'),
        0.003,
        28,
      ),
      c('config-reloader', RELOADER, res('10m', '50Mi', '10m', '50Mi'), 0.001, 12),
    ],
  },
  {
    kind: 'Deployment',
    namespace: 'monitoring',
    name: 'kube-state-metrics',
    serviceAccount: 'kube-state-metrics',
    containers: [
      c(
        'kube-state-metrics',
        'registry.k8s.io/kube-state-metrics/kube-state-metrics:v2.15.0',
        res('10m', '190Mi', '100m', '250Mi'),
        0.02,
        95,
        { throttledRatio: 0.08 },
      ),
      c('kube-rbac-proxy-main', RBAC_PROXY, res('20m', '20Mi', '40m', '40Mi'), 0.004, 18),
      c('kube-rbac-proxy-self', RBAC_PROXY, res('10m', '20Mi', '20m', '40Mi'), 0.001, 14),
    ],
  },
  {
    kind: 'Deployment',
    namespace: 'monitoring',
    name: 'grafana',
    serviceAccount: 'grafana',
    emptyDirs: ['grafana-storage'],
    containers: [
      c('grafana', 'docker.io/grafana/grafana:11.5.2', res('100m', '100Mi', '200m', '200Mi'), 0.01, 120),
    ],
  },
  {
    kind: 'DaemonSet',
    namespace: 'logging',
    name: 'fluent-bit',
    hostPaths: { varlog: '/var/log', 'etc-machine-id': '/etc/machine-id' },
    serviceAccount: 'fluent-bit',
    containers: [
      c(
        'fluent-bit',
        'cr.fluentbit.io/fluent/fluent-bit:3.2.8',
        res('100m', '128Mi', undefined, '256Mi'),
        0.05,
        60,
        {
          fsReadBps: 250_000,
          netTxBps: 200_000,
        },
      ),
    ],
  },
  {
    kind: 'DaemonSet',
    namespace: 'proxima-system',
    name: 'proxima-node-agent',
    hostPaths: { data: '/var/lib/proxima-agent', 'host-root': '/' },
    serviceAccount: 'proxima-node-agent',
    containers: [
      c(
        'proxima-node-agent',
        'ghcr.io/proxima-agent/agent:v0.8.0',
        res('50m', '64Mi', '500m', '256Mi'),
        0.012,
        48,
      ),
    ],
  },
  {
    kind: 'StatefulSet',
    namespace: 'proxima-system',
    name: 'proxima-cluster-agent',
    serviceAccount: 'proxima-cluster-agent',
    containers: [
      c('cluster-agent', 'ghcr.io/proxima-agent/agent:v0.8.0', res('100m', '128Mi', '1', '512Mi'), 0.02, 90),
    ],
  },
  {
    kind: 'Deployment',
    namespace: 'ingress-nginx',
    name: 'ingress-nginx-controller',
    replicas: 2,
    serviceAccount: 'ingress-nginx',
    containers: [
      c('controller', 'registry.k8s.io/ingress-nginx/controller:v1.12.1', res('100m', '90Mi'), 0.09, 180, {
        netRxBps: 1_800_000,
        netTxBps: 2_400_000,
        processes: 5,
      }),
    ],
  },
  ...(
    [
      ['cert-manager', 'controller', 0.003, 38],
      ['cert-manager-cainjector', 'cainjector', 0.002, 42],
      ['cert-manager-webhook', 'webhook', 0.001, 18],
    ] as const
  ).map(([name, part, cpu, memory]): WorkloadTemplate => ({
    kind: 'Deployment',
    namespace: 'cert-manager',
    name,
    serviceAccount: name,
    containers: [c(`cert-manager-${part}`, `quay.io/jetstack/cert-manager-${part}:v1.17.1`, {}, cpu, memory)],
  })),
  {
    kind: 'Deployment',
    namespace: 'argo-rollouts',
    name: 'argo-rollouts',
    serviceAccount: 'argo-rollouts',
    containers: [c('argo-rollouts', 'quay.io/argoproj/argo-rollouts:v1.8.2', res('5m', '64Mi'), 0.006, 55)],
  },
  {
    kind: 'Deployment',
    namespace: 'shop',
    name: 'web',
    replicas: 7,
    scenarios: { 6: { kind: 'evicted' } },
    containers: [
      c('web', 'ghcr.io/acme-shop/web:2.14.0', res('200m', '256Mi', '500m', '512Mi'), 0.22, 210, {
        netRxBps: 120_000,
        netTxBps: 480_000,
        throttledRatio: 0.18,
      }),
    ],
  },
  {
    kind: 'Deployment',
    namespace: 'shop',
    name: 'api',
    replicas: 5,
    containers: [
      c('api', 'ghcr.io/acme-shop/api:3.8.1', res('250m', '384Mi', undefined, '768Mi'), 0.18, 330, {
        netRxBps: 90_000,
        netTxBps: 140_000,
      }),
    ],
  },
  {
    kind: 'Deployment',
    namespace: 'shop',
    name: 'cart',
    replicas: 3,
    scenarios: { 0: { kind: 'oomKilled', container: 'cart', restarts: 3 } },
    containers: [c('cart', 'ghcr.io/acme-shop/cart:1.9.4', res('100m', '256Mi', '500m', '320Mi'), 0.06, 300)],
  },
  {
    kind: 'Rollout',
    namespace: 'shop',
    name: 'storefront',
    replicas: 4,
    containers: [
      c('storefront', 'ghcr.io/acme-shop/storefront:5.2.0', res('150m', '200Mi', '1', '400Mi'), 0.11, 170, {
        netRxBps: 60_000,
        netTxBps: 300_000,
      }),
    ],
  },
  {
    kind: 'Rollout',
    namespace: 'shop',
    name: 'checkout',
    replicas: 3,
    initContainers: [
      init('istio-init', 'docker.io/istio/proxyv2:1.25.1', res('10m', '10Mi', '2', '1Gi')),
      {
        ...c('istio-proxy', 'docker.io/istio/proxyv2:1.25.1', res('100m', '128Mi', '2', '1Gi'), 0.03, 70, {
          processes: 2,
        }),
        sidecar: true,
      },
    ],
    containers: [
      c('checkout', 'ghcr.io/acme-shop/checkout:4.0.3', res('200m', '256Mi', '1', '512Mi'), 0.08, 190, {
        netRxBps: 40_000,
        netTxBps: 70_000,
      }),
    ],
  },
  {
    kind: 'Deployment',
    namespace: 'shop',
    name: 'recommendations',
    replicas: 3,
    templateFnv: 47_116,
    containers: [c('recommender', 'ghcr.io/acme-shop/recommender:0.31.0', res('500m', '1Gi'), 0.6, 1200)],
  },
  {
    kind: 'Deployment',
    namespace: 'payments',
    name: 'gateway',
    replicas: 4,
    containers: [
      c('gateway', 'ghcr.io/acme-pay/gateway:7.1.0', res('500m', '512Mi', '500m', '512Mi'), 0.21, 380, {
        netRxBps: 70_000,
        netTxBps: 90_000,
        throttledRatio: 0.06,
      }),
    ],
  },
  {
    kind: 'Deployment',
    namespace: 'payments',
    name: 'fraud-scorer',
    replicas: 2,
    scenarios: { 0: { kind: 'crashLoop', container: 'fraud-scorer', restarts: 27 } },
    containers: [
      c(
        'fraud-scorer',
        'ghcr.io/acme-pay/fraud-scorer:0.14.2',
        res('250m', '512Mi', undefined, '1Gi'),
        0.15,
        420,
      ),
    ],
  },
  {
    kind: 'StatefulSet',
    namespace: 'payments',
    name: 'ledger',
    replicas: 3,
    claim: { name: 'journal', gi: 20 },
    containers: [
      c('ledger', 'ghcr.io/acme-pay/ledger:2.3.0', res('250m', '512Mi', '1', '1Gi'), 0.07, 400, {
        fsWriteBps: 150_000,
      }),
    ],
  },
  {
    kind: 'StatefulSet',
    namespace: 'data',
    name: 'postgres',
    replicas: 3,
    claim: { name: 'data', gi: 100 },
    initContainers: [init('init-chmod-data', BUSYBOX, res('10m', '16Mi'))],
    containers: [
      c('postgres', 'docker.io/library/postgres:16.8', res('500m', '1Gi', undefined, '2Gi'), 0.25, 900, {
        fsReadBps: 2_000_000,
        fsWriteBps: 900_000,
        netRxBps: 200_000,
        netTxBps: 450_000,
        processes: 18,
      }),
      c(
        'metrics',
        'quay.io/prometheuscommunity/postgres-exporter:v0.17.1',
        res('10m', '32Mi', '100m', '64Mi'),
        0.004,
        20,
      ),
    ],
  },
  {
    kind: 'StatefulSet',
    namespace: 'data',
    name: 'redis',
    replicas: 3,
    claim: { name: 'data', gi: 8 },
    containers: [
      c('redis', 'docker.io/library/redis:7.4.2', res('100m', '256Mi', '1', '1Gi'), 0.05, 300, {
        netRxBps: 300_000,
        netTxBps: 500_000,
      }),
      c(
        'redis-exporter',
        'docker.io/oliver006/redis_exporter:v1.69.0',
        res('10m', '16Mi', '50m', '64Mi'),
        0.003,
        14,
      ),
    ],
  },
  {
    kind: 'StatefulSet',
    namespace: 'data',
    name: 'kafka',
    replicas: 3,
    claim: { name: 'data', gi: 200 },
    containers: [
      c('kafka', 'docker.io/apache/kafka:3.9.0', res('1', '4Gi', undefined, '6Gi'), 0.5, 3300, {
        fsReadBps: 600_000,
        fsWriteBps: 3_000_000,
        netRxBps: 3_000_000,
        netTxBps: 5_000_000,
        processes: 1,
      }),
    ],
  },
  {
    kind: 'StatefulSet',
    namespace: 'data',
    name: 'elasticsearch',
    replicas: 2,
    claim: { name: 'elasticsearch-data', gi: 100 },
    initContainers: [init('sysctl', 'docker.elastic.co/elasticsearch/elasticsearch:8.17.3')],
    containers: [
      c(
        'elasticsearch',
        'docker.elastic.co/elasticsearch/elasticsearch:8.17.3',
        res('1', '4Gi', '2', '4Gi'),
        0.4,
        3600,
        {
          fsReadBps: 1_500_000,
          fsWriteBps: 1_100_000,
          throttledRatio: 0.12,
        },
      ),
    ],
  },
  {
    kind: 'Deployment',
    namespace: 'reporting',
    name: 'report-api',
    replicas: 2,
    scenarios: { 1: { kind: 'initCrashLoop', container: 'wait-for-db', restarts: 14 } },
    initContainers: [init('wait-for-db', BUSYBOX)],
    containers: [
      c('report-api', 'ghcr.io/acme-bi/report-api:1.4.0', res('100m', '128Mi', '500m', '256Mi'), 0.02, 110),
    ],
  },
  {
    kind: 'Deployment',
    namespace: 'reporting',
    name: 'report-worker',
    replicas: 3,
    containers: [
      c('worker', 'ghcr.io/acme-bi/report-worker:1.4.0', res('500m', '1Gi', '2', '2Gi'), 0.35, 1400, {
        processes: 9,
        oomEventsPerHour: 1.5,
      }),
    ],
  },
  {
    kind: 'CronJob',
    namespace: 'batch',
    name: 'nightly-report',
    replicas: 3,
    everyMinutes: 24 * 60,
    restartPolicy: 'OnFailure',
    containers: [
      c('report', 'ghcr.io/acme-bi/report-worker:1.4.0', res('500m', '512Mi', '1', '1Gi'), 0.6, 400),
    ],
  },
  {
    kind: 'CronJob',
    namespace: 'batch',
    name: 'cache-warmer',
    replicas: 3,
    everyMinutes: 15,
    newestRunning: true,
    restartPolicy: 'OnFailure',
    containers: [
      c('warmer', 'ghcr.io/acme-shop/cache-warmer:0.9.2', res('100m', '128Mi', '500m', '256Mi'), 0.2, 80),
    ],
  },
  {
    kind: 'Job',
    namespace: 'batch',
    name: 'schema-migrate-v42',
    restartPolicy: 'Never',
    scenarios: { 0: { kind: 'failed' } },
    containers: [c('migrate', 'ghcr.io/acme-shop/api:3.8.1', res('100m', '128Mi'), 0.05, 90)],
  },
  {
    kind: 'Job',
    namespace: 'batch',
    name: 'image-resize-backfill',
    replicas: 2,
    restartPolicy: 'OnFailure',
    containers: [
      c('resize', 'ghcr.io/acme-media/resizer:2.2.0', res('1', '512Mi', '1', '512Mi'), 0.92, 350, {
        fsReadBps: 4_000_000,
        fsWriteBps: 2_000_000,
        throttledRatio: 0.55,
      }),
    ],
  },
  {
    kind: 'Deployment',
    namespace: 'ml',
    name: 'model-server',
    replicas: 2,
    scenarios: { 1: { kind: 'pending' } },
    containers: [c('server', 'ghcr.io/acme-ml/model-server:2025.3', res('1', '2Gi', '2', '4Gi'), 0.5, 2500)],
  },
  {
    kind: 'Bare',
    namespace: 'ml',
    name: 'notebook-alice',
    containers: [
      c('notebook', 'quay.io/jupyter/scipy-notebook:2025-03-10', res('500m', '1Gi', '2', '4Gi'), 0.04, 900, {
        processes: 6,
      }),
    ],
  },
  {
    kind: 'Bare',
    namespace: 'default',
    name: 'debug-toolbox',
    scenarios: { 0: { kind: 'restarted', container: 'toolbox', restarts: 1, reason: 'Completed' } },
    containers: [c('toolbox', 'docker.io/nicolaka/netshoot:v0.13', {}, 0.0005, 6)],
  },
  {
    kind: 'Deployment',
    namespace: 'notifications',
    name: 'notifier',
    replicas: 3,
    scenarios: { 2: { kind: 'restarted', container: 'notifier', restarts: 2, reason: 'Error' } },
    containers: [
      c('notifier', 'ghcr.io/acme-shop/notifier:1.2.7', res('50m', '96Mi', '250m', '192Mi'), 0.02, 80),
    ],
  },
  {
    kind: 'Deployment',
    namespace: 'notifications',
    name: 'email-sender',
    replicas: 2,
    containers: [c('email-sender', 'ghcr.io/acme-shop/email-sender:0.8.0', res('50m', '64Mi'), 0.01, 60)],
  },
  {
    kind: 'Deployment',
    namespace: 'inventory',
    name: 'inventory',
    replicas: 3,
    containers: [
      c('inventory', 'ghcr.io/acme-shop/inventory:4.4.1', res('200m', '256Mi', '1', '512Mi'), 0.07, 200),
    ],
  },
  {
    kind: 'StatefulSet',
    namespace: 'inventory',
    name: 'mongodb',
    replicas: 3,
    claim: { name: 'datadir', gi: 50 },
    containers: [
      c('mongodb', 'docker.io/library/mongo:8.0.5', res('500m', '1Gi', '2', '2Gi'), 0.2, 1300, {
        fsReadBps: 700_000,
        fsWriteBps: 500_000,
      }),
    ],
  },
  {
    kind: 'Deployment',
    namespace: 'search',
    name: 'search-api',
    replicas: 3,
    containers: [
      c('search-api', 'ghcr.io/acme-shop/search-api:1.17.0', res('250m', '256Mi', '1', '512Mi'), 0.09, 220),
    ],
  },
  {
    kind: 'Deployment',
    namespace: 'auth',
    name: 'keycloak',
    replicas: 2,
    containers: [
      c('keycloak', 'quay.io/keycloak/keycloak:26.1.4', res('500m', '1Gi', undefined, '1536Mi'), 0.04, 700),
    ],
  },
  {
    kind: 'Deployment',
    namespace: 'media',
    name: 'thumbnailer',
    replicas: 3,
    containers: [
      c(
        'thumbnailer',
        'ghcr.io/acme-media/thumbnailer:3.0.1',
        res('250m', '256Mi', '500m', '512Mi'),
        0.3,
        240,
        {
          throttledRatio: 0.42,
        },
      ),
    ],
  },
  {
    kind: 'Deployment',
    namespace: 'analytics',
    name: 'event-collector',
    replicas: 4,
    containers: [
      c('collector', 'ghcr.io/acme-bi/event-collector:0.22.0', res('100m', '128Mi'), 0.05, 110, {
        netRxBps: 150_000,
      }),
    ],
  },
];
