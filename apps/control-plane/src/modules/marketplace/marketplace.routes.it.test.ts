import { randomUUID } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createClaimService } from '../../control-plane.js';
import {
  startTestControlPlane,
  type Caller,
  type TestControlPlane,
} from '../../control-plane.test-support.js';
import { DATABASE_KINDS } from '../../db/test-database.test-support.js';
import { createSeller } from '../placement/placement.test-support.js';
import { createReadyOffer, settlePreflight, type ReadyOffer } from '../preflight/preflight.test-support.js';

interface Sku {
  planCode: string;
  billingType: string;
  computeType: string;
  computeCategory: string;
  vcpus: number;
  ramGb: number;
  diskGb: number;
  offerCount: number;
  lowestMonthlyPrices: { currency: string; amount: string }[];
}

interface ProviderInfo {
  planId: string;
  planCode: string;
  organizationId: string;
  organizationName: string;
  monthlyPrice: { currency: string; amount: string };
  planPrices: { billingPeriod: string; currency: string; unitAmount: string }[];
  planRegions: { regionId: string; cityId: string; city: string; country: string }[];
  hasCapacityInFilteredRegion: boolean;
  ipv6AvailableInFilteredRegion: boolean;
  unlimitedBandwidth: boolean;
}

/** Each test sells its own disk size, so its plan code is its own in the shared marketplace. */
let nextDiskGb = 40;
function uniqueSpecs(extra: Record<string, unknown> = {}) {
  nextDiskGb += 1;
  return { diskGb: nextDiskGb, ...extra };
}

function code(diskGb: number, vcpus = 2, ramGb = 4): string {
  return `SC-GC-${String(vcpus)}C-${String(ramGb)}G-${String(diskGb)}`;
}

describe.each(DATABASE_KINDS)('the marketplace on the %s database', (kind) => {
  let t: TestControlPlane;
  beforeAll(async () => {
    t = await startTestControlPlane(kind);
  });
  afterAll(() => t.close());

  async function skus(query = ''): Promise<Sku[]> {
    const response = await t.call<{ skus: Sku[] }>('GET', `/v1/marketplace/plans?pageSize=100&${query}`);
    expect(response.status).toBe(200);
    return response.body.skus;
  }

  async function offers(planCode: string, query = ''): Promise<ProviderInfo[]> {
    const response = await t.call<{ providers: ProviderInfo[]; totalCount: number }>(
      'GET',
      `/v1/marketplace/providers?filterPlanCode=${planCode}&${query}`,
    );
    expect(response.status).toBe(200);
    expect(response.body.totalCount).toBe(response.body.providers.length);
    return response.body.providers;
  }

  async function isReady(caller: Caller, planId: string): Promise<boolean> {
    const response = await t.call<{ plans: { marketplaceReady: boolean }[] }>(
      'GET',
      `/v1/provider/preflight-checks?planId=${planId}`,
      { as: caller },
    );
    return response.body.plans[0]?.marketplaceReady ?? false;
  }

  it('lists a plan that passes preflight to anyone, with its price, region and room', async () => {
    const specs = uniqueSpecs();
    const offer = await createReadyOffer(t, { plan: specs });
    const planCode = code(specs.diskGb);
    expect(await isReady(offer.seller.provider, offer.planId)).toBe(true);

    expect((await skus()).find((s) => s.planCode === planCode)).toEqual({
      planCode,
      billingType: 'BILLING_TYPE_SUBSCRIPTION',
      computeType: 'COMPUTE_TYPE_GENERAL_COMPUTE',
      computeCategory: 'COMPUTE_CATEGORY_SHARED_COMPUTE',
      vcpus: 2,
      ramGb: 4,
      diskGb: specs.diskGb,
      offerCount: 1,
      lowestMonthlyPrices: [{ currency: 'EUR', amount: '5.000000' }],
    });
    const [info] = await offers(planCode);
    expect(info).toMatchObject({
      planId: offer.planId,
      organizationId: offer.seller.provider.organizationId,
      monthlyPrice: { currency: 'EUR', amount: '5.000000' },
      planPrices: [{ billingPeriod: 'BILLING_PERIOD_MONTH', currency: 'EUR', unitAmount: '5.000000' }],
      planRegions: [{ regionId: offer.seller.regionId }],
      hasCapacityInFilteredRegion: true,
      ipv6AvailableInFilteredRegion: false,
      unlimitedBandwidth: true,
    });

    const resolved = await t.call<{ offer: Record<string, unknown> }>(
      'GET',
      `/v1/marketplace/plans/${offer.planId}`,
    );
    expect(resolved.status).toBe(200);
    expect(resolved.body.offer).toMatchObject({
      planId: offer.planId,
      planCode,
      regionId: offer.seller.regionId,
      distros: ['DISTRO_UBUNTU_24_04'],
      hasCapacity: true,
    });
    const city = info?.planRegions[0];
    const regions = await t.call<{ regions: { country: string; city: string; cityId: string }[] }>(
      'GET',
      '/v1/marketplace/regions',
    );
    const firstPage = await t.call<{ skus: Sku[]; totalCount: number }>(
      'GET',
      '/v1/marketplace/plans?pageSize=1',
    );
    const pastTheEnd = await t.call<{ skus: Sku[]; totalCount: number }>(
      'GET',
      '/v1/marketplace/plans?pageSize=1&page=100000',
    );
    expect(firstPage.body.totalCount).toBeGreaterThanOrEqual(1);
    expect(pastTheEnd.body).toEqual({ skus: [], totalCount: firstPage.body.totalCount });
    expect(regions.body.regions).toContainEqual({
      country: city?.country,
      city: city?.city,
      cityId: city?.cityId,
    });
  });

  it('never lists a plan whose preflight fails', async () => {
    const cases: { name: string; make: () => Promise<ReadyOffer> }[] = [
      { name: 'ready', make: () => createReadyOffer(t, { plan: uniqueSpecs() }) },
      { name: 'private', make: () => createReadyOffer(t, { plan: uniqueSpecs({ isPublic: false }) }) },
      {
        name: 'unverified provider',
        make: async () => createReadyOffer(t, { plan: uniqueSpecs(), seller: await createSeller(t) }),
      },
      {
        name: 'node in maintenance',
        make: async () => {
          const offer = await createReadyOffer(t, { plan: uniqueSpecs() });
          await t.call('PATCH', `/v1/node/${offer.nodeId}`, {
            as: offer.seller.provider,
            body: { maintenanceMode: true },
          });
          await settlePreflight(t, offer.seller.provider);
          return offer;
        },
      },
      {
        name: 'node offline',
        make: () =>
          createReadyOffer(t, {
            plan: uniqueSpecs(),
            node: { cpuCores: 8, memoryGib: 32, storageGib: 500, serviceStatus: 'SERVICE_STATUS_OFFLINE' },
          }),
      },
      {
        name: 'priced at zero',
        make: () =>
          createReadyOffer(t, {
            plan: uniqueSpecs({
              planPrices: [{ billingPeriod: 'BILLING_PERIOD_MONTH', currency: 'EUR', unitAmount: '0' }],
            }),
          }),
      },
    ];
    const listedIds = async () => {
      const all = await skus();
      const listed = await Promise.all(all.map((s) => offers(s.planCode)));
      return new Set(listed.flat().map((o) => o.planId));
    };
    const made = [];
    for (const c of cases) made.push({ name: c.name, offer: await c.make() });
    const listed = await listedIds();
    for (const { name, offer } of made) {
      const ready = await isReady(offer.seller.provider, offer.planId);
      expect({ name, listed: listed.has(offer.planId) }).toEqual({ name, listed: ready });
      const resolved = await t.call('GET', `/v1/marketplace/plans/${offer.planId}`);
      expect({ name, status: resolved.status }).toEqual({ name, status: ready ? 200 : 404 });
    }
    expect(made.filter((m) => listed.has(m.offer.planId)).map((m) => m.name)).toEqual(['ready']);
  });

  it('hides a plan at once when its provider deletes it or makes it private', async () => {
    const specs = uniqueSpecs();
    const offer = await createReadyOffer(t, { plan: specs });
    expect(await offers(code(specs.diskGb))).toHaveLength(1);
    const patched = await t.call('PATCH', `/v1/plans/${offer.planId}`, {
      as: offer.seller.provider,
      body: { isPublic: false },
    });
    expect(patched.status).toBe(200);
    expect(await offers(code(specs.diskGb))).toEqual([]);
    expect((await t.call('GET', `/v1/marketplace/plans/${offer.planId}`)).status).toBe(404);
  });

  it('works out room on each read with the rule a purchase applies', async () => {
    const specs = uniqueSpecs();
    const offer = await createReadyOffer(t, {
      plan: specs,
      node: { cpuCores: 2, memoryGib: 8, storageGib: 200 },
    });
    const customer = await t.register('ORGANIZATION_TYPE_CLIENT');
    // Claimed without telling preflight: the listing's room must not wait for the next evaluation.
    await createClaimService(t.cp.db).claim({
      clientOrganizationId: customer.organizationId,
      planId: offer.planId,
      claimId: randomUUID(),
    });
    const [info] = await offers(code(specs.diskGb));
    expect(info?.hasCapacityInFilteredRegion).toBe(false);
  });

  it('filters by place, specs, price, bandwidth and IPv6, and sorts offers by price', async () => {
    const specs = uniqueSpecs({ vcpus: 4, ramGb: 8 });
    const planCode = code(specs.diskGb, 4, 8);
    const cheap = await createReadyOffer(t, {
      plan: {
        ...specs,
        planPrices: [{ billingPeriod: 'BILLING_PERIOD_HOUR', currency: 'EUR', unitAmount: '0.01' }],
      },
    });
    const dear = await createReadyOffer(t, {
      ipv6: true,
      plan: {
        ...specs,
        bandwidthAllowanceGb: 1000,
        planPrices: [
          { billingPeriod: 'BILLING_PERIOD_MONTH', currency: 'EUR', unitAmount: '20' },
          { billingPeriod: 'BILLING_PERIOD_YEAR', currency: 'EUR', unitAmount: '200' },
        ],
      },
    });
    const ids = (list: ProviderInfo[]) => list.map((o) => o.planId);
    // 0.01 an hour is 7.30 a month; 200 a year is 16.67 a month, cheaper than the monthly 20.
    expect((await offers(planCode)).map((o) => o.monthlyPrice.amount)).toEqual(['7.300000', '16.666667']);
    expect(ids(await offers(planCode))).toEqual([cheap.planId, dear.planId]);
    expect(
      ids(await offers(planCode, 'planPriceSort=PROVIDER_PLAN_PRICE_SORT_MOST_EXPENSIVE_FIRST')),
    ).toEqual([dear.planId, cheap.planId]);
    expect(ids(await offers(planCode, 'filterMaxMonthlyPrice=10&filterCurrency=EUR'))).toEqual([
      cheap.planId,
    ]);
    expect(ids(await offers(planCode, 'filterMaxMonthlyPrice=10&filterCurrency=USD'))).toEqual([]);
    expect(ids(await offers(planCode, 'filterUnlimitedBandwidthOnly=true'))).toEqual([cheap.planId]);
    expect(ids(await offers(planCode, 'filterIpv6AvailableOnly=true'))).toEqual([dear.planId]);

    const [first] = await offers(planCode);
    const place = first?.planRegions[0];
    const inCity = `filterCountry=${encodeURIComponent(place?.country ?? '')}&filterCity=${place?.cityId ?? ''}`;
    expect((await offers(planCode, inCity)).length).toBeGreaterThan(0);
    const elsewhere = place?.country === 'Japan' ? 'filterCountry=Brazil' : 'filterCountry=Japan';
    expect(await offers(planCode, elsewhere)).toEqual([]);

    const bySpecs = await skus('filterMinVcpus=4&filterMinRamGb=8&filterComputeType=GC');
    expect(bySpecs.find((s) => s.planCode === planCode)).toMatchObject({ offerCount: 2 });
    expect(bySpecs.every((s) => s.vcpus >= 4 && s.ramGb >= 8)).toBe(true);
    expect((await skus('filterMinVcpus=5')).some((s) => s.planCode === planCode)).toBe(false);
    expect((await skus('filterBillingType=BILLING_TYPE_USAGE')).some((s) => s.planCode === planCode)).toBe(
      false,
    );
  });

  it('refuses filters it cannot honour, naming them', async () => {
    const cases: [string, string][] = [
      ['/v1/marketplace/plans?filterCountry=Atlantis', 'query.filterCountry'],
      ['/v1/marketplace/plans?filterCountry=Germany&filterCity=Tokyo', 'query.filterCity'],
      ['/v1/marketplace/plans?filterMaxMonthlyPrice=10', 'query.filterCurrency'],
      ['/v1/marketplace/plans?filterMaxMonthlyPrice=-1&filterCurrency=EUR', 'query.filterMaxMonthlyPrice'],
      ['/v1/marketplace/plans?filterMinVcpus=0', 'query.filterMinVcpus'],
      ['/v1/marketplace/providers', 'query.filterPlanCode'],
      ['/v1/marketplace/plans/not-a-uuid', 'path.id'],
    ];
    for (const [path, field] of cases) {
      const response = await t.call<{ details: { fieldViolations: { field: string }[] }[] }>('GET', path);
      expect({ path, status: response.status }).toEqual({ path, status: 400 });
      expect(response.body.details.flatMap((d) => d.fieldViolations.map((v) => v.field))).toContain(field);
    }
    expect((await t.call('GET', `/v1/marketplace/plans/${randomUUID()}`)).status).toBe(404);
  });
});
