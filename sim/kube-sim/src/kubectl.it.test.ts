import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, ok, widgetCrd } from './api-test-client.js';
import { startKubeSim, type KubeSim } from './kube-sim.js';

const run = promisify(execFile);
let sim: KubeSim;
let dir: string;
let kubeconfig: string;

/** Runs the machine's kubectl against the simulator; a missing kubectl fails the test. */
async function kubectl(...args: string[]): Promise<string> {
  // A discovery cache of its own, so that one run never sees another's resources.
  const { stdout } = await run(
    'kubectl',
    ['--kubeconfig', kubeconfig, '--cache-dir', join(dir, 'cache'), ...args],
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

beforeAll(async () => {
  sim = await startKubeSim();
  dir = await mkdtemp(join(tmpdir(), 'kube-sim-kubectl-'));
  kubeconfig = join(dir, 'kubeconfig.yaml');
  await sim.writeKubeconfig(kubeconfig);
  await writeFile(join(dir, 'crd.yaml'), stringify(widgetCrd()));
  await writeFile(
    join(dir, 'widget.yaml'),
    stringify({
      apiVersion: 'test.kube-sim.dev/v1',
      kind: 'Widget',
      metadata: { name: 'w1', namespace: 'default' },
      spec: { size: 3 },
    }),
  );
});

afterAll(async () => {
  await sim.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('kubectl', () => {
  it('applies a CRD and a custom object server-side, with its default validation', async () => {
    expect(await kubectl('apply', '--server-side', '-f', join(dir, 'crd.yaml'))).toContain(
      'customresourcedefinition.apiextensions.k8s.io/widgets.test.kube-sim.dev serverside-applied',
    );
    await kubectl('wait', '--for=condition=Established', 'crd/widgets.test.kube-sim.dev', '--timeout=10s');
    expect(await kubectl('apply', '--server-side', '-f', join(dir, 'widget.yaml'))).toContain(
      'widget.test.kube-sim.dev/w1 serverside-applied',
    );
    // Applying again changes nothing and still succeeds.
    expect(await kubectl('apply', '--server-side', '-f', join(dir, 'widget.yaml'))).toContain(
      'serverside-applied',
    );
  });

  it('gets the object as JSON and as a table with the printer columns', async () => {
    const json = JSON.parse(await kubectl('get', 'widgets', 'w1', '-o', 'json')) as {
      spec: unknown;
      metadata: { generation: number };
    };
    expect(json.spec).toEqual({ size: 3, color: 'blue' });
    expect(json.metadata.generation).toBe(1);
    const table = await kubectl('get', 'widgets');
    expect(table.split('\n')[0]).toMatch(/^NAME\s+SIZE\s+PHASE\s+AGE$/);
    expect(table.split('\n')[1]).toMatch(/^w1\s+3\s+\d+s$/);
    expect(await kubectl('get', 'wix')).toContain('w1');
  });

  it('applies the List that `kubectl get -o json` prints, validating it client-side', async () => {
    await kubectl('create', 'configmap', 'listed', '-n', 'default', '--from-literal=colour=red');
    const list = JSON.parse(await kubectl('get', 'configmaps,widgets', '-n', 'default', '-o', 'json')) as {
      kind: string;
      items: { kind: string; metadata: { name: string }; data?: Record<string, string>; spec?: unknown }[];
    };
    expect(list.kind).toBe('List');
    for (const item of list.items) {
      if (item.metadata.name === 'listed') item.data = { colour: 'green' };
      if (item.kind === 'Widget') item.spec = { size: 5 };
    }
    await writeFile(join(dir, 'list.json'), JSON.stringify(list));
    const out = await kubectl('apply', '-f', join(dir, 'list.json'));
    expect(out).toContain('configmap/listed configured');
    expect(out).toContain('widget.test.kube-sim.dev/w1 configured');
    expect(
      await kubectl('get', 'configmap', 'listed', '-n', 'default', '-o', 'jsonpath={.data.colour}'),
    ).toBe('green');
    expect(await kubectl('get', 'widget', 'w1', '-o', 'jsonpath={.spec.size}')).toBe('5');
    // Other clients get the same document as JSON.
    const swagger = JSON.parse(await kubectl('get', '--raw', '/openapi/v2')) as {
      definitions: Record<string, { required?: string[] }>;
    };
    expect(swagger.definitions['dev.kube-sim.test.v1.Widget']).toBeDefined();
    expect(swagger.definitions['io.k8s.api.rbac.v1.RoleBinding']?.required).toEqual(['roleRef']);
  });

  it('refuses unknown fields and wrong types in a List as kubectl does against kube-apiserver', async () => {
    const list = {
      apiVersion: 'v1',
      kind: 'List',
      items: [
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'typo', namespace: 'default' }, dta: {} },
        {
          apiVersion: 'test.kube-sim.dev/v1',
          kind: 'Widget',
          metadata: { name: 'w2', namespace: 'default', labelz: {} },
          spec: { size: 'big', colour: 'red' },
        },
      ],
    };
    await writeFile(join(dir, 'bad-list.json'), JSON.stringify(list));
    const error = await kubectlFails('apply', '--validate=strict', '-f', join(dir, 'bad-list.json'));
    expect(error).toContain(
      'error validating "' + join(dir, 'bad-list.json') + '": error validating data: [',
    );
    expect(error).toContain(
      'ValidationError(ConfigMap): unknown field "dta" in io.k8s.api.core.v1.ConfigMap',
    );
    expect(error).toContain(
      'ValidationError(Widget.metadata): unknown field "labelz" in io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
    );
    expect(error).toContain(
      'ValidationError(Widget.spec): unknown field "colour" in dev.kube-sim.test.v1.Widget.spec',
    );
    expect(error).toContain(
      'ValidationError(Widget.spec.size): invalid type for dev.kube-sim.test.v1.Widget.spec.size: got "string", expected "integer"',
    );
    expect(error).toContain('turn validation off with --validate=false');
    // Nothing was created.
    expect(await kubectlFails('get', 'configmap', 'typo', '-n', 'default')).toContain('NotFound');
    // Without validation, the server's own checks still apply, item by item.
    const unvalidated = await kubectlFails('apply', '--validate=false', '-f', join(dir, 'bad-list.json'));
    expect(unvalidated).toContain(
      'The Widget "w2" is invalid: spec.size: Invalid value: "string": spec.size in body must be of type integer: "string"',
    );
  });

  it('patches the status subresource', async () => {
    await kubectl(
      'patch',
      'widget',
      'w1',
      '--subresource=status',
      '--type=merge',
      '-p',
      '{"status":{"phase":"Ready"}}',
    );
    expect(await kubectl('get', 'widget', 'w1', '-o', 'jsonpath={.status.phase}')).toBe('Ready');
  });

  it('watches with get -w', async () => {
    const child = spawn('kubectl', [
      '--kubeconfig',
      kubeconfig,
      '--cache-dir',
      join(dir, 'cache'),
      'get',
      'widgets',
      '-w',
      '--output-watch-events',
    ]);
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    try {
      await eventually(() => Promise.resolve(out.includes('w1') ? true : undefined), 10_000);
      await ok(sim, 'PATCH', '/apis/test.kube-sim.dev/v1/namespaces/default/widgets/w1', {
        body: { spec: { size: 4 } },
        contentType: 'application/merge-patch+json',
      });
      await eventually(() => Promise.resolve(/MODIFIED\s+w1\s+4/.test(out) ? true : undefined), 10_000);
    } finally {
      child.kill();
    }
  });

  it('waits in delete until another client removes the finalizer', async () => {
    await kubectl(
      'patch',
      'widget',
      'w1',
      '--type=merge',
      '-p',
      '{"metadata":{"finalizers":["test.kube-sim.dev/hold"]}}',
    );
    const deleting = kubectl('delete', 'widget', 'w1', '--timeout=15s');
    await eventually(async () => {
      const w = await ok(sim, 'GET', '/apis/test.kube-sim.dev/v1/namespaces/default/widgets/w1');
      return (w.metadata as { deletionTimestamp?: string }).deletionTimestamp ? true : undefined;
    }, 10_000);
    await ok(sim, 'PATCH', '/apis/test.kube-sim.dev/v1/namespaces/default/widgets/w1', {
      body: { metadata: { finalizers: null } },
      contentType: 'application/merge-patch+json',
    });
    expect(await deleting).toContain('widget.test.kube-sim.dev "w1" deleted');
  });

  it('creates a token for a service account, which RBAC then limits', async () => {
    await kubectl('create', 'serviceaccount', 'limited', '-n', 'default');
    await kubectl('create', 'role', 'reader', '-n', 'default', '--verb=get,list', '--resource=configmaps');
    await kubectl(
      'create',
      'rolebinding',
      'reader',
      '-n',
      'default',
      '--role=reader',
      '--serviceaccount=default:limited',
    );
    const token = (await kubectl('create', 'token', 'limited', '-n', 'default')).trim();
    expect(token.split('.')).toHaveLength(3);
    await kubectl('--token', token, 'get', 'configmaps', '-n', 'default');
    expect(await kubectlFails('--token', token, 'get', 'secrets', '-n', 'default')).toContain(
      'Error from server (Forbidden): secrets is forbidden: User "system:serviceaccount:default:limited" cannot list resource "secrets" in API group "" in the namespace "default"',
    );
    expect(
      (await kubectl('--token', token, 'auth', 'can-i', 'list', 'configmaps', '-n', 'default')).trim(),
    ).toBe('yes');
    expect(
      await kubectlFails('--token', token, 'auth', 'can-i', 'delete', 'configmaps', '-n', 'default'),
    ).toBe('');
  });

  it('creates built-in objects with its typed commands', async () => {
    await kubectl('create', 'namespace', 'made-by-kubectl');
    await kubectl('create', 'secret', 'generic', 's1', '-n', 'made-by-kubectl', '--from-literal=a=b');
    await kubectl('create', 'configmap', 'c1', '-n', 'made-by-kubectl', '--from-literal=x=y');
    const secret = JSON.parse(
      await kubectl('get', 'secret', 's1', '-n', 'made-by-kubectl', '-o', 'json'),
    ) as { type: string; data: unknown };
    expect(secret).toMatchObject({ type: 'Opaque', data: { a: 'Yg==' } });
    expect(await kubectl('get', 'configmaps', '-n', 'made-by-kubectl')).toMatch(/c1\s+1\s+\d+s/);
  });
});
