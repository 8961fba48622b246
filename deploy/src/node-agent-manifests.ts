import type { KubeObject } from '@noderings/kube';

import { httpProbe } from './pod-security.js';
import type { PolicyRule } from './rbac-types.js';
import { clusterRole, clusterRoleBinding } from './rbac-types.js';

export const NODE_AGENT_NAME = 'proxima-node-agent';
/** The Secret (key `token`) the DaemonSet reads the install token from; created by hand, never rendered. */
export const INSTALL_TOKEN_SECRET = 'proxima-install-token';
const DEFAULT_NAMESPACE = 'proxima-system';
const DEFAULT_HOST_DATA_DIR = '/var/lib/proxima-agent';
/** The Helm chart's interval (`nodeAgent.metricsInterval`); the agent's own default is 30s. */
const DEFAULT_METRICS_INTERVAL = '60s';
/** Inside the container the data directory never moves; `hostDataDir` changes only the host side. */
const DATA_DIR = '/var/lib/proxima-agent';
const HOST_ROOT = '/host';
const POD_LOGS = '/var/log/pods';
const HEALTH_PORT = 9810;
const KUBELET_PORT = 10250;

export interface NodeAgentManifestOptions {
  /** The node agent's image, e.g. `registry.example/proxima/agent:0.8.0`. */
  readonly image: string;
  /** The control plane, https. */
  readonly backendUrl: string;
  /** Default `proxima-system`. */
  readonly namespace?: string;
  /** Where on each node the agent's state lives (default `/var/lib/proxima-agent`); move it when a host agent owns that path. */
  readonly hostDataDir?: string;
  /** A Go duration (default `60s`). */
  readonly metricsInterval?: string;
  /** Also grants `nodes/proxy`, which clusters before 1.33 need for `/pods`; it also allows exec into containers. */
  readonly legacyNodesProxy?: boolean;
  /**
   * A CA file inside the pod that signed the kubelets' serving certificates (e.g. the service account's
   * `ca.crt` with `serverTLSBootstrap`); without it the agent does not verify them (self-signed by default).
   */
  readonly kubeletCaFile?: string;
}

export class InvalidNodeAgentOptionsError extends Error {
  readonly code = 'INVALID_NODE_AGENT_OPTIONS';
}

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
const IMAGE = /^[^\s]+$/;
const GO_DURATION = /^(?:\d+(?:\.\d+)?(?:ms|s|m|h))+$/;
const ABSOLUTE_PATH = /^\/[^\s]*[^/\s]$/;

/** The node agent's rules: the three kubelet subresources it reads, `nodes/proxy` only for old clusters. */
function nodeAgentRules(legacyNodesProxy: boolean): PolicyRule[] {
  const resources = [
    'nodes/stats',
    'nodes/metrics',
    'nodes/pods',
    ...(legacyNodesProxy ? ['nodes/proxy'] : []),
  ];
  return [{ apiGroups: [''], resources, verbs: ['get'] }];
}

/**
 * The node agent as a DaemonSet on every node, in apply order: Namespace, ServiceAccount, ClusterRole
 * and ClusterRoleBinding (read-only kubelet subresources), DaemonSet. The install token Secret is not
 * rendered: create it with `kubectl -n <namespace> create secret generic proxima-install-token --from-literal=token=…`.
 */
export function renderNodeAgent(options: NodeAgentManifestOptions): KubeObject[] {
  const checked = check(options);
  const { namespace } = checked;
  const account = { name: NODE_AGENT_NAME, namespace };
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } },
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: account },
    clusterRole(NODE_AGENT_NAME, nodeAgentRules(checked.legacyNodesProxy)),
    clusterRoleBinding(NODE_AGENT_NAME, account),
    daemonSet(checked),
  ];
}

interface CheckedOptions {
  readonly image: string;
  readonly backendUrl: string;
  readonly namespace: string;
  readonly hostDataDir: string;
  readonly metricsInterval: string;
  readonly legacyNodesProxy: boolean;
  readonly kubeletCaFile: string | undefined;
}

function check(options: NodeAgentManifestOptions): CheckedOptions {
  const invalid = (message: string): InvalidNodeAgentOptionsError =>
    new InvalidNodeAgentOptionsError(message);
  const namespace = options.namespace ?? DEFAULT_NAMESPACE;
  const hostDataDir = options.hostDataDir ?? DEFAULT_HOST_DATA_DIR;
  const metricsInterval = options.metricsInterval ?? DEFAULT_METRICS_INTERVAL;
  if (!IMAGE.test(options.image)) throw invalid(`image: not an image reference: '${options.image}'`);
  let url: URL | undefined;
  try {
    url = new URL(options.backendUrl);
  } catch {
    url = undefined;
  }
  if (url?.protocol !== 'https:')
    throw invalid(`backendUrl: expected an https URL, got '${options.backendUrl}'`);
  if (!DNS_LABEL.test(namespace)) throw invalid(`namespace: not a namespace name: '${namespace}'`);
  if (!ABSOLUTE_PATH.test(hostDataDir))
    throw invalid(`hostDataDir: expected an absolute directory other than /, got '${hostDataDir}'`);
  if (!GO_DURATION.test(metricsInterval))
    throw invalid(`metricsInterval: expected a duration such as 30s, 60s or 1m30s, got '${metricsInterval}'`);
  if (options.kubeletCaFile !== undefined && !ABSOLUTE_PATH.test(options.kubeletCaFile))
    throw invalid(`kubeletCaFile: expected an absolute path in the pod, got '${options.kubeletCaFile}'`);
  return {
    image: options.image,
    backendUrl: options.backendUrl,
    namespace,
    hostDataDir,
    metricsInterval,
    legacyNodesProxy: options.legacyNodesProxy ?? false,
    kubeletCaFile: options.kubeletCaFile,
  };
}

/** A read-only host file or directory mounted under the same path below `mountRoot`. */
interface HostMount {
  readonly name: string;
  readonly hostPath: string;
  readonly mountPath: string;
  readonly type: 'File' | 'Directory' | 'DirectoryOrCreate';
  readonly readOnly: boolean;
}

function hostMounts(hostDataDir: string): HostMount[] {
  const underHostRoot = (name: string, path: string): HostMount => ({
    name,
    hostPath: path,
    mountPath: `${HOST_ROOT}${path}`,
    type: 'File',
    readOnly: true,
  });
  return [
    // The host's FQDN, the name the agent enrolls with.
    underHostRoot('host-hostname', '/etc/hostname'),
    // Host signals: they stay with the host when the data directory moves, so re-binding can find the record.
    underHostRoot('host-machine-id', '/etc/machine-id'),
    underHostRoot('host-product-uuid', '/sys/class/dmi/id/product_uuid'),
    { name: 'pod-logs', hostPath: POD_LOGS, mountPath: POD_LOGS, type: 'Directory', readOnly: true },
    // hostPath, not emptyDir: the identity must survive the pod.
    { name: 'data', hostPath: hostDataDir, mountPath: DATA_DIR, type: 'DirectoryOrCreate', readOnly: false },
  ];
}

function daemonSet(options: CheckedOptions): KubeObject & { spec: unknown } {
  const labels = { 'app.kubernetes.io/name': NODE_AGENT_NAME, 'app.kubernetes.io/part-of': 'proxima' };
  const mounts = hostMounts(options.hostDataDir);
  const fieldRef = (fieldPath: string) => ({ valueFrom: { fieldRef: { fieldPath } } });
  const kubeletTls =
    options.kubeletCaFile === undefined
      ? { name: 'PROXIMA_KUBELET_INSECURE_SKIP_VERIFY', value: 'true' }
      : { name: 'PROXIMA_KUBELET_CA_FILE', value: options.kubeletCaFile };
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: NODE_AGENT_NAME, namespace: options.namespace, labels },
    spec: {
      selector: { matchLabels: { 'app.kubernetes.io/name': NODE_AGENT_NAME } },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } },
      template: {
        // A copy: one object twice would be written as a YAML alias.
        metadata: { labels: { ...labels } },
        spec: {
          serviceAccountName: NODE_AGENT_NAME,
          securityContext: { seccompProfile: { type: 'RuntimeDefault' } },
          // Every node, control-plane and tainted ones included.
          tolerations: [{ operator: 'Exists' }],
          terminationGracePeriodSeconds: 30,
          containers: [
            {
              name: NODE_AGENT_NAME,
              image: options.image,
              env: [
                { name: 'PROXIMA_AGENT_TYPE', value: 'k8s-node-monitor' },
                { name: 'PROXIMA_K8S_NODE_METRICS', value: 'true' },
                { name: 'PROXIMA_K8S_METRICS_INTERVAL', value: options.metricsInterval },
                { name: 'PROXIMA_K8S_NODE_NAME', ...fieldRef('spec.nodeName') },
                { name: 'PROXIMA_HOST_IP', ...fieldRef('status.hostIP') },
                { name: 'PROXIMA_KUBELET_URL', value: `https://$(PROXIMA_HOST_IP):${KUBELET_PORT}` },
                kubeletTls,
                { name: 'PROXIMA_BACKEND_URL', value: options.backendUrl },
                {
                  name: 'PROXIMA_INSTALL_TOKEN',
                  valueFrom: { secretKeyRef: { name: INSTALL_TOKEN_SECRET, key: 'token' } },
                },
                { name: 'PROXIMA_HOST_ROOT', value: HOST_ROOT },
                { name: 'PROXIMA_DATA_DIR', value: DATA_DIR },
                { name: 'PROXIMA_LOG_DIR', value: POD_LOGS },
                { name: 'PROXIMA_HEALTH_LISTEN', value: `:${HEALTH_PORT}` },
              ],
              ports: [{ name: 'health', containerPort: HEALTH_PORT, protocol: 'TCP' }],
              livenessProbe: httpProbe('/healthz', 'health', 20),
              readinessProbe: httpProbe('/readyz', 'health', 10),
              securityContext: {
                // Root reads the host's root-only files (product_uuid, pods' logs) and writes the state
                // hostPath; with every capability dropped it can do nothing else a process needs them for.
                runAsUser: 0,
                readOnlyRootFilesystem: true,
                allowPrivilegeEscalation: false,
                capabilities: { drop: ['ALL'] },
                seccompProfile: { type: 'RuntimeDefault' },
              },
              resources: {
                requests: { cpu: '50m', memory: '64Mi' },
                limits: { cpu: '500m', memory: '256Mi' },
              },
              volumeMounts: mounts.map((m) => ({
                name: m.name,
                mountPath: m.mountPath,
                readOnly: m.readOnly,
              })),
            },
          ],
          volumes: mounts.map((m) => ({ name: m.name, hostPath: { path: m.hostPath, type: m.type } })),
        },
      },
    },
  };
}
