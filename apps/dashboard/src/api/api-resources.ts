/**
 * The shapes of the control plane's answers the dashboard reads, named as the pages use them. Every one
 * is taken from `openapi.generated.ts`, which is generated from the control plane's OpenAPI document: a
 * change to the API shows up here as a type error in the pages it touches.
 */
import type { components, paths } from './openapi.generated.js';

type Schemas = components['schemas'];

type JsonBody<R> = R extends { readonly content: { readonly 'application/json': infer B } } ? B : never;

/** The JSON body of the successful answer (200 or 201) of `method path`. */
type Answer<P extends keyof paths, M extends 'get' | 'post'> = paths[P][M] extends {
  readonly responses: infer R;
}
  ? JsonBody<R[200 & keyof R]> | JsonBody<R[201 & keyof R]>
  : never;

/** The JSON body `method path` takes. */
type Body<P extends keyof paths, M extends 'post' | 'patch'> = paths[P][M] extends {
  readonly requestBody?: infer R;
}
  ? JsonBody<NonNullable<R>>
  : never;

/** One element of a list. */
type Item<L> = L extends readonly (infer T)[] ? T : never;

export type Organization = Schemas['Organization'];
export type OrganizationType = Organization['type'];
/** An organisation the caller belongs to, with their role in it. */
export type Membership = Item<Answer<'/v1/organizations', 'get'>['organizations']>;
export type LoginAnswer = Answer<'/v1/auth/login', 'post'>;
export type RegisterAnswer = Answer<'/v1/auth/register', 'post'>;
export type Money = Item<MarketplaceSku['lowestMonthlyPrices']>;

export type MarketplaceSku = Schemas['MarketplaceSku'];
/** One provider's offer of a SKU, as the offers page lists them (`GET /v1/marketplace/providers`). */
export type MarketplaceOffer = Schemas['MarketplaceProviderInfo'];
/** One offer as the order form reads it (`GET /v1/marketplace/plans/{id}`). */
export type OfferDetail = Answer<'/v1/marketplace/plans/{id}', 'get'>['offer'];
export type MarketplaceLocation = Item<Answer<'/v1/marketplace/regions', 'get'>['regions']>;

export type VirtualMachine = Schemas['VirtualMachine'];
export type ProvisioningState = VirtualMachine['provisioningState'];
export type ProviderVirtualMachine = Schemas['ProviderVirtualMachine'];
export type SshKey = Schemas['SshKey'];

export type FirewallRuleset = Schemas['FirewallRuleSet'];
export type FirewallRuleSpec = Schemas['FirewallRuleSpec'];
export type FirewallRule = Schemas['FirewallRule'];
export type FirewallDirection = FirewallRuleSpec['direction'];
export type FirewallAction = FirewallRuleSpec['action'];
export type FirewallEndpoint = FirewallRuleSpec['source'];

export type Snapshot = Schemas['Snapshot'];
export type Backup = Schemas['Backup'];

export type MetricsAnswer = Schemas['VirtualMachineMetrics'];
export type MetricSeriesName = MetricsAnswer['series'];
export type MetricPoint = Item<MetricsAnswer['points']>;
export type BandwidthUsage = Schemas['VirtualMachineBandwidthUsage'];

export type Agent = Schemas['Agent'];
/** A device's sign-in waiting for the user's approval (`GET /v1/oauth/device/{userCode}`). */
export type PendingDevice = Schemas['PendingDevice'];
export type InstallCommand = Answer<'/v1/agents/{id}:generateInstallCommand', 'post'>;
export type Region = Schemas['Region'];
export type CatalogueCountry = Item<Answer<'/v1/countries-cities', 'get'>['countries']>;
export type Datacenter = Item<Answer<'/v1/datacenters', 'get'>['datacenters']>;
export type Platform = Schemas['Platform'];
export type HypervisorNode = Schemas['Node'];

export type IpamNetwork = Schemas['IpamNetwork'];
export type IpamPrefix = Schemas['IpamPrefix'];
export type PrefixUtilization = Schemas['IpamUtilization'];

export type VmTemplate = Schemas['VMTemplate'];
export type CloudInitTemplate = Schemas['CloudInitTemplate'];
export type CloudInitRender = Answer<'/v1/cloudinittemplate/{id}:render', 'post'>;

export type Plan = Schemas['Plan'];
/** What `PATCH /v1/plans/{id}` takes: the fields to change. */
export type PlanChange = Body<'/v1/plans/{id}', 'patch'>;
export type AssignableNode = Item<Answer<'/v1/provider/plans/assignable-nodes', 'get'>['nodes']>;
/** A check, or one of the checks it is made of (which has none of its own). */
export type PreflightCheck = Schemas['PreflightCheck'] | Item<Schemas['PreflightCheck']['subChecks']>;
export type PlanPreflight = Schemas['PreflightResult'];
export type PreflightChain = Item<PlanPreflight['infrastructure']>;
export type PreflightAnswer = Answer<'/v1/provider/preflight-checks', 'get'>;
