import type { SeededSandbox } from './sandbox-seed.js';

const SEED_RECORD_VERSION = 1;

/**
 * What a start leaves in the data folder once the sandbox is seeded, for the next start to reuse it: the
 * ids, the secrets that exist nowhere else in readable form (staff's password, the agent's metrics
 * credential), and where pve-sim and kube-sim were, which the control plane has stored.
 */
export interface SeedRecord {
  readonly version: typeof SEED_RECORD_VERSION;
  readonly seededAt: string;
  readonly staffPassword: string;
  readonly metricsToken: string;
  readonly pveUrl: string;
  readonly kubeUrl: string;
  readonly seeded: SeededSandbox;
}

export function newSeedRecord(fields: Omit<SeedRecord, 'version'>): SeedRecord {
  return { version: SEED_RECORD_VERSION, ...fields };
}

/** The record if `value` is one this version wrote (its ids and secrets are there), else undefined. */
export function parseSeedRecord(value: unknown): SeedRecord | undefined {
  const record = value as Partial<SeedRecord> | null;
  if (record?.version !== SEED_RECORD_VERSION) return undefined;
  const { seeded } = record;
  const texts = [
    record.seededAt,
    record.staffPassword,
    record.metricsToken,
    record.pveUrl,
    record.kubeUrl,
    seeded?.provider.organizationId,
    seeded?.provider.agent.id,
    seeded?.provider.platform.id,
    seeded?.customer.organizationId,
  ];
  if (!texts.every((t) => typeof t === 'string' && t !== '')) return undefined;
  if (!Array.isArray(seeded?.provider.nodes) || !Array.isArray(seeded.offer.plans)) return undefined;
  return record as SeedRecord;
}
