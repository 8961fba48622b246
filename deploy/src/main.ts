import { parseArgs } from 'node:util';

import { InvalidAgentStackOptionsError } from './agent-stack-options.js';
import { renderAgentStack } from './agent-stack.js';
import { toYaml } from './manifest-yaml.js';
import { writeNatsAuthorityFiles } from './nats-authority-files.js';
import { InvalidNodeAgentOptionsError, renderNodeAgent } from './node-agent-manifests.js';

const USAGE = `Usage: deploy:render --agent-id UUID --image IMAGE [--replicas N]
                     [--remote-write-url URL --proxmox-endpoint HOST:PORT --pve-exporter-image IMAGE --alloy-image IMAGE]
       deploy:render node-agent --image IMAGE --backend-url URL [--namespace proxima-system]
                     [--host-data-dir /var/lib/proxima-agent] [--metrics-interval 60s] [--legacy-nodes-proxy]
                     [--kubelet-ca-file FILE]
       deploy:render nats-authority --out DIR [--listen 0.0.0.0:4222] [--store-dir /var/lib/nats]
`;

function renderStack(argv: string[]): string {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      'agent-id': { type: 'string' },
      image: { type: 'string' },
      replicas: { type: 'string' },
      'remote-write-url': { type: 'string' },
      'proxmox-endpoint': { type: 'string' },
      'pve-exporter-image': { type: 'string' },
      'alloy-image': { type: 'string' },
    },
  });
  const agentId = values['agent-id'];
  const image = values.image;
  if (agentId === undefined || image === undefined)
    throw new InvalidAgentStackOptionsError('--agent-id and --image are required');
  const metrics = [
    values['remote-write-url'],
    values['proxmox-endpoint'],
    values['pve-exporter-image'],
    values['alloy-image'],
  ] as const;
  const [remoteWriteUrl, proxmoxEndpoint, pveExporter, alloy] = metrics;
  const given = metrics.filter((v) => v !== undefined).length;
  if (given !== 0 && given !== metrics.length)
    throw new InvalidAgentStackOptionsError(
      '--remote-write-url, --proxmox-endpoint, --pve-exporter-image and --alloy-image go together',
    );
  return toYaml(
    renderAgentStack({
      agentId,
      image,
      ...(values.replicas === undefined ? {} : { replicas: Number(values.replicas) }),
      ...(remoteWriteUrl !== undefined &&
        proxmoxEndpoint !== undefined &&
        pveExporter !== undefined &&
        alloy !== undefined && {
          images: { pveExporter, alloy },
          metrics: { remoteWriteUrl, proxmoxEndpoint },
        }),
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

/** A flag the command cannot use. */
class UsageError extends Error {}

/** Writes a new fleet NATS authority (server configuration and account seed) and says where. */
async function natsAuthorityCommand(argv: string[]): Promise<string> {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      out: { type: 'string' },
      listen: { type: 'string', default: '0.0.0.0:4222' },
      'store-dir': { type: 'string', default: '/var/lib/nats' },
    },
  });
  const listen = /^(.+):(\d{1,5})$/.exec(values.listen);
  if (values.out === undefined || listen === null)
    throw new UsageError('--out DIR is required, and --listen is HOST:PORT');
  const files = await writeNatsAuthorityFiles(values.out, {
    host: listen[1] ?? '',
    port: Number(listen[2]),
    storeDir: values['store-dir'],
  });
  return [
    `wrote ${files.serverConfig}: run every NATS server of the fleet with it (add your cluster block)`,
    `wrote ${files.accountSeed} (0600): the control plane's NR_NATS_ACCOUNT_SEED_FILE; keep it secret`,
    `fleet account ${files.accountPublicKey}`,
    '',
  ].join('\n');
}

async function render(argv: string[]): Promise<string> {
  if (argv[0] === 'node-agent') return renderNodeAgentCommand(argv.slice(1));
  if (argv[0] === 'nats-authority') return natsAuthorityCommand(argv.slice(1));
  return renderStack(argv);
}

try {
  process.stdout.write(await render(process.argv.slice(2)));
} catch (e: unknown) {
  // parseArgs reports bad flags as TypeErrors with a code; all of these are usage errors.
  const usage =
    e instanceof UsageError ||
    e instanceof InvalidAgentStackOptionsError ||
    e instanceof InvalidNodeAgentOptionsError ||
    (e instanceof TypeError && 'code' in e);
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n${usage ? USAGE : ''}`);
  process.exitCode = usage ? 2 : 1;
}
