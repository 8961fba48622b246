import { SEED_CLOUD_INIT_TEMPLATES } from '@noderings/domain';

import type { Caller, TestControlPlane } from '../../control-plane.test-support.js';
import { addNode, createSeller, type NodeReport, type Seller } from '../placement/placement.test-support.js';
import { planBody } from '../plans/plan.test-support.js';

const UBUNTU_SEED_ID = SEED_CLOUD_INIT_TEMPLATES[0]?.id ?? '';

/** A verified provider's public, priced plan on one node that passes every preflight check. */
export interface ReadyOffer {
  readonly seller: Seller;
  readonly nodeId: string;
  readonly planId: string;
  readonly cloudInitTemplateId: string;
}

/** Preflight runs just after a change; reading its results waits for that, so what follows sees it. */
export async function settlePreflight(t: TestControlPlane, provider: Caller): Promise<void> {
  const evaluated = await t.call('GET', '/v1/provider/preflight-checks?pageSize=1', { as: provider });
  if (evaluated.status !== 200) throw new Error(`preflight failed: ${JSON.stringify(evaluated.body)}`);
}

const ROOMY_NODE: NodeReport = { cpuCores: 8, memoryGib: 32, storageGib: 500 };

export async function createReadyOffer(
  t: TestControlPlane,
  options: {
    readonly plan?: Record<string, unknown>;
    readonly node?: NodeReport;
    readonly seller?: Seller;
    readonly ipv6?: boolean;
  } = {},
): Promise<ReadyOffer> {
  const seller =
    options.seller ??
    (await createSeller(
      t,
      {
        ipv4: { cidr: '10.0.0.0/24', gateway: '10.0.0.1' },
        ...(options.ipv6 === true && {
          ipv6: { cidr: '2001:db8::/48', gateway: '2001:db8::1', vmAssignmentPrefixLength: 64 },
        }),
      },
      await t.verifiedProvider(),
    ));
  const nodeId = await addNode(t, seller, options.node ?? ROOMY_NODE);
  const copy = await t.call<{ cloudInitTemplate: { id: string } }>('POST', '/v1/cloudinittemplate', {
    as: seller.provider,
    body: { name: `ubuntu ${nodeId}`, copyFromId: UBUNTU_SEED_ID },
  });
  if (copy.status !== 201) throw new Error(`cloud-init copy failed: ${JSON.stringify(copy.body)}`);
  const cloudInitTemplateId = copy.body.cloudInitTemplate.id;
  const template = await t.call('POST', '/v1/vmtemplate', {
    as: seller.provider,
    body: {
      name: `ubuntu on ${nodeId}`,
      distro: 'DISTRO_UBUNTU_24_04',
      templateId: 9000,
      nodeId,
      cloudInitTemplateId,
    },
  });
  if (template.status !== 201) throw new Error(`VM template failed: ${JSON.stringify(template.body)}`);
  const plan = await t.call<{ plan: { id: string } }>('POST', '/v1/plans', {
    as: seller.provider,
    body: planBody(seller.regionId, [nodeId], { isPublic: true, ...options.plan }),
  });
  if (plan.status !== 201) throw new Error(`plan create failed: ${JSON.stringify(plan.body)}`);
  await settlePreflight(t, seller.provider);
  return { seller, nodeId, planId: plan.body.plan.id, cloudInitTemplateId };
}
