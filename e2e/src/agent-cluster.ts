import { request } from 'node:https';

import { CONTROL_PLANE_NAME, OPERATOR_NAME, OPERATOR_NAMESPACE, renderAgentStack } from '@noderings/deploy';
import {
  namespaces,
  PROXMOX_INSTANCE_LABEL,
  type ApiResource,
  type KubeClient,
  type KubeObject,
} from '@noderings/kube';
import type { KubeSim } from '@noderings/kube-sim';

import { SandboxError } from './sandbox-error.js';

/** The stack's Deployment needs an image; kube-sim runs no workloads, so it is never applied. */
const OPERATOR_IMAGE = 'noderings/proxmox-operator:sandbox';
const FIELD_MANAGER = 'noderings-sandbox';
/**
 * Longer than any sandbox session. The control plane keeps its token across restarts (kube-sim keeps its
 * signing key in the data folder); the operator gets a new one at every start.
 */
const TOKEN_SECONDS = 30 * 24 * 3600;
/** The sandbox's Proxmox instance id, which its credentials Secret carries as PROXMOX_INSTANCE_LABEL. */
const PROXMOX_INSTANCE = 'default';

function coreResource(kind: string, plural: string): ApiResource<KubeObject> {
  return { group: '', version: 'v1', kind, plural, namespaced: true, hasStatus: false };
}
function rbacResource(kind: string, plural: string): ApiResource<KubeObject> {
  return {
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    kind,
    plural,
    namespaced: true,
    hasStatus: false,
  };
}

/** Where the kinds of the agent stack that kube-sim serves are applied. */
const APPLIED: Readonly<Record<string, ApiResource<KubeObject>>> = {
  Namespace: namespaces,
  ServiceAccount: coreResource('ServiceAccount', 'serviceaccounts'),
  Role: rbacResource('Role', 'roles'),
  RoleBinding: rbacResource('RoleBinding', 'rolebindings'),
};
/**
 * Kinds of the stack left out: the CRDs are installed when kube-sim starts (from the same files), and the
 * operator's Deployment would run nowhere: kube-sim stores Deployments but runs no pods (the sandbox runs
 * the operator as a process of its own; k3s-sim's pod runner is what runs one for `nr`).
 */
const NOT_APPLIED = new Set(['CustomResourceDefinition', 'Deployment']);

/**
 * Sets the simulated agent cluster up for one agent as `nr` would set up a real one (the agent stack:
 * namespaces, service accounts, least-privilege Roles) and returns the kubeconfig the provider uploads
 * to the control plane: the control plane's own service account, which may touch only our resources and
 * Secrets in `{agentId}-operator`.
 */
export async function prepareAgentCluster(sim: KubeSim, admin: KubeClient, agentId: string): Promise<string> {
  for (const object of renderAgentStack({ agentId, image: OPERATOR_IMAGE })) {
    const kind = object.kind ?? '';
    if (NOT_APPLIED.has(kind)) continue;
    const resource = APPLIED[kind];
    if (resource === undefined)
      throw new SandboxError(
        'AGENT_CLUSTER_SETUP_FAILED',
        `the agent stack has a ${kind}, which the sandbox cannot apply`,
      );
    await admin.resource(resource).apply(object, { fieldManager: FIELD_MANAGER, force: true });
  }
  const namespace = `${agentId}-operator`;
  const token = await requestToken(sim, namespace, CONTROL_PLANE_NAME);
  // JSON is YAML, and the control plane reads the kubeconfig as YAML.
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: 'agent-cluster',
        cluster: { server: sim.url, 'certificate-authority-data': Buffer.from(sim.caPem).toString('base64') },
      },
    ],
    users: [{ name: CONTROL_PLANE_NAME, user: { token } }],
    contexts: [{ name: 'agent', context: { cluster: 'agent-cluster', user: CONTROL_PLANE_NAME, namespace } }],
    'current-context': 'agent',
  });
}

/** What the operator needs to reach a Proxmox VE: its API, an API token, the certificate to pin. */
export interface ProxmoxCredentials {
  readonly url: string;
  /** `USER@REALM!TOKENID`. */
  readonly tokenId: string;
  readonly tokenSecret: string;
  /** SHA-256, as pve-sim prints it. */
  readonly fingerprint: string;
}

/**
 * Puts the Proxmox credentials where the agent stack's operator reads them (a labelled Secret in its own
 * namespace, as a provider's `nr` would), replacing those of an earlier start: pve-sim has a new token
 * secret and certificate at every start.
 */
export async function applyProxmoxCredentials(
  admin: KubeClient,
  agentId: string,
  credentials: ProxmoxCredentials,
): Promise<void> {
  const [username = '', tokenName = ''] = credentials.tokenId.split('!');
  const data = {
    PROXMOX_URL: credentials.url,
    PROXMOX_USERNAME: username,
    PROXMOX_TOKEN_ID: tokenName,
    PROXMOX_TOKEN_SECRET: credentials.tokenSecret,
    PROXMOX_TLS_FINGERPRINT: credentials.fingerprint,
  };
  await admin.secrets.apply(
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        namespace: OPERATOR_NAMESPACE,
        name: `proxmox-${agentId}`,
        labels: { [PROXMOX_INSTANCE_LABEL]: PROXMOX_INSTANCE },
      },
      type: 'Opaque',
      data: Object.fromEntries(
        Object.entries(data).map(([key, value]) => [key, Buffer.from(value).toString('base64')]),
      ),
    },
    { fieldManager: FIELD_MANAGER, force: true },
  );
}

/**
 * Writes a kubeconfig for the operator's own service account (`proxmox-operator`), so that it runs with
 * the agent stack's least-privilege Roles, as its Deployment would, not as the cluster's admin.
 */
export async function writeOperatorKubeconfig(sim: KubeSim, path: string): Promise<void> {
  const token = await requestToken(sim, OPERATOR_NAMESPACE, OPERATOR_NAME);
  await sim.writeKubeconfig(path, { user: { token }, namespace: OPERATOR_NAMESPACE });
}

/** A TokenRequest as the admin (`kubectl create token`), which KubeClient has no method for. */
function requestToken(sim: KubeSim, namespace: string, account: string): Promise<string> {
  const path = `/api/v1/namespaces/${namespace}/serviceaccounts/${account}/token`;
  const payload = Buffer.from(
    JSON.stringify({
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: { expirationSeconds: TOKEN_SECONDS },
    }),
  );
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(path, sim.url),
      {
        method: 'POST',
        ca: sim.caPem,
        headers: {
          authorization: `Bearer ${sim.adminToken}`,
          'content-type': 'application/json',
          'content-length': String(payload.length),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const token = res.statusCode === 201 ? tokenOf(text) : undefined;
          if (token === undefined)
            reject(
              new SandboxError(
                'AGENT_CLUSTER_SETUP_FAILED',
                `POST ${path} answered ${String(res.statusCode)}: ${text}`,
              ),
            );
          else resolve(token);
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

function tokenOf(text: string): string | undefined {
  const answer = JSON.parse(text) as { status?: { token?: unknown } };
  return typeof answer.status?.token === 'string' ? answer.status.token : undefined;
}
