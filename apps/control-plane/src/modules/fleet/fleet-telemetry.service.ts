import { InvalidArgumentError, NotFoundError } from '@noderings/domain';

import type { Page, PageResult } from '../../http/pagination.js';
import type { FleetAgentRepository } from './fleet-agent.repository.js';
import type { FleetEnvironmentRepository } from './fleet-environment.repository.js';
import type {
  AssetRecord,
  FleetTelemetryRepository,
  LogQuery,
  LogRecord,
  SeriesRecord,
} from './fleet-telemetry.repository.js';

export interface SeriesPoints extends SeriesRecord {
  readonly points: { time: Date; value: number }[];
}

const MAX_POINT_SERIES = 500;
const MAX_POINTS = 100_000;
const DEFAULT_RANGE_MS = 3_600_000;

/** What a provider reads of its agents' telemetry: series and points, logs, and integration assets. */
export class FleetTelemetryService {
  constructor(
    private readonly deps: {
      readonly telemetry: FleetTelemetryRepository;
      readonly agents: Pick<FleetAgentRepository, 'get'>;
      readonly environments: Pick<FleetEnvironmentRepository, 'get'>;
      readonly now: () => Date;
    },
  ) {}

  /** The agent's series with their newest value. */
  async agentSeries(
    organizationId: string,
    agentId: string,
    name: string | undefined,
    page: Page,
  ): Promise<PageResult<SeriesRecord>> {
    await this.#agent(organizationId, agentId);
    return this.deps.telemetry.agentSeries(organizationId, agentId, name, page);
  }

  /** Points in [from, to] (default: the last hour) of the environment's series matching name and labels. */
  async points(
    organizationId: string,
    query: {
      environmentId: string;
      name: string;
      labels: Readonly<Record<string, string>>;
      from: Date | undefined;
      to: Date | undefined;
    },
  ): Promise<SeriesPoints[]> {
    const to = query.to ?? this.deps.now();
    const from = query.from ?? new Date(to.getTime() - DEFAULT_RANGE_MS);
    if (from.getTime() > to.getTime()) throw InvalidArgumentError.field('query.from', 'must not be after to');
    await this.#environment(organizationId, query.environmentId);
    const series = await this.deps.telemetry.matchingSeries(
      organizationId,
      query.environmentId,
      query.name,
      query.labels,
      MAX_POINT_SERIES + 1,
    );
    if (series.length > MAX_POINT_SERIES)
      throw InvalidArgumentError.field(
        'query.name',
        `matches more than ${MAX_POINT_SERIES} series: narrow it with label.<name>=<value>`,
      );
    const points = await this.deps.telemetry.points(
      series.map((s) => s.id),
      from,
      to,
      MAX_POINTS + 1,
    );
    if (points.length > MAX_POINTS)
      throw InvalidArgumentError.field(
        'query.from',
        `the range holds more than ${MAX_POINTS} points: shorten it`,
      );
    const bySeries = new Map<string, { time: Date; value: number }[]>(series.map((s) => [s.id, []]));
    for (const p of points) bySeries.get(p.seriesId)?.push({ time: p.time, value: p.value });
    return series.map((s) => ({ ...s, points: bySeries.get(s.id) ?? [] }));
  }

  async logs(organizationId: string, query: LogQuery): Promise<LogRecord[]> {
    if (query.environmentId !== undefined) await this.#environment(organizationId, query.environmentId);
    if (query.agentId !== undefined) await this.#agent(organizationId, query.agentId);
    return this.deps.telemetry.logs(organizationId, query);
  }

  async assets(
    organizationId: string,
    environmentId: string | undefined,
    page: Page,
  ): Promise<PageResult<AssetRecord>> {
    if (environmentId !== undefined) await this.#environment(organizationId, environmentId);
    return this.deps.telemetry.assets(organizationId, environmentId, page);
  }

  async #environment(organizationId: string, id: string): Promise<void> {
    if ((await this.deps.environments.get(organizationId, id)) === undefined)
      throw NotFoundError.of('Environment', id);
  }

  async #agent(organizationId: string, id: string): Promise<void> {
    if ((await this.deps.agents.get(organizationId, id)) === undefined) throw NotFoundError.of('Agent', id);
  }
}
