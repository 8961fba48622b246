import { parseArgs } from 'node:util';

import { InvalidAgentStackOptionsError } from './agent-stack-options.js';
import { renderAgentStack } from './agent-stack.js';
import { toYaml } from './manifest-yaml.js';

const USAGE = 'Usage: deploy:render --agent-id UUID --image IMAGE [--replicas N]\n';

function render(argv: string[]): string {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: { 'agent-id': { type: 'string' }, image: { type: 'string' }, replicas: { type: 'string' } },
  });
  const agentId = values['agent-id'];
  const image = values.image;
  if (agentId === undefined || image === undefined)
    throw new InvalidAgentStackOptionsError('--agent-id and --image are required');
  return toYaml(
    renderAgentStack({
      agentId,
      image,
      ...(values.replicas === undefined ? {} : { replicas: Number(values.replicas) }),
    }),
  );
}

try {
  process.stdout.write(render(process.argv.slice(2)));
} catch (e: unknown) {
  // parseArgs reports bad flags as TypeErrors with a code; both are usage errors.
  const usage = e instanceof InvalidAgentStackOptionsError || (e instanceof TypeError && 'code' in e);
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n${usage ? USAGE : ''}`);
  process.exitCode = usage ? 2 : 1;
}
