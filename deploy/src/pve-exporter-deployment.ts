import type { KubeObject } from '@noderings/kube';

import type { AgentStack } from './agent-stack-options.js';
import { OPERATOR_NAMESPACE, PVE_EXPORTER_NAME, PVE_EXPORTER_PORT } from './agent-stack-options.js';
import { PVE_EXPORTER_CONFIG_KEY, PVE_EXPORTER_CONFIG_SECRET } from './metrics-secrets.js';
import {
  CONTAINER_SECURITY_CONTEXT,
  MOUNTED_FILE_MODE,
  POD_SECURITY_CONTEXT,
  httpProbe,
} from './pod-security.js';

const LABELS = { 'app.kubernetes.io/name': PVE_EXPORTER_NAME, 'app.kubernetes.io/part-of': 'noderings' };
/** Where the exporter looks for `pve.yml` by default, as upstream. */
const CONFIG_DIR = '/etc/prometheus';

/** The Service's in-cluster address, which Alloy scrapes. */
export const PVE_EXPORTER_ADDRESS = `${PVE_EXPORTER_NAME}.${OPERATOR_NAMESPACE}.svc:${String(PVE_EXPORTER_PORT)}`;

/**
 * The pve-exporter: its account (no API access, so no token mounted), a Deployment reading `pve.yml`
 * from the `pve-exporter-config` Secret, and the Service Alloy scrapes. Proxmox is reached directly, at
 * the target each scrape names.
 */
export function pveExporterObjects(stack: Required<Pick<AgentStack, 'metrics'>>): KubeObject[] {
  const metadata = { name: PVE_EXPORTER_NAME, namespace: OPERATOR_NAMESPACE, labels: LABELS };
  const deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata,
    spec: {
      replicas: 1,
      selector: { matchLabels: { 'app.kubernetes.io/name': PVE_EXPORTER_NAME } },
      template: {
        metadata: { labels: LABELS },
        spec: {
          serviceAccountName: PVE_EXPORTER_NAME,
          automountServiceAccountToken: false,
          securityContext: POD_SECURITY_CONTEXT,
          containers: [
            {
              name: 'pve-exporter',
              image: stack.metrics.images.pveExporter,
              args: [
                ...['--listen', `0.0.0.0:${String(PVE_EXPORTER_PORT)}`],
                ...['--config', `${CONFIG_DIR}/${PVE_EXPORTER_CONFIG_KEY}`],
              ],
              ports: [{ name: 'http', containerPort: PVE_EXPORTER_PORT, protocol: 'TCP' }],
              livenessProbe: httpProbe('/', 'http', 20),
              readinessProbe: httpProbe('/', 'http', 10),
              volumeMounts: [{ name: 'config', mountPath: CONFIG_DIR, readOnly: true }],
              securityContext: CONTAINER_SECURITY_CONTEXT,
              resources: {
                requests: { cpu: '50m', memory: '64Mi' },
                limits: { cpu: '500m', memory: '256Mi' },
              },
            },
          ],
          volumes: [
            {
              name: 'config',
              secret: {
                secretName: PVE_EXPORTER_CONFIG_SECRET,
                items: [{ key: PVE_EXPORTER_CONFIG_KEY, path: PVE_EXPORTER_CONFIG_KEY }],
                defaultMode: MOUNTED_FILE_MODE,
              },
            },
          ],
        },
      },
    },
  };
  const service = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata,
    spec: {
      type: 'ClusterIP',
      selector: { 'app.kubernetes.io/name': PVE_EXPORTER_NAME },
      ports: [{ name: 'http', port: PVE_EXPORTER_PORT, targetPort: 'http', protocol: 'TCP' }],
    },
  };
  const account = { apiVersion: 'v1', kind: 'ServiceAccount', metadata, automountServiceAccountToken: false };
  return [account, deployment, service];
}
