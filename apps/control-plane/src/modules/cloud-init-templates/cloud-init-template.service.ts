import {
  checkNamesOnly,
  compileCloudInit,
  describeCloudInitProblem,
  FailedPreconditionError,
  findSeedCloudInitTemplate,
  InvalidArgumentError,
  NotFoundError,
  SEED_CLOUD_INIT_TEMPLATES,
  type CloudInitProblem,
  type FieldViolation,
  type SeedCloudInitTemplate,
} from '@noderings/domain';

import { offsetOf, type Page, type PageResult } from '../../http/pagination.js';
import type {
  CloudInitTemplateFields,
  CloudInitTemplateRecord,
  CloudInitTemplateRepository,
} from './cloud-init-template.repository.js';
import { cloudInitTemplateStillLinked } from './cloud-init-template.errors.js';

/** An organisation's own template, or one of the platform's seeds (`isTemplate`, no organisation). */
export interface CloudInitTemplate extends CloudInitTemplateFields {
  readonly id: string;
  readonly organizationId: string | null;
  readonly isTemplate: boolean;
  readonly createdAt: Date | null;
  readonly updatedAt: Date | null;
}

export interface CloudInitTemplateInput {
  readonly name: string;
  readonly userData?: string | undefined;
  readonly vendorData?: string | undefined;
  readonly networkData?: string | undefined;
  readonly storage?: string | undefined;
  /** A seed or one of the organisation's own templates; fields not given are taken from it. */
  readonly copyFromId?: string | undefined;
}

export type CloudInitTemplateChanges = Partial<CloudInitTemplateFields>;

/** Where the operator uploads a VM's NoCloud seed image unless the template says otherwise. */
const DEFAULT_STORAGE = 'local';

function fromSeed(seed: SeedCloudInitTemplate): CloudInitTemplate {
  return {
    ...seed,
    storage: DEFAULT_STORAGE,
    organizationId: null,
    isTemplate: true,
    createdAt: null,
    updatedAt: null,
  };
}

function fromRecord(record: CloudInitTemplateRecord): CloudInitTemplate {
  return { ...record, isTemplate: false };
}

/**
 * The problems of a template's documents as field violations (the document is the field, the position
 * starts the description) and a message listing them all.
 */
export function templateProblems(
  lead: string,
  problems: readonly CloudInitProblem[],
): { message: string; violations: FieldViolation[] } {
  const violations = problems.map((p) => ({ field: p.document, description: describeCloudInitProblem(p) }));
  return {
    message: `${lead}: ${violations.map((v) => `${v.field} ${v.description}`).join('; ')}`,
    violations,
  };
}

/** Refuses documents that cannot compile for any VM: broken YAML, unknown variables, no #cloud-config. */
function refuseInvalidDocuments(fields: CloudInitTemplateFields): void {
  const result = compileCloudInit(fields, checkNamesOnly);
  if (result.ok) return;
  const { message, violations } = templateProblems('The template is invalid', result.problems);
  throw new InvalidArgumentError(message, violations);
}

const COPY_ONLY = 'is a seed template: it can only be copied (create a template with copyFromId)';

export class CloudInitTemplateService {
  constructor(
    private readonly deps: {
      readonly templates: Pick<
        CloudInitTemplateRepository,
        'count' | 'list' | 'findById' | 'insert' | 'update' | 'delete' | 'linkedVmTemplateNames'
      >;
      readonly now: () => Date;
    },
  ) {}

  /** The seeds first, then the organisation's own by name; `isTemplate` keeps one kind. */
  async list(
    organizationId: string,
    filter: { isTemplate?: boolean | undefined },
    page: Page,
  ): Promise<PageResult<CloudInitTemplate>> {
    const seeds = filter.isTemplate === false ? [] : SEED_CLOUD_INIT_TEMPLATES.map(fromSeed);
    const ownCount = filter.isTemplate === true ? 0 : await this.deps.templates.count(organizationId);
    const offset = offsetOf(page);
    const pageSeeds = seeds.slice(offset, offset + page.pageSize);
    const ownOffset = Math.max(0, offset - seeds.length);
    const own =
      filter.isTemplate === true
        ? []
        : await this.deps.templates.list(organizationId, ownOffset, page.pageSize - pageSeeds.length);
    return { totalCount: seeds.length + ownCount, items: [...pageSeeds, ...own.map(fromRecord)] };
  }

  /** A seed or one of the organisation's own templates. */
  async get(organizationId: string, id: string): Promise<CloudInitTemplate> {
    const seed = findSeedCloudInitTemplate(id);
    if (seed !== undefined) return fromSeed(seed);
    const record = await this.deps.templates.findById(organizationId, id);
    if (record === undefined) throw NotFoundError.of('Cloud-init template', id);
    return fromRecord(record);
  }

  /** One of the organisation's own templates: a seed is refused, as VM templates and edits may not use one. */
  async getOwn(organizationId: string, id: string): Promise<CloudInitTemplate> {
    const template = await this.get(organizationId, id);
    if (template.isTemplate) throw new FailedPreconditionError(`Cloud-init template ${id} ${COPY_ONLY}.`);
    return template;
  }

  async create(organizationId: string, input: CloudInitTemplateInput): Promise<CloudInitTemplate> {
    const source =
      input.copyFromId === undefined ? undefined : await this.get(organizationId, input.copyFromId);
    const userData = input.userData ?? source?.userData;
    if (userData === undefined)
      throw InvalidArgumentError.field('userData', 'is required unless copyFromId names a template to copy');
    const fields: CloudInitTemplateFields = {
      name: input.name,
      userData,
      vendorData: input.vendorData ?? source?.vendorData ?? '',
      networkData: input.networkData ?? source?.networkData ?? '',
      storage: input.storage ?? source?.storage ?? DEFAULT_STORAGE,
    };
    refuseInvalidDocuments(fields);
    return fromRecord(await this.deps.templates.insert(organizationId, fields, this.deps.now()));
  }

  /** Fields left out keep their values; the documents are checked as they would be afterwards. */
  async update(
    organizationId: string,
    id: string,
    changes: CloudInitTemplateChanges,
  ): Promise<CloudInitTemplate> {
    if (findSeedCloudInitTemplate(id) !== undefined)
      throw new FailedPreconditionError(`Cloud-init template ${id} ${COPY_ONLY}.`);
    const updated = await this.deps.templates.update(
      organizationId,
      id,
      (current) => {
        const next: CloudInitTemplateFields = {
          name: changes.name ?? current.name,
          userData: changes.userData ?? current.userData,
          vendorData: changes.vendorData ?? current.vendorData,
          networkData: changes.networkData ?? current.networkData,
          storage: changes.storage ?? current.storage,
        };
        refuseInvalidDocuments(next);
        return next;
      },
      this.deps.now(),
    );
    if (updated === undefined) throw NotFoundError.of('Cloud-init template', id);
    return fromRecord(updated);
  }

  async delete(organizationId: string, id: string): Promise<void> {
    if (findSeedCloudInitTemplate(id) !== undefined)
      throw new FailedPreconditionError(`Cloud-init template ${id} ${COPY_ONLY}.`);
    const record = await this.deps.templates.findById(organizationId, id);
    if (record === undefined) throw NotFoundError.of('Cloud-init template', id);
    const linked = await this.deps.templates.linkedVmTemplateNames(id);
    if (linked.length > 0) throw cloudInitTemplateStillLinked(linked);
    await this.deps.templates.delete(organizationId, id);
  }
}
