import { agentIdOf, renderAgent, type Agent } from '../agent-view.js';
import type { Command } from '../command.js';

export const agentGet: Command = {
  path: ['agent', 'get'],
  summary: 'shows one agent',
  synopsis: '<agent-id>',
  options: {},
  args: ['agent-id'],
  check: (_flags, args) => agentIdOf(args[0] ?? ''),
  run: async ({ args, out, client }) => {
    const { agent } = await (await client()).get<{ agent: Agent }>(`/v1/agents/${agentIdOf(args[0] ?? '')}`);
    out.result(agent, () => renderAgent(agent));
  },
};
