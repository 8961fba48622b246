import { GATEWAY_REGION_PREFIX, renderAgentTable, wireEnumOf, type Agent } from '../agent-view.js';
import { stringFlag, type Command } from '../command.js';

/** The API's largest page. */
const PAGE_SIZE = 100;

export const agentList: Command = {
  path: ['agent', 'list'],
  summary: "lists the organization's agents",
  synopsis: '[--search TEXT] [--gateway-region REGION]',
  options: { search: { type: 'string' }, 'gateway-region': { type: 'string' } },
  args: [],
  check: (flags) => {
    const region = stringFlag(flags, 'gateway-region');
    if (region !== undefined) wireEnumOf(GATEWAY_REGION_PREFIX, 'gateway-region', region);
  },
  run: async ({ flags, out, client }) => {
    const api = await client();
    const query = new URLSearchParams({ pageSize: String(PAGE_SIZE) });
    const search = stringFlag(flags, 'search');
    const region = stringFlag(flags, 'gateway-region');
    if (search !== undefined) query.set('search', search);
    if (region !== undefined)
      query.set('gatewayRegion', wireEnumOf(GATEWAY_REGION_PREFIX, 'gateway-region', region));
    const agents: Agent[] = [];
    let totalCount: number;
    for (let page = 0; ; page++) {
      query.set('page', String(page));
      const answer = await api.get<{ agents: { agent: Agent }[]; totalCount: number }>(
        `/v1/agents?${query.toString()}`,
      );
      agents.push(...answer.agents.map((a) => a.agent));
      totalCount = answer.totalCount;
      if (answer.agents.length < PAGE_SIZE || agents.length >= totalCount) break;
    }
    out.result({ agents, totalCount }, () => renderAgentTable(agents));
  },
};
