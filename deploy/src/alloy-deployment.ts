import { createHash } from 'node:crypto';

import type { KubeObject } from '@noderings/kube';

import type { AgentStack } from './agent-stack-options.js';
import { ALLOY_HTTP_PORT, ALLOY_NAME, OPERATOR_NAMESPACE } from './agent-stack-options.js';
import { renderAlloyConfig } from './metrics-forwarding-config.js';
import { METRICS_WRITE_CREDENTIAL_KEY, METRICS_WRITE_CREDENTIAL_SECRET } from './metrics-secrets.js';
import {
  CONTAINER_SECURITY_CONTEXT,
  MOUNTED_FILE_MODE,
  POD_SECURITY_CONTEXT,
  httpProbe,
} from './pod-security.js';
import { PVE_EXPORTER_ADDRESS } from './pve-exporter-deployment.js';

const LABELS = { 'app.kubernetes.io/name': ALLOY_NAME, 'app.kubernetes.io/part-of': 'noderings' };
const ALLOY_CONFIG_MAP = 'alloy-config';
const CONFIG_KEY = 'config.alloy';
const CONFIG_DIR = '/etc/alloy';
/** Alloy's write-ahead log; an emptyDir, since the root filesystem is read-only. */
const DATA_DIR = '/var/lib/alloy/data';
/** The variable the configuration reads the metrics write credential from (`sys.env`). */
const TOKEN_ENV = 'NR_METRICS_WRITE_TOKEN';

/**
 * Alloy: its account (no API access), the configuration rendered from the forwarding rules in a
 * ConfigMap, and a Deployment of one (two would send every sample twice) with the metrics write
 * credential in its environment. The pod template carries the configuration's hash, so that a new
 * configuration rolls the pod.
 */
export function alloyObjects(stack: Required<Pick<AgentStack, 'metrics' | 'agentId'>>): KubeObject[] {
  const metadata = { name: ALLOY_NAME, namespace: OPERATOR_NAMESPACE, labels: LABELS };
  const config = renderAlloyConfig({
    exporter: PVE_EXPORTER_ADDRESS,
    platformEndpoint: stack.metrics.proxmoxEndpoint,
    agentId: stack.agentId,
    remoteWriteUrl: stack.metrics.remoteWriteUrl,
    bearerTokenEnv: TOKEN_ENV,
  });
  const deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata,
    spec: {
      replicas: 1,
      strategy: { type: 'Recreate' },
      selector: { matchLabels: { 'app.kubernetes.io/name': ALLOY_NAME } },
      template: {
        metadata: {
          labels: LABELS,
          annotations: {
            'noderings.com/config-sha256': createHash('sha256').update(config).digest('hex'),
          },
        },
        spec: {
          serviceAccountName: ALLOY_NAME,
          automountServiceAccountToken: false,
          securityContext: POD_SECURITY_CONTEXT,
          containers: [
            {
              name: 'alloy',
              image: stack.metrics.images.alloy,
              args: [
                'run',
                `${CONFIG_DIR}/${CONFIG_KEY}`,
                `--server.http.listen-addr=0.0.0.0:${String(ALLOY_HTTP_PORT)}`,
                `--storage.path=${DATA_DIR}`,
              ],
              env: [
                {
                  name: TOKEN_ENV,
                  valueFrom: {
                    secretKeyRef: {
                      name: METRICS_WRITE_CREDENTIAL_SECRET,
                      key: METRICS_WRITE_CREDENTIAL_KEY,
                    },
                  },
                },
              ],
              ports: [{ name: 'http', containerPort: ALLOY_HTTP_PORT, protocol: 'TCP' }],
              livenessProbe: httpProbe('/-/ready', 'http', 20),
              readinessProbe: httpProbe('/-/ready', 'http', 10),
              volumeMounts: [
                { name: 'config', mountPath: CONFIG_DIR, readOnly: true },
                { name: 'data', mountPath: DATA_DIR },
              ],
              securityContext: CONTAINER_SECURITY_CONTEXT,
              resources: {
                requests: { cpu: '50m', memory: '128Mi' },
                limits: { cpu: '1', memory: '512Mi' },
              },
            },
          ],
          volumes: [
            { name: 'config', configMap: { name: ALLOY_CONFIG_MAP, defaultMode: MOUNTED_FILE_MODE } },
            { name: 'data', emptyDir: {} },
          ],
        },
      },
    },
  };
  const configMap = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: ALLOY_CONFIG_MAP, namespace: OPERATOR_NAMESPACE, labels: LABELS },
    data: { [CONFIG_KEY]: config },
  };
  const account = { apiVersion: 'v1', kind: 'ServiceAccount', metadata, automountServiceAccountToken: false };
  return [account, configMap, deployment];
}
