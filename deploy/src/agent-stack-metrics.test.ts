import { parseExporterConfig } from '@noderings/pve-exporter';
import { describe, expect, it } from 'vitest';

import {
  InvalidAgentStackOptionsError,
  metricsWriteCredentialSecret,
  pveExporterConfigSecret,
  renderAgentStack,
  renderAlloyConfig,
  type AgentStackOptions,
} from './index.js';

const AGENT = '7d2c9e4a-1b3f-4c5d-8e6f-9a0b1c2d3e4f';
const FINGERPRINT = Array.from({ length: 32 }, () => 'AB').join(':');
const METRICS = {
  remoteWriteUrl: 'https://api.noderings.example/api/v1/write',
  proxmoxEndpoint: 'pve1.provider.example:8006',
};
const IMAGES = {
  pveExporter: 'registry.example/noderings/pve-exporter:1.0.0',
  alloy: 'docker.io/grafana/alloy:v1.11.0',
};
const OPTIONS: AgentStackOptions = {
  agentId: AGENT,
  image: 'registry.example/noderings/proxmox-operator:1.0.0',
  images: IMAGES,
  metrics: METRICS,
};

interface Container {
  image: string;
  args: string[];
  env?: { name: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }[];
  ports: { name: string; containerPort: number }[];
  volumeMounts: { name: string; mountPath: string; readOnly?: boolean }[];
  securityContext: Record<string, unknown>;
  readinessProbe: { httpGet: { path: string; port: string } };
}
interface Workload {
  kind: string;
  metadata: { name: string; namespace: string };
  spec: {
    replicas: number;
    selector: { matchLabels: Record<string, string> };
    template: {
      metadata: { labels: Record<string, string>; annotations?: Record<string, string> };
      spec: {
        serviceAccountName: string;
        automountServiceAccountToken: boolean;
        securityContext: Record<string, unknown>;
        containers: Container[];
        volumes: Record<string, unknown>[];
      };
    };
  };
}

const objects = renderAgentStack(OPTIONS);

function find(kind: string, name: string): unknown {
  const found = objects.find((o) => o.kind === kind && o.metadata?.name === name);
  if (found === undefined) throw new Error(`no ${kind} ${name}`);
  return found;
}

function workload(name: string): Workload {
  return find('Deployment', name) as Workload;
}

function container(name: string): Container {
  const c = workload(name).spec.template.spec.containers[0];
  if (c === undefined) throw new Error(`no container in ${name}`);
  return c;
}

describe('renderAgentStack with metrics', () => {
  it('renders nothing of the metrics path without metrics', () => {
    const bare = renderAgentStack({ agentId: AGENT, image: OPTIONS.image });
    expect(bare.filter((o) => o.kind === 'Deployment').map((o) => o.metadata?.name)).toEqual([
      'proxmox-operator',
    ]);
  });

  it('adds the pve-exporter and Alloy to proxmox-system, after the operator', () => {
    const added = objects.slice(
      objects.findIndex((o) => o.metadata?.name === 'proxmox-operator' && o.kind === 'Deployment') + 1,
    );
    expect(
      added.map((o) => `${o.kind ?? ''}/${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`),
    ).toEqual([
      'ServiceAccount/proxmox-system/pve-exporter',
      'Deployment/proxmox-system/pve-exporter',
      'Service/proxmox-system/pve-exporter',
      'ServiceAccount/proxmox-system/alloy',
      'ConfigMap/proxmox-system/alloy-config',
      'Deployment/proxmox-system/alloy',
    ]);
    // Neither talks to the Kubernetes API: no token mounted, no Role.
    for (const name of ['pve-exporter', 'alloy']) {
      expect(workload(name).spec.template.spec.automountServiceAccountToken).toBe(false);
      expect(objects.filter((o) => o.kind === 'RoleBinding' && o.metadata?.name === name)).toEqual([]);
    }
  });

  it('runs the exporter on its port with pve.yml from the pve-exporter-config Secret', () => {
    const deployment = workload('pve-exporter');
    const exporter = container('pve-exporter');
    expect(exporter.image).toBe('registry.example/noderings/pve-exporter:1.0.0');
    expect(exporter.args).toEqual(['--listen', '0.0.0.0:9221', '--config', '/etc/prometheus/pve.yml']);
    expect(exporter.volumeMounts).toEqual([{ name: 'config', mountPath: '/etc/prometheus', readOnly: true }]);
    expect(deployment.spec.template.spec.volumes).toEqual([
      {
        name: 'config',
        secret: {
          secretName: 'pve-exporter-config',
          items: [{ key: 'pve.yml', path: 'pve.yml' }],
          defaultMode: 0o440,
        },
      },
    ]);
    expect(exporter.readinessProbe.httpGet).toEqual({ path: '/', port: 'http' });
    const service = find('Service', 'pve-exporter') as {
      spec: { selector: Record<string, string>; ports: unknown[] };
    };
    expect(service.spec.ports).toEqual([{ name: 'http', port: 9221, targetPort: 'http', protocol: 'TCP' }]);
    expect(deployment.spec.template.metadata.labels).toMatchObject(service.spec.selector);
    expect(exporter.ports).toEqual([{ name: 'http', containerPort: 9221, protocol: 'TCP' }]);
  });

  it("gives Alloy the forwarding rules, scraping the exporter's Service, with the credential from its Secret", () => {
    const alloy = container('alloy');
    const config = (find('ConfigMap', 'alloy-config') as { data: Record<string, string> }).data[
      'config.alloy'
    ];
    expect(config).toBe(
      renderAlloyConfig({
        exporter: 'pve-exporter.proxmox-system.svc:9221',
        platformEndpoint: 'pve1.provider.example:8006',
        agentId: AGENT,
        remoteWriteUrl: 'https://api.noderings.example/api/v1/write',
        bearerTokenEnv: 'NR_METRICS_WRITE_TOKEN',
      }),
    );
    expect(config).toContain('bearer_token = sys.env("NR_METRICS_WRITE_TOKEN")');
    expect(alloy.image).toBe('docker.io/grafana/alloy:v1.11.0');
    expect(alloy.args.slice(0, 2)).toEqual(['run', '/etc/alloy/config.alloy']);
    expect(alloy.env).toEqual([
      {
        name: 'NR_METRICS_WRITE_TOKEN',
        valueFrom: { secretKeyRef: { name: 'metrics-write-credential', key: 'token' } },
      },
    ]);
    expect(alloy.volumeMounts.map((m) => m.mountPath)).toContain('/etc/alloy');
    expect(workload('alloy').spec.replicas).toBe(1);
  });

  it('rolls Alloy when its configuration changes', () => {
    const hash = (o: AgentStackOptions) =>
      (
        renderAgentStack(o).find(
          (x) => x.kind === 'Deployment' && x.metadata?.name === 'alloy',
        ) as unknown as Workload
      ).spec.template.metadata.annotations?.['noderings.com/config-sha256'];
    const other = {
      ...OPTIONS,
      metrics: { ...METRICS, proxmoxEndpoint: 'pve2.provider.example:8006' },
    };
    expect(hash(OPTIONS)).toMatch(/^[0-9a-f]{64}$/);
    expect(hash(other)).not.toBe(hash(OPTIONS));
  });

  it('runs both as the operator does: non-root, read-only root, no capabilities, RuntimeDefault seccomp', () => {
    for (const name of ['pve-exporter', 'alloy']) {
      expect(workload(name).spec.template.spec.securityContext).toMatchObject({
        runAsNonRoot: true,
        seccompProfile: { type: 'RuntimeDefault' },
      });
      expect(container(name).securityContext).toEqual({
        runAsNonRoot: true,
        readOnlyRootFilesystem: true,
        allowPrivilegeEscalation: false,
        capabilities: { drop: ['ALL'] },
      });
    }
  });

  it('refuses metrics without images, a remote-write URL that is not http(s), an endpoint without a port', () => {
    const { images: _images, ...withoutImages } = OPTIONS;
    expect(() => renderAgentStack(withoutImages)).toThrow(InvalidAgentStackOptionsError);
    expect(() =>
      renderAgentStack({
        ...OPTIONS,
        metrics: { ...METRICS, remoteWriteUrl: 'ftp://x/api/v1/write' },
      }),
    ).toThrow(/metrics.remoteWriteUrl/);
    expect(() =>
      renderAgentStack({
        ...OPTIONS,
        metrics: { ...METRICS, proxmoxEndpoint: 'pve1.provider.example' },
      }),
    ).toThrow(/metrics.proxmoxEndpoint/);
    expect(() =>
      renderAgentStack({ ...OPTIONS, images: { ...IMAGES, alloy: 'grafana/alloy latest' } }),
    ).toThrow(/images.alloy/);
  });
});

describe('the Secrets nr writes for the metrics path', () => {
  it('writes pve.yml as the exporter reads it, the certificate pinned by its fingerprint', async () => {
    const secret = pveExporterConfigSecret({
      username: 'prometheus@pve',
      tokenName: 'exporter',
      tokenSecret: '0b6f7a1e-5c2d-4b1e-9a7f-3c2e1d0f9a8b',
      tlsFingerprint: FINGERPRINT,
    });
    expect(secret.metadata).toMatchObject({ name: 'pve-exporter-config', namespace: 'proxmox-system' });
    const config = await parseExporterConfig(secret.stringData?.['pve.yml'] ?? '', 'pve.yml');
    expect(config.modules.get('default')?.client).toEqual({
      token: {
        userid: 'prometheus@pve',
        tokenId: 'exporter',
        secret: '0b6f7a1e-5c2d-4b1e-9a7f-3c2e1d0f9a8b',
      },
      tls: { fingerprint: FINGERPRINT },
    });
  });

  it('verifies with the system CAs without a fingerprint', async () => {
    const secret = pveExporterConfigSecret({
      username: 'a@pve',
      tokenName: 'exporter',
      tokenSecret: 's3cr3t',
    });
    const config = await parseExporterConfig(secret.stringData?.['pve.yml'] ?? '', 'pve.yml');
    expect(config.modules.get('default')?.client.tls).toEqual({});
  });

  it('puts the metrics write credential under token', () => {
    expect(metricsWriteCredentialSecret('nrm_abc')).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: 'metrics-write-credential',
        namespace: 'proxmox-system',
        labels: { 'app.kubernetes.io/part-of': 'noderings' },
      },
      type: 'Opaque',
      stringData: { token: 'nrm_abc' },
    });
  });
});
