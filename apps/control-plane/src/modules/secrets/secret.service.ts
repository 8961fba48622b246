import { NotFoundError } from '@noderings/domain';

import type { SecretBox } from '../../crypto/secret-box.js';
import type { Page, PageResult } from '../../http/pagination.js';
import type { SecretRecord, SecretRepository } from './secret.repository.js';
import { keyTakenError } from './template-variable.js';

export type Secret = SecretRecord;

/** A stored secret that does not open: its row was tampered with, or it was sealed under another key. */
export class UnreadableSecretError extends Error {
  constructor(
    readonly key: string,
    options?: ErrorOptions,
  ) {
    super(`secret ${key} cannot be opened: it was altered or sealed with another secret key`, options);
    this.name = 'UnreadableSecretError';
  }
}

/**
 * Binds a ciphertext to the one row it may live in: a ciphertext copied to another key or organisation
 * fails authentication instead of opening. Keys cannot hold '/', so the parts cannot run together.
 */
function associatedData(organizationId: string, key: string): string {
  return `secret/${organizationId}/${key}`;
}

/** Values go in sealed and come out only through `openAll`, never through the API. */
export class SecretService {
  constructor(
    private readonly deps: {
      readonly secrets: Pick<
        SecretRepository,
        'list' | 'findById' | 'insert' | 'updateCiphertext' | 'delete' | 'listSealed'
      >;
      readonly box: Pick<SecretBox, 'seal' | 'open'>;
      readonly now: () => Date;
    },
  ) {}

  list(organizationId: string, page: Page): Promise<PageResult<Secret>> {
    return this.deps.secrets.list(organizationId, page);
  }

  async get(organizationId: string, id: string): Promise<Secret> {
    const secret = await this.deps.secrets.findById(organizationId, id);
    if (secret === undefined) throw NotFoundError.of('Secret', id);
    return secret;
  }

  async create(
    organizationId: string,
    input: { key: string; value: string },
    createdBy: string | null,
  ): Promise<Secret> {
    const ciphertext = this.deps.box.seal(input.value, associatedData(organizationId, input.key));
    const result = await this.deps.secrets.insert({
      organizationId,
      key: input.key,
      ciphertext,
      createdBy,
      now: this.deps.now(),
    });
    if ('takenBy' in result) throw keyTakenError(input.key, 'secret', result.takenBy);
    return result.inserted;
  }

  async updateValue(organizationId: string, id: string, value: string): Promise<Secret> {
    const existing = await this.get(organizationId, id);
    const updated = await this.deps.secrets.updateCiphertext({
      organizationId,
      id,
      ciphertext: this.deps.box.seal(value, associatedData(organizationId, existing.key)),
      now: this.deps.now(),
    });
    if (updated === undefined) throw NotFoundError.of('Secret', id);
    return updated;
  }

  async delete(organizationId: string, id: string): Promise<void> {
    if (!(await this.deps.secrets.delete(organizationId, id))) throw NotFoundError.of('Secret', id);
  }

  /** The keys of the organisation's secrets, without opening any (for previews that show placeholders). */
  async keys(organizationId: string): Promise<readonly string[]> {
    return (await this.deps.secrets.listSealed(organizationId)).map((sealed) => sealed.key);
  }

  /**
   * Every secret of the organisation, opened: key → value. For compiling cloud-init user data, never for
   * an HTTP response. Throws UnreadableSecretError rather than leaving a secret out.
   */
  async openAll(organizationId: string): Promise<ReadonlyMap<string, string>> {
    const values = new Map<string, string>();
    for (const sealed of await this.deps.secrets.listSealed(organizationId)) {
      try {
        values.set(
          sealed.key,
          this.deps.box.open(sealed.ciphertext, associatedData(organizationId, sealed.key)),
        );
      } catch (e: unknown) {
        throw new UnreadableSecretError(sealed.key, { cause: e });
      }
    }
    return values;
  }
}
