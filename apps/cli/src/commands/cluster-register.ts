import { wireEnumOf, GATEWAY_REGION_PREFIX } from '../agent-view.js';
import { CliError, usageError } from '../cli-error.js';
import { booleanFlag, stringFlag, type Command } from '../command.js';
import { readClusterState, writeClusterState, type ClusterState } from '../cluster/cluster-state.js';
import { checkAgentIp, checkClusterName, hostOf } from '../cluster/cluster-target.js';
import type { RegisterContext, RegisterInput } from '../cluster/phase.js';
import { REGISTER_PHASES } from '../cluster/register-phases.js';
import { formatDuration, runPhases } from '../cluster/register-runner.js';

const DEFAULT_GATEWAY_REGION = 'AGENT_GATEWAY_REGION_AMS01';

export const clusterRegister: Command = {
  path: ['cluster', 'register'],
  summary: 'turns this machine into a registered agent cluster, phase by phase (resumable)',
  synopsis:
    '--name NAME --agent-ip IP --proxmox-instances-file FILE [--gateway-region R] [--agent-id ID] [--register-platform [--region-id ID]] [--api-server-url URL] [--resume] [--force] [--dry-run] [--skip-prechecks] [--skip-operator-install] [--reinstall-operator] [--offline]',
  options: {
    name: { type: 'string' },
    'agent-ip': { type: 'string' },
    'gateway-region': { type: 'string' },
    'agent-id': { type: 'string' },
    'proxmox-instances-file': { type: 'string' },
    'register-platform': { type: 'boolean' },
    'region-id': { type: 'string' },
    'api-server-url': { type: 'string' },
    resume: { type: 'boolean' },
    force: { type: 'boolean' },
    'dry-run': { type: 'boolean' },
    'skip-prechecks': { type: 'boolean' },
    'skip-operator-install': { type: 'boolean' },
    'reinstall-operator': { type: 'boolean' },
    offline: { type: 'boolean' },
  },
  args: [],
  check: (flags) => {
    const resume = booleanFlag(flags, 'resume');
    if (resume && stringFlag(flags, 'name') === undefined) throw usageError('--resume needs --name');
    if (!resume)
      for (const required of ['name', 'agent-ip'])
        if (stringFlag(flags, required) === undefined)
          throw usageError(`--${required} is required (unless --resume)`);
    checkClusterName(stringFlag(flags, 'name') ?? '');
    const ip = stringFlag(flags, 'agent-ip');
    if (ip !== undefined) checkAgentIp(ip);
    const region = stringFlag(flags, 'gateway-region');
    if (region !== undefined) wireEnumOf(GATEWAY_REGION_PREFIX, 'gateway-region', region);
    if (booleanFlag(flags, 'reinstall-operator') && !resume)
      throw usageError('--reinstall-operator goes with --resume');
    if (booleanFlag(flags, 'reinstall-operator') && booleanFlag(flags, 'skip-operator-install'))
      throw usageError('--reinstall-operator and --skip-operator-install contradict each other');
    if (stringFlag(flags, 'region-id') !== undefined && !booleanFlag(flags, 'register-platform'))
      throw usageError('--region-id goes with --register-platform');
    const apiServer = stringFlag(flags, 'api-server-url');
    if (apiServer !== undefined && !/^https:\/\/[^/\s]+(:\d+)?\/?$/.test(apiServer))
      throw usageError(`--api-server-url must be https://HOST[:PORT], not "${apiServer}"`);
    if (
      !resume &&
      stringFlag(flags, 'proxmox-instances-file') === undefined &&
      !booleanFlag(flags, 'skip-operator-install')
    )
      throw usageError('--proxmox-instances-file is required (unless --skip-operator-install)');
  },
  run: async (ctx) => {
    const name = stringFlag(ctx.flags, 'name') ?? '';
    const previous = await readClusterState(ctx.store, name);
    const resume = booleanFlag(ctx.flags, 'resume');
    if (resume && previous === undefined)
      throw new CliError(
        'REGISTER_REFUSED',
        `There is no register of ${name} to resume from ${ctx.store.dir}.`,
      );
    const input = inputOf(ctx.flags, name, previous);
    if (previous !== undefined && previous.agent_ip !== input.agentIp)
      throw new CliError(
        'REGISTER_REFUSED',
        `${name} was registered with the agent IP ${previous.agent_ip}, not ${input.agentIp}; deregister it first.`,
      );
    const client = await ctx.client();
    const apiUrl = ctx.settings.apiUrl ?? '';
    const state: ClusterState = previous ?? newState(input, apiUrl);
    // The flags of this run over what the first recorded: --resume acts on the same scope.
    state.register_scope = scopeOf(input);
    const host = hostOf(ctx.io.env);
    const context: RegisterContext = {
      host,
      api: client,
      apiUrl,
      configDir: ctx.store.dir,
      store: ctx.store,
      out: ctx.out,
      input,
      state,
      say: (message) => {
        ctx.io.stderr(`${message}\n`);
      },
      sleep: ctx.io.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
    };
    if (!input.dryRun) await writeClusterState(ctx.store, state);
    ctx.io.stderr(
      `${input.dryRun ? 'Planning' : resume ? 'Resuming' : 'Registering'} ${name} on ${host.description}\n`,
    );
    const started = Date.now();
    const report = await runPhases(context, REGISTER_PHASES);
    ctx.out.result(report, () =>
      input.dryRun
        ? 'Dry run: nothing was changed.\n'
        : `Registered ${name} (agent ${state.agent_id ?? '?'}) in ${formatDuration(Date.now() - started)}.\n`,
    );
  },
};

function inputOf(
  flags: Parameters<NonNullable<Command['check']>>[0],
  name: string,
  previous: ClusterState | undefined,
): RegisterInput {
  const scope = previous?.register_scope;
  const agentIp = stringFlag(flags, 'agent-ip') ?? previous?.agent_ip ?? '';
  const gatewayRegion = gatewayRegionOf(stringFlag(flags, 'gateway-region'), previous);
  const file = stringFlag(flags, 'proxmox-instances-file') ?? scope?.proxmox_instances_file;
  const regionId = stringFlag(flags, 'region-id') ?? scope?.region_id;
  const apiServerUrl = stringFlag(flags, 'api-server-url') ?? scope?.api_server_url;
  const agentId = stringFlag(flags, 'agent-id') ?? previous?.agent_id;
  return {
    name,
    agentIp,
    gatewayRegion,
    ...(agentId === undefined ? {} : { agentId }),
    ...(file === undefined ? {} : { proxmoxInstancesFile: file }),
    registerPlatform: booleanFlag(flags, 'register-platform') || (scope?.register_platform ?? false),
    ...(regionId === undefined ? {} : { regionId }),
    ...(apiServerUrl === undefined ? {} : { apiServerUrl: apiServerUrl.replace(/\/$/, '') }),
    force: booleanFlag(flags, 'force'),
    skipPrechecks: booleanFlag(flags, 'skip-prechecks'),
    skipOperatorInstall:
      booleanFlag(flags, 'skip-operator-install') || (scope?.skip_operator_install ?? false),
    reinstallOperator: booleanFlag(flags, 'reinstall-operator'),
    offline: booleanFlag(flags, 'offline'),
    dryRun: booleanFlag(flags, 'dry-run'),
    resume: booleanFlag(flags, 'resume'),
  };
}

function gatewayRegionOf(flag: string | undefined, previous: ClusterState | undefined): string {
  if (flag !== undefined) return wireEnumOf(GATEWAY_REGION_PREFIX, 'gateway-region', flag);
  return previous?.gateway_region ?? DEFAULT_GATEWAY_REGION;
}

function scopeOf(input: RegisterInput): ClusterState['register_scope'] {
  return {
    skip_operator_install: input.skipOperatorInstall,
    register_platform: input.registerPlatform,
    ...(input.proxmoxInstancesFile === undefined
      ? {}
      : { proxmox_instances_file: input.proxmoxInstancesFile }),
    ...(input.regionId === undefined ? {} : { region_id: input.regionId }),
    ...(input.apiServerUrl === undefined ? {} : { api_server_url: input.apiServerUrl }),
  };
}

function newState(input: RegisterInput, apiUrl: string): ClusterState {
  const now = new Date().toISOString();
  return {
    agent_name: input.name,
    agent_ip: input.agentIp,
    gateway_region: input.gatewayRegion,
    api_url: apiUrl,
    registration_time: now,
    phase: 'current',
    last_updated: now,
    checkpoints: [],
    versions: {},
    register_scope: scopeOf(input),
  };
}
