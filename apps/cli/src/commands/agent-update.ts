import { HYPERVISOR_DRIVER_PREFIX, agentIdOf, renderAgent, wireEnumOf, type Agent } from '../agent-view.js';
import { usageError } from '../cli-error.js';
import { stringFlag, type Command } from '../command.js';

const FIELDS = ['name', 'description', 'hypervisor-driver'] as const;

export const agentUpdate: Command = {
  path: ['agent', 'update'],
  summary: "changes an agent's name, description or hypervisor driver",
  synopsis: '<agent-id> [--name NAME] [--description TEXT] [--hypervisor-driver proxmox]',
  options: {
    name: { type: 'string' },
    description: { type: 'string' },
    'hypervisor-driver': { type: 'string' },
  },
  args: ['agent-id'],
  check: (flags, args) => {
    agentIdOf(args[0] ?? '');
    if (FIELDS.every((f) => flags[f] === undefined)) {
      throw usageError('nothing to change: give --name, --description or --hypervisor-driver');
    }
    const driver = stringFlag(flags, 'hypervisor-driver');
    if (driver !== undefined) wireEnumOf(HYPERVISOR_DRIVER_PREFIX, 'hypervisor-driver', driver);
  },
  run: async ({ flags, args, out, client }) => {
    const name = stringFlag(flags, 'name');
    const description = stringFlag(flags, 'description');
    const driver = stringFlag(flags, 'hypervisor-driver');
    const { agent } = await (
      await client()
    ).patch<{ agent: Agent }>(`/v1/agents/${agentIdOf(args[0] ?? '')}`, {
      ...(name !== undefined && { name }),
      ...(description !== undefined && { description }),
      ...(driver !== undefined && {
        hypervisorDriver: wireEnumOf(HYPERVISOR_DRIVER_PREFIX, 'hypervisor-driver', driver),
      }),
    });
    out.ok(`Updated agent ${agent.name} (${agent.id}).`);
    out.result(agent, () => renderAgent(agent));
  },
};
