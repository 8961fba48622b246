import { readFileSync, writeFileSync } from 'node:fs';

import type { KubeObject } from '@noderings/kube';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';

import { InvalidNodeAgentOptionsError, renderNodeAgent, toYaml } from './index.js';
import type { ClusterRole, ClusterRoleBinding } from './rbac-types.js';

const OPTIONS = {
  image: 'registry.example/proxima/agent:0.8.0',
  backendUrl: 'https://api-console.example.com',
};

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: Record<string, Record<string, string>>;
}
interface Container {
  image: string;
  env: EnvVar[];
  securityContext: Record<string, unknown>;
  volumeMounts: { name: string; mountPath: string; readOnly: boolean }[];
  livenessProbe: { httpGet: { path: string; port: string } };
  readinessProbe: { httpGet: { path: string; port: string } };
  ports: { name: string; containerPort: number }[];
  resources: { requests: Record<string, string>; limits: Record<string, string> };
}
interface PodSpec {
  serviceAccountName: string;
  securityContext: Record<string, unknown>;
  tolerations: Record<string, string>[];
  containers: Container[];
  volumes: { name: string; hostPath: { path: string; type: string } }[];
}

function daemonSet(objects: KubeObject[]): { pod: PodSpec; container: Container } {
  const found = objects.find((o) => o.kind === 'DaemonSet') as
    { spec: { template: { spec: PodSpec } } } | undefined;
  const pod = found?.spec.template.spec;
  const container = pod?.containers[0];
  if (pod === undefined || container === undefined) throw new Error('no DaemonSet container');
  return { pod, container };
}

function env(container: Container): Record<string, unknown> {
  return Object.fromEntries(container.env.map((e) => [e.name, e.value ?? e.valueFrom]));
}

/** Golden files: `UPDATE_GOLDEN=1 npx vitest run deploy` rewrites them after a deliberate change. */
function golden(name: string, actual: string): void {
  const url = new URL(`golden/${name}`, import.meta.url);
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(url, actual);
  expect(actual).toBe(readFileSync(url, 'utf8'));
}

describe('renderNodeAgent', () => {
  const objects = renderNodeAgent(OPTIONS);

  it('renders the namespace, account, read-only kubelet grants and the DaemonSet, in apply order', () => {
    expect(objects.map((o) => `${o.kind ?? ''}/${o.metadata?.name ?? ''}`)).toEqual([
      'Namespace/proxima-system',
      'ServiceAccount/proxima-node-agent',
      'ClusterRole/proxima-node-agent',
      'ClusterRoleBinding/proxima-node-agent',
      'DaemonSet/proxima-node-agent',
    ]);
    golden('node-agent.yaml', toYaml(objects));
  });

  it('grants get on nodes/stats, nodes/metrics and nodes/pods and nothing else', () => {
    const role = objects.find((o): o is ClusterRole => o.kind === 'ClusterRole');
    expect(role?.rules).toEqual([
      { apiGroups: [''], resources: ['nodes/stats', 'nodes/metrics', 'nodes/pods'], verbs: ['get'] },
    ]);
    const binding = objects.find((o): o is ClusterRoleBinding => o.kind === 'ClusterRoleBinding');
    expect(binding?.subjects).toEqual([
      { kind: 'ServiceAccount', name: 'proxima-node-agent', namespace: 'proxima-system' },
    ]);
    expect(binding?.roleRef.name).toBe('proxima-node-agent');
  });

  it('adds nodes/proxy only for clusters before 1.33 (--legacy-nodes-proxy)', () => {
    const legacy = renderNodeAgent({ ...OPTIONS, legacyNodesProxy: true });
    expect(legacy.find((o): o is ClusterRole => o.kind === 'ClusterRole')?.rules).toEqual([
      {
        apiGroups: [''],
        resources: ['nodes/stats', 'nodes/metrics', 'nodes/pods', 'nodes/proxy'],
        verbs: ['get'],
      },
    ]);
  });

  it('runs as root with a read-only root, no escalation, no capabilities, RuntimeDefault seccomp', () => {
    const { pod, container } = daemonSet(objects);
    expect(container.securityContext).toEqual({
      runAsUser: 0,
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(pod.securityContext).toEqual({ seccompProfile: { type: 'RuntimeDefault' } });
    const text = JSON.stringify(objects);
    for (const forbidden of [
      'privileged',
      'hostPID',
      'hostNetwork',
      'hostIPC',
      '"add"',
      'SYS_PTRACE',
      'SYS_ADMIN',
    ])
      expect(text).not.toContain(forbidden);
  });

  it('configures the agent as the DaemonSet, from the downward API and the install token Secret', () => {
    const { pod, container } = daemonSet(objects);
    expect(pod.serviceAccountName).toBe('proxima-node-agent');
    expect(container.image).toBe(OPTIONS.image);
    expect(env(container)).toEqual({
      PROXIMA_AGENT_TYPE: 'k8s-node-monitor',
      PROXIMA_K8S_NODE_METRICS: 'true',
      PROXIMA_K8S_METRICS_INTERVAL: '60s',
      PROXIMA_K8S_NODE_NAME: { fieldRef: { fieldPath: 'spec.nodeName' } },
      PROXIMA_HOST_IP: { fieldRef: { fieldPath: 'status.hostIP' } },
      PROXIMA_KUBELET_URL: 'https://$(PROXIMA_HOST_IP):10250',
      PROXIMA_KUBELET_INSECURE_SKIP_VERIFY: 'true',
      PROXIMA_BACKEND_URL: OPTIONS.backendUrl,
      PROXIMA_INSTALL_TOKEN: { secretKeyRef: { name: 'proxima-install-token', key: 'token' } },
      PROXIMA_HOST_ROOT: '/host',
      PROXIMA_DATA_DIR: '/var/lib/proxima-agent',
      PROXIMA_LOG_DIR: '/var/log/pods',
      PROXIMA_HEALTH_LISTEN: ':9810',
    });
    // $(PROXIMA_HOST_IP) expands only from a variable defined before it.
    const names = container.env.map((e) => e.name);
    expect(names.indexOf('PROXIMA_HOST_IP')).toBeLessThan(names.indexOf('PROXIMA_KUBELET_URL'));
    expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'health' });
    expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'health' });
    expect(container.ports).toEqual([{ name: 'health', containerPort: 9810, protocol: 'TCP' }]);
    expect(container.resources.limits).toEqual({ cpu: '500m', memory: '256Mi' });
    expect(pod.tolerations).toEqual([{ operator: 'Exists' }]);
  });

  it('mounts the host’s files read-only under /host, the pods’ logs read-only and the data directory', () => {
    const { pod, container } = daemonSet(
      renderNodeAgent({ ...OPTIONS, hostDataDir: '/var/lib/proxima-node-agent' }),
    );
    const mounts = Object.fromEntries(
      container.volumeMounts.map((m) => {
        const volume = pod.volumes.find((v) => v.name === m.name);
        return [
          m.mountPath,
          `${volume?.hostPath.path ?? '?'} ${volume?.hostPath.type ?? '?'} ${m.readOnly ? 'ro' : 'rw'}`,
        ];
      }),
    );
    expect(mounts).toEqual({
      '/host/etc/hostname': '/etc/hostname File ro',
      '/host/etc/machine-id': '/etc/machine-id File ro',
      '/host/sys/class/dmi/id/product_uuid': '/sys/class/dmi/id/product_uuid File ro',
      '/var/log/pods': '/var/log/pods Directory ro',
      '/var/lib/proxima-agent': '/var/lib/proxima-node-agent DirectoryOrCreate rw',
    });
  });

  it('takes the namespace, interval and a kubelet CA file', () => {
    const custom = renderNodeAgent({
      ...OPTIONS,
      namespace: 'monitoring',
      metricsInterval: '1m30s',
      kubeletCaFile: '/var/run/secrets/kubernetes.io/serviceaccount/ca.crt',
    });
    const { container } = daemonSet(custom);
    expect(env(container)).toMatchObject({
      PROXIMA_K8S_METRICS_INTERVAL: '1m30s',
      PROXIMA_KUBELET_CA_FILE: '/var/run/secrets/kubernetes.io/serviceaccount/ca.crt',
    });
    expect(env(container)).not.toHaveProperty('PROXIMA_KUBELET_INSECURE_SKIP_VERIFY');
    expect(
      custom.filter((o) => o.metadata?.namespace !== undefined).map((o) => o.metadata?.namespace),
    ).toEqual(['monitoring', 'monitoring']);
  });

  it.each([
    [{ image: 'has space' }, 'image'],
    [{ backendUrl: 'http://api.example.com' }, 'backendUrl'],
    [{ namespace: 'Not_A_Name' }, 'namespace'],
    [{ hostDataDir: 'relative/dir' }, 'hostDataDir'],
    [{ hostDataDir: '/' }, 'hostDataDir'],
    [{ metricsInterval: '60' }, 'metricsInterval'],
    [{ kubeletCaFile: 'ca.crt' }, 'kubeletCaFile'],
  ])('refuses %j', (bad, field) => {
    expect(() => renderNodeAgent({ ...OPTIONS, ...bad })).toThrow(InvalidNodeAgentOptionsError);
    expect(() => renderNodeAgent({ ...OPTIONS, ...bad })).toThrow(field);
  });

  it('is YAML that parses back to the same objects', () => {
    expect(parseAllDocuments(toYaml(objects)).map((d) => d.toJS() as unknown)).toEqual(objects);
  });
});
