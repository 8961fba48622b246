import type { Secret } from '@noderings/kube';
import { stringify } from 'yaml';

import { OPERATOR_NAMESPACE } from './agent-stack-options.js';

/** The Secret `nr` writes with the pve-exporter's `pve.yml`; the exporter's Deployment mounts it. */
export const PVE_EXPORTER_CONFIG_SECRET = 'pve-exporter-config';
export const PVE_EXPORTER_CONFIG_KEY = 'pve.yml';
/** The Secret `nr` writes with the agent's metrics write credential; Alloy reads it from its environment. */
export const METRICS_WRITE_CREDENTIAL_SECRET = 'metrics-write-credential';
export const METRICS_WRITE_CREDENTIAL_KEY = 'token';

/** The Proxmox API token the exporter reads with (a PVEAuditor token is enough). */
export interface PveExporterCredential {
  /** `user@realm`. */
  readonly username: string;
  /** The token's id, without the user: `exporter` for `prometheus@pve!exporter`. */
  readonly tokenName: string;
  readonly tokenSecret: string;
  /** The Proxmox certificate's SHA-256 fingerprint; without it, the system's CAs verify it. */
  readonly tlsFingerprint?: string;
}

/**
 * The exporter's `pve.yml` (prometheus-pve-exporter's format, module `default`) as a Secret. It holds no
 * URL: the exporter reads from the target each scrape names, which the Alloy configuration sets to the
 * stack's `metrics.proxmoxEndpoint`.
 */
export function pveExporterConfigSecret(credential: PveExporterCredential): Secret {
  const module = {
    user: credential.username,
    token_name: credential.tokenName,
    token_value: credential.tokenSecret,
    ...(credential.tlsFingerprint !== undefined && { tls_fingerprint: credential.tlsFingerprint }),
  };
  return secret(PVE_EXPORTER_CONFIG_SECRET, {
    [PVE_EXPORTER_CONFIG_KEY]: stringify({ default: module }, { lineWidth: 0 }),
  });
}

/** The agent's metrics write credential (`POST /v1/metrics-credentials`) as the Secret Alloy reads. */
export function metricsWriteCredentialSecret(token: string): Secret {
  return secret(METRICS_WRITE_CREDENTIAL_SECRET, { [METRICS_WRITE_CREDENTIAL_KEY]: token });
}

function secret(name: string, stringData: Record<string, string>): Secret {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace: OPERATOR_NAMESPACE, labels: { 'app.kubernetes.io/part-of': 'noderings' } },
    type: 'Opaque',
    stringData,
  };
}
