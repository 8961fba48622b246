import {
  ALLOY_NAME,
  CONTROL_PLANE_NAME,
  METRICS_WRITE_CREDENTIAL_SECRET,
  metricsWriteCredentialSecret,
  OPERATOR_NAME,
  OPERATOR_NAMESPACE,
  PVE_EXPORTER_NAME,
  pveExporterConfigSecret,
  renderAgentStack,
} from '@noderings/deploy';
import type { KubeObject } from '@noderings/kube';

import { CliError } from '../../cli-error.js';
import { runChecked } from '../../host/host.js';
import {
  applyCommand,
  applyObjects,
  getJson,
  hasStackSecret,
  kubectl,
  readyCount,
  stackDeployment,
} from '../kubectl.js';
import type { Phase, RegisterContext } from '../phase.js';
import { agentIdOf, instancesOf, pinsOf, waitFor } from '../phase.js';
import { ALLOY_COMPONENT, OPERATOR_COMPONENT, PVE_EXPORTER_COMPONENT, pinOf } from '../platform-versions.js';
import { mintMetricsToken } from '../metrics-credential.js';
import { checkProxmoxInstance, credentialSecret, credentialSecretName } from '../proxmox-instances.js';

const AVAILABLE_TIMEOUT_MS = 3 * 60_000;

/** Every object of the agent's stack, as `nr cluster manifests` prints and this phase applies it. */
export async function stackObjects(ctx: RegisterContext): Promise<KubeObject[]> {
  if (ctx.input.skipOperatorInstall) {
    // The provider runs its own operator: everything but its Deployment (the image is then unused).
    const stack = renderAgentStack({ agentId: agentIdOf(ctx), image: 'provided-by-the-provider' });
    return stack.filter((o) => !(o.kind === 'Deployment' && o.metadata?.name === OPERATOR_NAME));
  }
  const pins = await pinsOf(ctx);
  const image = (name: string) => pinOf(pins, name).image ?? '';
  const [metricsInstance] = await instancesOf(ctx);
  return renderAgentStack({
    agentId: agentIdOf(ctx),
    image: image(OPERATOR_COMPONENT),
    ...(metricsInstance !== undefined && {
      images: { pveExporter: image(PVE_EXPORTER_COMPONENT), alloy: image(ALLOY_COMPONENT) },
      // The first instance's NR VMs are what the exporter reads and Alloy forwards.
      metrics: {
        remoteWriteUrl: `${ctx.apiUrl}/api/v1/write`,
        proxmoxEndpoint: new URL(metricsInstance.url).host,
      },
    }),
  });
}

/** The stack's workloads register waits for: the operator, and the metrics path's exporter and Alloy. */
const WORKLOADS = [OPERATOR_NAME, PVE_EXPORTER_NAME, ALLOY_NAME];

/** With --skip-operator-install: the namespaces, CRDs and RBAC are there (the control plane's account). */
async function stackWithoutOperatorDone(ctx: RegisterContext): Promise<boolean> {
  if (ctx.state.agent_id === undefined) return false;
  const namespace = `${ctx.state.agent_id}-operator`;
  return (await getJson(ctx.host, ['serviceaccount', CONTROL_PLANE_NAME, '-n', namespace])) !== undefined;
}

/**
 * Phase 6: the agent stack (namespaces, CRDs, RBAC, the operator) by server-side apply of what `deploy/`
 * renders, and each Proxmox instance's credentials, checked against its API first, as a Secret in
 * `proxmox-system`. Done when the operator runs the pinned image and every credential Secret is there.
 */
export const stackPhase: Phase = {
  name: 'stack',
  title: 'Agent stack',
  isDone: async (ctx) => {
    if (ctx.input.skipOperatorInstall) return stackWithoutOperatorDone(ctx);
    if (ctx.input.reinstallOperator) return false;
    const operator = pinOf(await pinsOf(ctx), OPERATOR_COMPONENT);
    const deployment = await stackDeployment(ctx.host, OPERATOR_NAME);
    if (deployment?.spec?.template?.spec?.containers?.[0]?.image !== operator.image) return false;
    for (const name of WORKLOADS) if (readyCount(await stackDeployment(ctx.host, name)) < 1) return false;
    const secrets = [METRICS_WRITE_CREDENTIAL_SECRET, ...(await instancesOf(ctx)).map(credentialSecretName)];
    for (const name of secrets) if (!(await hasStackSecret(ctx.host, name))) return false;
    return true;
  },
  plan: async (ctx) => {
    const instances = await instancesOf(ctx);
    const objects = ctx.state.agent_id === undefined ? undefined : await stackObjects(ctx);
    const kinds =
      objects === undefined
        ? 'for the agent the agent phase creates'
        : `${String(objects.length)} objects: ${[...new Set(objects.map((o) => o.kind))].join(', ')}`;
    return [
      ...instances.map((i) => ({
        description: `check the token of Proxmox instance ${i.id} against ${i.url}`,
      })),
      {
        description: `apply the agent stack (namespaces, CRDs, RBAC, the operator, pve-exporter, Alloy; ${kinds})`,
        command: applyCommand('(stack)'),
      },
      ...instances.map((i) => ({
        description: `apply Secret ${OPERATOR_NAMESPACE}/${credentialSecretName(i)} (on stdin)`,
        command: applyCommand('(secret)'),
      })),
      {
        description: `mint the metrics write credential (POST /v1/metrics-credentials) into Secret ${METRICS_WRITE_CREDENTIAL_SECRET}`,
      },
      { description: `wait for ${WORKLOADS.map((w) => `deployment/${w}`).join(', ')} to be available` },
    ];
  },
  run: async (ctx) => {
    if (ctx.input.skipOperatorInstall) {
      await applyObjects(ctx.host, await stackObjects(ctx));
      ctx.say(
        'the stack without the operator (--skip-operator-install): run your own, with its Proxmox credentials',
      );
      return;
    }
    const instances = await instancesOf(ctx);
    if (instances.length === 0)
      throw new CliError(
        'REGISTER_REFUSED',
        'The operator needs a Proxmox instance: pass --proxmox-instances-file FILE (or --skip-operator-install).',
      );
    for (const instance of instances) {
      const { version, nodes } = await checkProxmoxInstance(instance);
      ctx.say(`Proxmox ${instance.id}: VE ${version}, nodes ${nodes.join(', ')}`);
    }
    if (ctx.input.reinstallOperator)
      await runChecked(
        ctx.host,
        kubectl([
          'delete',
          'deployment',
          OPERATOR_NAME,
          '-n',
          OPERATOR_NAMESPACE,
          '--ignore-not-found',
          '--wait=true',
        ]),
      );
    await applyObjects(ctx.host, await stackObjects(ctx));
    // Secrets go on stdin, never on a command line another user could read.
    const [first] = instances;
    const secrets = [
      ...instances.map(credentialSecret),
      ...(first === undefined ? [] : [pveExporterConfigSecret(first)]),
    ];
    // The write token is shown once: minted only when the cluster does not hold it already.
    if (!(await hasStackSecret(ctx.host, METRICS_WRITE_CREDENTIAL_SECRET)))
      secrets.push(
        metricsWriteCredentialSecret(await mintMetricsToken(ctx.api, agentIdOf(ctx), ctx.state.agent_name)),
      );
    await applyObjects(ctx.host, secrets);
    for (const name of WORKLOADS)
      await waitFor(ctx, `deployment/${name} to be available`, AVAILABLE_TIMEOUT_MS, async () =>
        readyCount(await stackDeployment(ctx.host, name)) >= 1 ? true : undefined,
      );
  },
};
