import type { KubeClient, Secret } from '@noderings/kube';
import { Informer, PROXMOX_INSTANCE_LABEL } from '@noderings/kube';
import type { Logger, SecretValues } from '@noderings/log';
import type { ProxmoxClient, ProxmoxClientOptions } from '@noderings/proxmox';
import { PveInvalidArgumentError, createProxmoxClient } from '@noderings/proxmox';

import { instrumentProxmoxClient } from './instrumented-proxmox-client.js';
import type { NodeLimiter } from './node-limiter.js';
import { OperatorError } from './operator-error.js';
import type { OperatorMetrics } from './operator-metrics.js';

/** The instance of a ProxmoxVM whose spec names none. */
export const DEFAULT_INSTANCE = 'default';

const REQUIRED_KEYS = [
  'PROXMOX_URL',
  'PROXMOX_USERNAME',
  'PROXMOX_TOKEN_ID',
  'PROXMOX_TOKEN_SECRET',
] as const;

export interface ProxmoxInstancesOptions {
  namespace: string;
  limiter: NodeLimiter;
  metrics: OperatorMetrics;
  logger: Logger;
  /** The values the logger masks: every token secret read goes here. */
  secrets: SecretValues;
  /** Client settings other than the URL, credentials and TLS (which come from the Secret). */
  client?: Pick<ProxmoxClientOptions, 'timeoutMs' | 'connectTimeoutMs' | 'retries'>;
  /** Called when an instance's Secret appears, changes or goes, with its instance id. */
  onChange?: (instance: string) => void;
}

interface Entry {
  /** The Secret's uid and resourceVersion the client was built from. */
  version: string;
  client: ProxmoxClient;
}

/**
 * One Proxmox client per instance, built from the labelled credential Secrets in the operator's
 * namespace and rebuilt when a Secret changes. Secret values go to the logger's masked values and
 * nowhere else.
 */
export class ProxmoxInstances {
  readonly informer: Informer<Secret>;
  readonly #clients = new Map<string, Entry>();

  constructor(
    kube: Pick<KubeClient, 'secrets'>,
    private readonly options: ProxmoxInstancesOptions,
  ) {
    this.informer = new Informer(kube.secrets, {
      namespace: options.namespace,
      labelSelector: PROXMOX_INSTANCE_LABEL,
      resyncPeriodMs: 0,
      onError: (e: unknown) => {
        options.logger.warn({ error: e }, 'proxmox credential informer failed');
      },
    });
    const changed = (secret: Secret): void => {
      const instance = secret.metadata?.labels?.[PROXMOX_INSTANCE_LABEL];
      if (instance !== undefined) options.onChange?.(instance);
    };
    this.informer.addHandler({
      onAdd: changed,
      onUpdate: (_old, secret) => {
        changed(secret);
      },
      onDelete: changed,
    });
  }

  /** The client of `instance`; OperatorError INSTANCE_NOT_FOUND or INSTANCE_INVALID otherwise. */
  get(instance: string): ProxmoxClient {
    const secrets = this.informer
      .list()
      .filter((s) => s.metadata?.labels?.[PROXMOX_INSTANCE_LABEL] === instance);
    const secret = secrets[0];
    if (secret === undefined) {
      throw new OperatorError(
        'INSTANCE_NOT_FOUND',
        `no Secret labelled ${PROXMOX_INSTANCE_LABEL}=${instance} in namespace ${this.options.namespace}`,
      );
    }
    if (secrets.length > 1) {
      throw new OperatorError(
        'INSTANCE_INVALID',
        `more than one Secret is labelled ${PROXMOX_INSTANCE_LABEL}=${instance}`,
      );
    }
    const version = `${secret.metadata?.uid ?? ''}/${secret.metadata?.resourceVersion ?? ''}`;
    const cached = this.#clients.get(instance);
    if (cached?.version === version) return cached.client;
    const client = instrumentProxmoxClient(
      this.#build(instance, secret),
      instance,
      this.options.limiter,
      this.options.metrics,
    );
    this.#clients.set(instance, { version, client });
    if (cached !== undefined) void cached.client.close();
    this.options.logger.info({ instance, source: secret.metadata?.name }, 'proxmox client built');
    return client;
  }

  async close(): Promise<void> {
    await Promise.all([...this.#clients.values()].map((entry) => entry.client.close()));
    this.#clients.clear();
  }

  #build(instance: string, secret: Secret): ProxmoxClient {
    const name = `Secret ${this.options.namespace}/${secret.metadata?.name ?? '?'} (instance ${instance})`;
    const data = decodeSecret(secret);
    this.options.secrets.add(data.PROXMOX_TOKEN_SECRET ?? '');
    const missing = REQUIRED_KEYS.filter((key) => (data[key] ?? '') === '');
    if (missing.length > 0)
      throw new OperatorError('INSTANCE_INVALID', `${name} lacks ${missing.join(', ')}`);
    const fingerprint = data.PROXMOX_TLS_FINGERPRINT;
    const insecure = data.PROXMOX_INSECURE_SKIP_VERIFY === 'true';
    try {
      return createProxmoxClient({
        ...this.options.client,
        baseUrl: data.PROXMOX_URL ?? '',
        token: {
          userid: data.PROXMOX_USERNAME ?? '',
          tokenId: data.PROXMOX_TOKEN_ID ?? '',
          secret: data.PROXMOX_TOKEN_SECRET ?? '',
        },
        tls:
          fingerprint !== undefined && fingerprint !== ''
            ? { fingerprint }
            : insecure
              ? { insecureSkipVerify: true }
              : {},
      });
    } catch (e: unknown) {
      // The client's own messages never include the token secret; keep only the message.
      const reason = e instanceof PveInvalidArgumentError ? e.pveMessage : 'invalid client options';
      throw new OperatorError('INSTANCE_INVALID', `${name}: ${reason}`);
    }
  }
}

function decodeSecret(secret: Secret): Record<string, string> {
  return Object.fromEntries(
    Object.entries(secret.data ?? {}).map(([key, value]) => [
      key,
      Buffer.from(value, 'base64').toString('utf8'),
    ]),
  );
}
