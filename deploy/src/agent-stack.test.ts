import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';

import { InvalidAgentStackOptionsError, renderAgentStack, toYaml } from './index.js';
import type { Role } from './rbac-types.js';

const AGENT = '7d2c9e4a-1b3f-4c5d-8e6f-9a0b1c2d3e4f';
const objects = renderAgentStack({ agentId: AGENT, image: 'registry.example/noderings/operator:1.0.0' });

interface Container {
  image: string;
  args: string[];
  securityContext: Record<string, unknown>;
  resources: { requests: unknown; limits: unknown };
  livenessProbe: { httpGet: { path: string } };
  readinessProbe: { httpGet: { path: string } };
}
interface DeploymentSpec {
  replicas: number;
  template: { spec: { serviceAccountName: string; containers: Container[] } };
}

function deployment(): DeploymentSpec {
  const found = objects.find((o) => o.kind === 'Deployment') as { spec: DeploymentSpec } | undefined;
  if (found === undefined) throw new Error('no Deployment');
  return found.spec;
}

describe('renderAgentStack', () => {
  it('runs two operators on the watch namespace with leader election, probes and limits', () => {
    const spec = deployment();
    const container = spec.template.spec.containers[0];
    expect(spec.replicas).toBe(2);
    expect(spec.template.spec.serviceAccountName).toBe('proxmox-operator');
    expect(container?.image).toBe('registry.example/noderings/operator:1.0.0');
    expect(container?.args.join(' ')).toContain(
      `--watch-namespace ${AGENT}-operator --operator-namespace proxmox-system`,
    );
    expect(container?.args).toContain('--leader-election');
    expect(container?.livenessProbe.httpGet.path).toBe('/healthz');
    expect(container?.readinessProbe.httpGet.path).toBe('/readyz');
    expect(container?.securityContext).toMatchObject({
      runAsNonRoot: true,
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
    });
    expect(container?.resources.limits).toBeDefined();
  });

  it('grants nothing cluster-wide and the control plane nothing outside its namespace', () => {
    const kinds = objects.map((o) => o.kind);
    expect(kinds).not.toContain('ClusterRole');
    expect(kinds).not.toContain('ClusterRoleBinding');
    const roles = objects.filter((o): o is Role => o.kind === 'Role');
    const secretNamespaces = roles
      .filter((r) => r.rules.some((rule) => rule.resources.includes('secrets')))
      .map((r) => `${r.metadata?.name ?? ''}@${r.metadata?.namespace ?? ''}`)
      .sort();
    expect(secretNamespaces).toEqual(
      [
        `noderings-control-plane@${AGENT}-operator`,
        `proxmox-operator@${AGENT}-operator`,
        'proxmox-operator@proxmox-system',
      ].sort(),
    );
    const bindings = objects.filter((o) => o.kind === 'RoleBinding');
    expect(
      bindings
        .filter((b) => b.metadata?.name === 'noderings-control-plane')
        .map((b) => b.metadata?.namespace),
    ).toEqual([`${AGENT}-operator`]);
  });

  it('includes the six CRDs and both namespaces', () => {
    expect(objects.filter((o) => o.kind === 'CustomResourceDefinition')).toHaveLength(6);
    expect(objects.filter((o) => o.kind === 'Namespace').map((o) => o.metadata?.name)).toEqual([
      'proxmox-system',
      `${AGENT}-operator`,
    ]);
  });

  it('refuses an agent id that cannot name a namespace, and a bad replica count', () => {
    expect(() => renderAgentStack({ agentId: 'Not_A_Label', image: 'x' })).toThrow(
      InvalidAgentStackOptionsError,
    );
    expect(() => renderAgentStack({ agentId: AGENT, image: 'x', replicas: 0 })).toThrow(
      InvalidAgentStackOptionsError,
    );
  });
});

describe('toYaml', () => {
  it('is a multi-document stream that parses back to the same objects', () => {
    const documents = parseAllDocuments(toYaml(objects)).map((d) => d.toJS() as unknown);
    expect(documents).toEqual(objects);
  });
});
