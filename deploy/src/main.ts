import { parseArgs } from 'node:util';

import { InvalidAgentStackOptionsError } from './agent-stack-options.js';
import { renderAgentStack } from './agent-stack.js';
import { toYaml } from './manifest-yaml.js';
import { InvalidNodeAgentOptionsError, renderNodeAgent } from './node-agent-manifests.js';

const USAGE = `Usage: deploy:render --agent-id UUID --image IMAGE [--replicas N]
       deploy:render node-agent --image IMAGE --backend-url URL [--namespace proxima-system]
                     [--host-data-dir /var/lib/proxima-agent] [--metrics-interval 60s] [--legacy-nodes-proxy]
                     [--kubelet-ca-file FILE]
`;

function renderStack(argv: string[]): string {
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

function renderNodeAgentCommand(argv: string[]): string {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      image: { type: 'string' },
      'backend-url': { type: 'string' },
      namespace: { type: 'string' },
      'host-data-dir': { type: 'string' },
      'metrics-interval': { type: 'string' },
      'legacy-nodes-proxy': { type: 'boolean', default: false },
      'kubelet-ca-file': { type: 'string' },
    },
  });
  const { image } = values;
  const backendUrl = values['backend-url'];
  if (image === undefined || backendUrl === undefined)
    throw new InvalidNodeAgentOptionsError('--image and --backend-url are required');
  return toYaml(
    renderNodeAgent({
      image,
      backendUrl,
      legacyNodesProxy: values['legacy-nodes-proxy'],
      ...(values.namespace === undefined ? {} : { namespace: values.namespace }),
      ...(values['host-data-dir'] === undefined ? {} : { hostDataDir: values['host-data-dir'] }),
      ...(values['metrics-interval'] === undefined ? {} : { metricsInterval: values['metrics-interval'] }),
      ...(values['kubelet-ca-file'] === undefined ? {} : { kubeletCaFile: values['kubelet-ca-file'] }),
    }),
  );
}

function render(argv: string[]): string {
  return argv[0] === 'node-agent' ? renderNodeAgentCommand(argv.slice(1)) : renderStack(argv);
}

try {
  process.stdout.write(render(process.argv.slice(2)));
} catch (e: unknown) {
  // parseArgs reports bad flags as TypeErrors with a code; all three are usage errors.
  const usage =
    e instanceof InvalidAgentStackOptionsError ||
    e instanceof InvalidNodeAgentOptionsError ||
    (e instanceof TypeError && 'code' in e);
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n${usage ? USAGE : ''}`);
  process.exitCode = usage ? 2 : 1;
}
