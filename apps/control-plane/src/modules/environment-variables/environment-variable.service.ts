import { NotFoundError } from '@noderings/domain';

import type { Page, PageResult } from '../../http/pagination.js';
import { keyTakenError } from '../secrets/index.js';
import type {
  EnvironmentVariableRecord,
  EnvironmentVariableRepository,
} from './environment-variable.repository.js';

export type EnvironmentVariable = EnvironmentVariableRecord;

export class EnvironmentVariableService {
  constructor(
    private readonly deps: {
      readonly variables: Pick<
        EnvironmentVariableRepository,
        'list' | 'listAll' | 'findById' | 'insert' | 'updateValue' | 'delete'
      >;
      readonly now: () => Date;
    },
  ) {}

  list(
    organizationId: string,
    filter: { key?: string | undefined },
    page: Page,
  ): Promise<PageResult<EnvironmentVariable>> {
    // Keys are upper-case, so a filter typed in lower case still finds them.
    const keyContains = filter.key?.trim().toUpperCase();
    return this.deps.variables.list(
      organizationId,
      { keyContains: keyContains === '' ? undefined : keyContains },
      page,
    );
  }

  /** Every variable of the organisation, key → value: what its cloud-init templates are compiled with. */
  async values(organizationId: string): Promise<ReadonlyMap<string, string>> {
    return new Map((await this.deps.variables.listAll(organizationId)).map((v) => [v.key, v.value]));
  }

  async get(organizationId: string, id: string): Promise<EnvironmentVariable> {
    const variable = await this.deps.variables.findById(organizationId, id);
    if (variable === undefined) throw NotFoundError.of('Environment variable', id);
    return variable;
  }

  async create(organizationId: string, input: { key: string; value: string }): Promise<EnvironmentVariable> {
    const result = await this.deps.variables.insert({ organizationId, ...input, now: this.deps.now() });
    if ('takenBy' in result) throw keyTakenError(input.key, 'environmentVariable', result.takenBy);
    return result.inserted;
  }

  async updateValue(organizationId: string, id: string, value: string): Promise<EnvironmentVariable> {
    const updated = await this.deps.variables.updateValue({
      organizationId,
      id,
      value,
      now: this.deps.now(),
    });
    if (updated === undefined) throw NotFoundError.of('Environment variable', id);
    return updated;
  }

  async delete(organizationId: string, id: string): Promise<void> {
    if (!(await this.deps.variables.delete(organizationId, id)))
      throw NotFoundError.of('Environment variable', id);
  }
}
