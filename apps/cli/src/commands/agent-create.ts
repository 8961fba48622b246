import { isIPv4 } from 'node:net';

import {
  GATEWAY_REGION_PREFIX,
  HYPERVISOR_DRIVER_PREFIX,
  renderAgent,
  wireEnumOf,
  type Agent,
} from '../agent-view.js';
import { usageError } from '../cli-error.js';
import { stringFlag, type Command } from '../command.js';

const DEFAULT_HYPERVISOR_DRIVER = 'proxmox';

export const agentCreate: Command = {
  path: ['agent', 'create'],
  summary: 'creates an agent record (the cluster itself is installed by nr cluster register)',
  synopsis:
    '--name NAME --agent-ip IP --gateway-region REGION [--description TEXT] [--hypervisor-driver proxmox]',
  options: {
    name: { type: 'string' },
    'agent-ip': { type: 'string' },
    'gateway-region': { type: 'string' },
    description: { type: 'string' },
    'hypervisor-driver': { type: 'string' },
  },
  args: [],
  check: (flags) => {
    for (const required of ['name', 'agent-ip', 'gateway-region']) {
      if (stringFlag(flags, required) === undefined) throw usageError(`--${required} is required`);
    }
    const ip = stringFlag(flags, 'agent-ip') ?? '';
    if (!isIPv4(ip)) throw usageError(`--agent-ip must be an IPv4 address, not "${ip}"`);
    wireEnumOf(GATEWAY_REGION_PREFIX, 'gateway-region', stringFlag(flags, 'gateway-region') ?? '');
    wireEnumOf(
      HYPERVISOR_DRIVER_PREFIX,
      'hypervisor-driver',
      stringFlag(flags, 'hypervisor-driver') ?? 'proxmox',
    );
  },
  run: async ({ flags, out, client }) => {
    const description = stringFlag(flags, 'description');
    const { agent } = await (
      await client()
    ).post<{ agent: Agent }>('/v1/agents', {
      name: stringFlag(flags, 'name'),
      agentPublicIp: stringFlag(flags, 'agent-ip'),
      gatewayRegion: wireEnumOf(
        GATEWAY_REGION_PREFIX,
        'gateway-region',
        stringFlag(flags, 'gateway-region') ?? '',
      ),
      hypervisorDriver: wireEnumOf(
        HYPERVISOR_DRIVER_PREFIX,
        'hypervisor-driver',
        stringFlag(flags, 'hypervisor-driver') ?? DEFAULT_HYPERVISOR_DRIVER,
      ),
      ...(description !== undefined && { description }),
    });
    out.ok(`Created agent ${agent.name} (${agent.id}).`);
    out.result(agent, () => renderAgent(agent));
  },
};
