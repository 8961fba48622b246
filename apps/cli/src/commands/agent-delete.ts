import { agentIdOf, type Agent } from '../agent-view.js';
import { booleanFlag, type Command } from '../command.js';

export const agentDelete: Command = {
  path: ['agent', 'delete'],
  summary: "deletes an agent's record in the API (the cluster on the VM stays); asks first unless --yes",
  synopsis: '<agent-id> [--yes]',
  options: { yes: { type: 'boolean', short: 'y' } },
  args: ['agent-id'],
  check: (_flags, args) => agentIdOf(args[0] ?? ''),
  run: async ({ flags, args, out, client }) => {
    const api = await client();
    const path = `/v1/agents/${agentIdOf(args[0] ?? '')}`;
    const { agent } = await api.get<{ agent: Agent }>(path);
    await out.confirm(`Delete agent ${agent.name} (${agent.id})?`, booleanFlag(flags, 'yes'));
    const answer = await api.delete<{ success: boolean }>(path);
    out.ok(`Deleted agent ${agent.name} (${agent.id}).`);
    out.result(answer, () => '');
  },
};
