import { NotFoundError } from '@noderings/domain';

import type { Page, PageResult } from '../../http/pagination.js';
import type {
  CloudInitUserData,
  CloudInitUserDataFields,
  CloudInitUserDataRepository,
} from './cloud-init-user-data.repository.js';

/**
 * Customers' saved user data. Nothing in it is refused for what it says: it is the customer's own, may
 * be a script or use cloud-init's Jinja, and reaches the VM as it is; the views add non-blocking warnings.
 */
export class CloudInitUserDataService {
  constructor(
    private readonly deps: {
      readonly profiles: Pick<
        CloudInitUserDataRepository,
        'list' | 'findById' | 'insert' | 'update' | 'delete'
      >;
      readonly now: () => Date;
    },
  ) {}

  list(organizationId: string, page: Page): Promise<PageResult<CloudInitUserData>> {
    return this.deps.profiles.list(organizationId, page);
  }

  async get(organizationId: string, id: string): Promise<CloudInitUserData> {
    const profile = await this.deps.profiles.findById(organizationId, id);
    if (profile === undefined) throw NotFoundError.of('Cloud-init user data', id);
    return profile;
  }

  async create(organizationId: string, fields: CloudInitUserDataFields): Promise<CloudInitUserData> {
    return await this.deps.profiles.insert(organizationId, fields, this.deps.now());
  }

  async update(
    organizationId: string,
    id: string,
    changes: Partial<CloudInitUserDataFields>,
  ): Promise<CloudInitUserData> {
    const updated = await this.deps.profiles.update(organizationId, id, changes, this.deps.now());
    if (updated === undefined) throw NotFoundError.of('Cloud-init user data', id);
    return updated;
  }

  async delete(organizationId: string, id: string): Promise<void> {
    if (!(await this.deps.profiles.delete(organizationId, id)))
      throw NotFoundError.of('Cloud-init user data', id);
  }
}
