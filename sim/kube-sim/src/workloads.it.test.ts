import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call, ok, type Json } from './api-test-client.js';
import { startKubeSim, type KubeSim } from './kube-sim.js';

const run = promisify(execFile);
let sim: KubeSim;
let dir: string;

/** The machine's kubectl against the simulator, with a discovery cache of this test's own. */
async function kubectl(...args: string[]): Promise<string> {
  const { stdout } = await run(
    'kubectl',
    ['--kubeconfig', join(dir, 'kubeconfig.yaml'), '--cache-dir', join(dir, 'cache'), ...args],
    { timeout: 20_000 },
  );
  return stdout;
}

async function kubectlFails(...args: string[]): Promise<string> {
  try {
    await kubectl(...args);
  } catch (e: unknown) {
    return (e as { stderr?: string }).stderr ?? String(e);
  }
  throw new Error(`kubectl ${args.join(' ')} succeeded`);
}

/** Writes `objects` as a file kubectl reads and returns its path. */
async function manifest(name: string, ...objects: Json[]): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects }));
  return path;
}

function deployment(name: string, labels: Record<string, string> = { app: name }): Json {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default' },
    spec: {
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels },
        spec: {
          containers: [
            {
              name: 'agent',
              image: 'ghcr.io/noderings/agent:1.0',
              args: ['--verbose'],
              env: [{ name: 'MODE', value: 'demo' }],
              ports: [{ containerPort: 8080 }],
            },
          ],
        },
      },
    },
  };
}

const daemonSet: Json = {
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  metadata: { name: 'node-agent', namespace: 'default' },
  spec: {
    selector: { matchLabels: { app: 'node-agent' } },
    template: {
      metadata: { labels: { app: 'node-agent' } },
      spec: {
        containers: [{ name: 'agent', image: 'ghcr.io/noderings/node-agent:1.0' }],
        tolerations: [{ operator: 'Exists' }],
      },
    },
  },
};

const service: Json = {
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'api', namespace: 'default' },
  spec: { selector: { app: 'api' }, ports: [{ name: 'http', port: 80, targetPort: 8080 }] },
};

interface Listed {
  items: {
    kind: string;
    metadata: { name: string; resourceVersion: string; generation?: number };
    spec: Json;
  }[];
}

beforeEach(async () => {
  sim = await startKubeSim();
  dir = await mkdtemp(join(tmpdir(), 'kube-sim-workloads-'));
  await sim.writeKubeconfig(join(dir, 'kubeconfig.yaml'));
});

afterEach(async () => {
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

describe('workloads', () => {
  it('are listed by kubectl api-resources with their short names, scope and category', async () => {
    const out = await kubectl('api-resources', '-o', 'wide');
    expect(out).toMatch(/^deployments\s+deploy\s+apps\/v1\s+true\s+Deployment\s+.*\ball\b/m);
    expect(out).toMatch(/^daemonsets\s+ds\s+apps\/v1\s+true\s+DaemonSet\s+.*\ball\b/m);
    expect(out).toMatch(/^services\s+svc\s+v1\s+true\s+Service\s+.*\ball\b/m);
    expect(out).toMatch(/^nodes\s+no\s+v1\s+false\s+Node\s/m);
    const apps = await ok(sim, 'GET', '/apis/apps/v1');
    expect((apps.resources as { name: string }[]).map((r) => r.name)).toEqual([
      'deployments',
      'deployments/status',
      'daemonsets',
      'daemonsets/status',
    ]);
  });

  it('applies a Deployment, a DaemonSet and a Service server-side, defaulted, and re-applies without a change', async () => {
    const file = await manifest('stack.json', deployment('api'), daemonSet, service);
    const args = ['apply', '--server-side', '--field-manager=nr', '-f', file];
    const out = await kubectl(...args);
    expect(out).toContain('deployment.apps/api serverside-applied');
    expect(out).toContain('daemonset.apps/node-agent serverside-applied');
    expect(out).toContain('service/api serverside-applied');
    const got = JSON.parse(await kubectl('get', 'deploy,svc,ds', '-n', 'default', '-o', 'json')) as Listed;
    const byKind = new Map(got.items.map((i) => [i.kind, i]));
    const deploy = byKind.get('Deployment');
    expect(deploy?.metadata.generation).toBe(1);
    expect(deploy?.spec).toMatchObject({
      replicas: 1,
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
      template: {
        spec: {
          restartPolicy: 'Always',
          containers: [{ name: 'agent', imagePullPolicy: 'IfNotPresent', ports: [{ protocol: 'TCP' }] }],
        },
      },
    });
    expect(byKind.get('DaemonSet')?.spec).toMatchObject({
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
    });
    const svc = byKind.get('Service')?.spec;
    expect(svc).toMatchObject({ type: 'ClusterIP', sessionAffinity: 'None', ports: [{ protocol: 'TCP' }] });
    expect(svc?.clusterIP).toMatch(/^10\.43\.\d+\.\d+$/);
    expect(svc?.clusterIPs).toEqual([svc?.clusterIP]);

    await kubectl(...args);
    const again = JSON.parse(await kubectl('get', 'deploy,svc,ds', '-n', 'default', '-o', 'json')) as Listed;
    expect(again.items.map((i) => i.metadata.resourceVersion)).toEqual(
      got.items.map((i) => i.metadata.resourceVersion),
    );
  });

  it('refuses a Deployment whose selector does not match its template, and a changed selector', async () => {
    const bad = await manifest('bad.json', deployment('web', { app: 'other', tier: 'front' }));
    const error = await kubectlFails('apply', '--server-side', '-f', bad);
    expect(error).toContain(
      'The Deployment "web" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"other", "tier":"front"}: `selector` does not match template `labels`',
    );
    await kubectl('apply', '--server-side', '-f', await manifest('web.json', deployment('web')));
    const changed = deployment('web', { app: 'web2' });
    (changed.spec as Json).selector = { matchLabels: { app: 'web2' } };
    const immutable = await kubectlFails(
      'apply',
      '--server-side',
      '-f',
      await manifest('web2.json', changed),
    );
    expect(immutable).toContain(
      'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"web2"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
    );
    const reply = await call(sim, 'POST', '/apis/apps/v1/namespaces/default/deployments', {
      body: {
        ...deployment('noimage'),
        spec: {
          replicas: -1,
          selector: { matchLabels: { app: 'noimage' } },
          template: { metadata: { labels: { app: 'noimage' } }, spec: { containers: [{ name: 'c' }] } },
        },
      },
    });
    expect(reply.status).toBe(422);
    expect(reply.json?.message).toBe(
      'Deployment.apps "noimage" is invalid: [spec.replicas: Invalid value: -1: must be greater than or equal to 0, spec.template.spec.containers[0].image: Required value]',
    );
  });

  it('refuses a Service port out of range and a changed cluster IP', async () => {
    const reply = await call(sim, 'POST', '/api/v1/namespaces/default/services', {
      body: { ...service, spec: { ports: [{ port: 70000 }] } },
    });
    expect(reply.json?.message).toBe(
      // The target port defaults to the port, so kube reports it too.
      'Service "api" is invalid: [spec.ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive, spec.ports[0].targetPort: Invalid value: 70000: must be between 1 and 65535, inclusive]',
    );
    const created = await ok(sim, 'POST', '/api/v1/namespaces/default/services', { body: service });
    const reapplied = await call(sim, 'PATCH', '/api/v1/namespaces/default/services/api', {
      contentType: 'application/merge-patch+json',
      body: { spec: { clusterIP: '10.43.99.99', clusterIPs: ['10.43.99.99'] } },
    });
    expect(reapplied.status).toBe(422);
    expect(reapplied.json?.message).toBe(
      'Service "api" is invalid: spec.clusterIPs[0]: Invalid value: []string{"10.43.99.99"}: may not change once set',
    );
    // An update that leaves the address out keeps the allocated one.
    const { clusterIP: _ip, clusterIPs: _ips, ...spec } = created.spec as Json;
    const updated = await ok(sim, 'PUT', '/api/v1/namespaces/default/services/api', {
      body: { ...created, spec: { ...spec, selector: { app: 'api2' } } },
    });
    expect((updated.spec as Json).clusterIP).toBe((created.spec as Json).clusterIP);
  });

  it('gives NodePort services a node port, kept across updates, and prints services and deployments as kube does', async () => {
    const nodePort: Json = {
      ...service,
      metadata: { name: 'np', namespace: 'default' },
      spec: { ...(service.spec as Json), type: 'NodePort' },
    };
    const file = await manifest('np.json', nodePort, deployment('api'));
    await kubectl('apply', '--server-side', '-f', file);
    const port = Number(
      await kubectl('get', 'svc', 'np', '-n', 'default', '-o', 'jsonpath={.spec.ports[0].nodePort}'),
    );
    expect(port).toBeGreaterThanOrEqual(30000);
    expect(port).toBeLessThanOrEqual(32767);
    await kubectl('label', 'svc', 'np', '-n', 'default', 'tier=edge');
    await kubectl('apply', '--server-side', '-f', file);
    expect(
      await kubectl('get', 'svc', 'np', '-n', 'default', '-o', 'jsonpath={.spec.ports[0].nodePort}'),
    ).toBe(String(port));
    const table = await kubectl('get', 'svc,deploy', '-n', 'default');
    expect(table).toMatch(
      new RegExp(
        `^service/np\\s+NodePort\\s+10\\.43\\.\\d+\\.\\d+\\s+<none>\\s+80:${port}/TCP\\s+\\d+s$`,
        'm',
      ),
    );
    expect(table).toMatch(/^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE$/m);
    expect(table).toMatch(/^deployment\.apps\/api\s+0\/1\s+0\s+0\s+\d+s$/m);
  });

  it('applies client-side and patches a Deployment by container name, and writes its status', async () => {
    const file = await manifest('api.json', deployment('api'));
    expect(await kubectl('apply', '-f', file)).toContain('deployment.apps/api created');
    const changed = deployment('api');
    const container = ((changed.spec as Json).template as { spec: { containers: Json[] } }).spec
      .containers[0];
    if (container) container.image = 'ghcr.io/noderings/agent:1.1';
    expect(await kubectl('apply', '-f', await manifest('api2.json', changed))).toContain(
      'deployment.apps/api configured',
    );
    await kubectl(
      'patch',
      'deploy',
      'api',
      '-n',
      'default',
      '-p',
      JSON.stringify({
        spec: { template: { spec: { containers: [{ name: 'sidecar', image: 'busybox:1.36' }] } } },
      }),
    );
    const got = JSON.parse(await kubectl('get', 'deploy', 'api', '-n', 'default', '-o', 'json')) as {
      metadata: { generation: number };
      spec: { template: { spec: { containers: { name: string; image: string; env?: unknown }[] } } };
    };
    expect(got.spec.template.spec.containers.map((c) => [c.name, c.image])).toEqual([
      ['agent', 'ghcr.io/noderings/agent:1.1'],
      ['sidecar', 'busybox:1.36'],
    ]);
    expect(got.spec.template.spec.containers[0]?.env).toEqual([{ name: 'MODE', value: 'demo' }]);
    expect(got.metadata.generation).toBe(3);

    await kubectl(
      'patch',
      'deploy',
      'api',
      '-n',
      'default',
      '--subresource=status',
      '--type=merge',
      '-p',
      '{"status":{"availableReplicas":1}}',
    );
    const after = JSON.parse(await kubectl('get', 'deploy', 'api', '-n', 'default', '-o', 'json')) as {
      metadata: { generation: number };
      status: Json;
    };
    expect(after.status).toEqual({ availableReplicas: 1 });
    expect(after.metadata.generation).toBe(3);
  });

  it('validates a List of workloads on the client against the OpenAPI definitions', async () => {
    const typo = deployment('typo');
    ((typo.spec as Json).template as { spec: { containers: Json[] } }).spec.containers[0] = {
      name: 'agent',
      image: 'x:1',
      imag: 'y',
    };
    const error = await kubectlFails('apply', '-f', await manifest('typo.json', typo, service));
    expect(error).toContain('unknown field "imag" in io.k8s.api.core.v1.Container');
    expect(await kubectl('apply', '-f', await manifest('fine.json', deployment('fine'), service))).toContain(
      'service/api created',
    );
  });

  it('stores Nodes created by a client and lists them', async () => {
    const node = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'worker-1', labels: { 'kubernetes.io/hostname': 'worker-1' } },
      spec: { podCIDR: '10.42.1.0/24' },
    };
    expect(await kubectl('apply', '--server-side', '-f', await manifest('node.json', node))).toContain(
      'node/worker-1 serverside-applied',
    );
    await kubectl(
      'patch',
      'node',
      'worker-1',
      '--subresource=status',
      '--type=merge',
      '-p',
      JSON.stringify({ status: { conditions: [{ type: 'Ready', status: 'True' }] } }),
    );
    const nodes = JSON.parse(await kubectl('get', 'nodes', '-o', 'json')) as {
      items: { metadata: { name: string; namespace?: string }; status: Json }[];
    };
    expect(nodes.items.map((n) => n.metadata.name)).toEqual(['worker-1']);
    expect(nodes.items[0]?.metadata.namespace).toBeUndefined();
    expect(nodes.items[0]?.status).toEqual({ conditions: [{ type: 'Ready', status: 'True' }] });
  });
});
