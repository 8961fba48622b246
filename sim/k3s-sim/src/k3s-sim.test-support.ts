import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';

import { KubeClient, type ApiResource, type KubeObject } from '@noderings/kube';

import { podLogPath, type K3sLayout } from './layout.js';

/** `kubectl apply --server-side -f -` with the simulated host's admin kubeconfig, as `nr` applies the stack. */
export function kubectlApply(layout: K3sLayout, yaml: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'kubectl',
      ['--kubeconfig', layout.kubeconfig, 'apply', '--server-side', '--field-manager=nr', '-f', '-'],
      (error, stdout, stderr) => {
        if (error) reject(new Error(`kubectl apply failed: ${stderr}`));
        else resolve(stdout);
      },
    );
    child.stdin?.end(yaml);
  });
}

interface Deployment extends KubeObject {
  status?: { availableReplicas?: number; conditions?: { type: string; status: string; message?: string }[] };
}
const DEPLOYMENTS: ApiResource<Deployment> = {
  group: 'apps',
  version: 'v1',
  kind: 'Deployment',
  plural: 'deployments',
  namespaced: true,
  hasStatus: true,
};

/** Polls until `check` returns a value other than undefined; the last reason goes into the timeout error. */
export async function eventually<T>(
  what: string,
  check: () => Promise<T | undefined>,
  timeoutMs: number,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Waits for the Deployment's availableReplicas to reach 1; a timeout says what its pod logged. */
export async function waitAvailable(
  layout: K3sLayout,
  namespace: string,
  name: string,
  timeoutMs: number,
): Promise<Deployment> {
  const client = new KubeClient({ kubeconfigPath: layout.kubeconfig });
  try {
    return await eventually(
      `Deployment ${namespace}/${name} to be available`,
      async () => {
        const deployment = await client.resource(DEPLOYMENTS).find({ namespace, name });
        return deployment?.status?.availableReplicas === 1 ? deployment : undefined;
      },
      timeoutMs,
    );
  } catch (e: unknown) {
    const log = await readFile(podLogPath(layout, namespace, name), 'utf8').catch(() => '(no log)');
    throw new Error(`${e instanceof Error ? e.message : String(e)}; its log:\n${log.slice(-3000)}`, {
      cause: e,
    });
  } finally {
    await client.close();
  }
}
