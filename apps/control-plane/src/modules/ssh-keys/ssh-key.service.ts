import { NotFoundError } from '@noderings/domain';

import type { Page, PageResult } from '../../http/pagination.js';
import { duplicateSshKey } from './ssh-key.errors.js';
import type { SshKeyRecord, SshKeyRepository } from './ssh-key.repository.js';
import { parseSshPublicKey } from './ssh-public-key.js';

export type SshKey = SshKeyRecord;

/** Public keys to put on the VMs an organisation orders; there is no update, only delete and add again. */
export class SshKeyService {
  constructor(
    private readonly deps: {
      readonly sshKeys: Pick<
        SshKeyRepository,
        'list' | 'findById' | 'findByFingerprint' | 'insert' | 'delete'
      >;
      readonly now: () => Date;
    },
  ) {}

  list(organizationId: string, page: Page): Promise<PageResult<SshKey>> {
    return this.deps.sshKeys.list(organizationId, page);
  }

  async get(organizationId: string, id: string): Promise<SshKey> {
    const key = await this.deps.sshKeys.findById(organizationId, id);
    if (key === undefined) throw NotFoundError.of('SSH key', id);
    return key;
  }

  async create(organizationId: string, input: { name: string; publicKey: string }): Promise<SshKey> {
    const parsed = parseSshPublicKey(input.publicKey);
    const existing = await this.deps.sshKeys.findByFingerprint(organizationId, parsed.fingerprint);
    if (existing !== undefined) throw duplicateSshKey(parsed.fingerprint, existing.name);
    return this.deps.sshKeys.insert({
      organizationId,
      name: input.name,
      publicKey: parsed.normalized,
      keyType: parsed.keyType,
      fingerprint: parsed.fingerprint,
      now: this.deps.now(),
    });
  }

  async delete(organizationId: string, id: string): Promise<void> {
    if (!(await this.deps.sshKeys.delete(organizationId, id))) throw NotFoundError.of('SSH key', id);
  }
}
