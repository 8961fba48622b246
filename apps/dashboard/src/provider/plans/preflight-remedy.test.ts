import { describe, expect, it } from 'vitest';

import type { PreflightChain } from '../../api/api-resources.js';
import { paths } from '../../shell/navigation.js';
import { remedyOf } from './preflight-remedy.js';

const chain: PreflightChain['agent'] = {
  id: 'a1',
  name: 'edge',
  checks: [],
  platform: { id: 'p1', name: 'pve', checks: [], node: { id: 'n1', name: 'pve1', checks: [] } },
};

/**
 * Every infrastructure check a provider fixes in the dashboard (the plan's own are fixed where shown): the
 * non-plan codes of the domain's PREFLIGHT_CHECK_CODES, which the dashboard does not import.
 */
const INFRASTRUCTURE_CHECKS = [
  'AGENT_LINKED',
  'AGENT_PROVISIONED',
  'AGENT_PEERED',
  'PLATFORM_ONLINE',
  'NODE_ONLINE',
  'NODE_NOT_IN_MAINTENANCE',
  'NODE_INVENTORY_SYNCED',
  'NODE_COMPUTE_TYPE',
  'NODE_PLAN_FITS',
  'NODE_CAPACITY_LEFT',
  'NODE_VM_TEMPLATES',
  'NODE_ON_PROXMOX',
  'NODE_TEMPLATES_ON_PROXMOX',
  'NODE_CLOUD_INIT',
  'NODE_NETWORK',
  'NODE_FREE_IPV4',
  'NODE_FREE_IPV6',
  'NODE_STORAGE_HEADROOM',
];

describe('preflight remedies', () => {
  it('link every failed infrastructure check to a page of the dashboard', () => {
    const pages = Object.values(paths).filter((p) => typeof p === 'string');
    for (const code of INFRASTRUCTURE_CHECKS) {
      const remedy = remedyOf(code, chain);
      expect(remedy, code).toBeDefined();
      expect(pages, code).toContain(remedy?.to.split('#')[0]);
    }
  });

  it('lead to the agent, platform or node the check is about', () => {
    expect(remedyOf('AGENT_PEERED', chain)).toEqual({
      to: '/infrastructure/agents#kubeconfig-a1',
      label: 'Upload the kubeconfig of edge',
    });
    expect(remedyOf('AGENT_LINKED', chain)?.to).toBe('/infrastructure/platforms-nodes#platform-p1');
    expect(remedyOf('NODE_CAPACITY_LEFT_MEMORY', chain)?.to).toBe('/infrastructure/platforms-nodes#node-n1');
  });

  it('offer nothing where no page fixes the check', () => {
    expect(remedyOf('PLAN_PROVIDER_VERIFIED', chain)).toBeUndefined();
    expect(remedyOf('AGENT_PEERED', { ...chain, id: null })).toBeUndefined();
  });
});
