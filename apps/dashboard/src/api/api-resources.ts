/**
 * The shapes of the control plane's answers the dashboard reads, as its OpenAPI document
 * (`/openapi.json`) declares them. Only the fields the pages use are spelled out.
 */

export type OrganizationType = 'ORGANIZATION_TYPE_PROVIDER' | 'ORGANIZATION_TYPE_CLIENT';
type MemberRole = 'MEMBER_ROLE_OWNER' | 'MEMBER_ROLE_ADMIN' | 'MEMBER_ROLE_MEMBER';

export interface Organization {
  readonly id: string;
  readonly name: string;
  readonly type: OrganizationType;
  readonly isVerified: boolean;
  readonly createTime: string;
}

export interface Membership extends Organization {
  readonly role: MemberRole;
}

export interface LoginAnswer {
  readonly token: string;
  readonly organizationId: string;
  readonly mfaRequired: boolean;
}

export interface RegisterAnswer {
  readonly token: string;
  readonly user: { readonly id: string; readonly email: string };
  readonly organization: Organization;
}

export interface Money {
  readonly currency: string;
  readonly amount: string;
}

type BillingPeriod =
  | 'BILLING_PERIOD_HOUR'
  | 'BILLING_PERIOD_DAY'
  | 'BILLING_PERIOD_WEEK'
  | 'BILLING_PERIOD_MONTH'
  | 'BILLING_PERIOD_QUARTER'
  | 'BILLING_PERIOD_YEAR';

interface PlanPrice {
  readonly billingPeriod: BillingPeriod;
  readonly currency: string;
  readonly unitAmount: string;
}

export interface MarketplaceSku {
  readonly planCode: string;
  readonly billingType: string;
  readonly computeType: string;
  readonly computeCategory: string;
  readonly vcpus: number;
  /** GiB, as every size in the API. */
  readonly ramGb: number;
  /** GiB. */
  readonly diskGb: number;
  readonly offerCount: number;
  readonly lowestMonthlyPrices: readonly Money[];
}

export interface MarketplaceOffer {
  readonly planId: string;
  readonly planCode: string;
  readonly planName: string;
  readonly organizationId: string;
  readonly organizationName: string;
  readonly billingType: string;
  readonly vcpus: number;
  /** GiB, as every size in the API. */
  readonly ramGb: number;
  /** GiB. */
  readonly diskGb: number;
  /** GiB of egress per bandwidth period; 0 is unlimited. */
  readonly bandwidthAllowanceGb: number;
  readonly bandwidthPeriod: BillingPeriod;
  readonly unlimitedBandwidth: boolean;
  readonly networkRateLimitMbps: number;
  readonly planPrices: readonly PlanPrice[];
  readonly monthlyPrice: Money;
  readonly setupFee: string;
  readonly trialDays: number;
  readonly planRegions: readonly { regionId: string; cityId: string; city: string; country: string }[];
  readonly hasCapacityInFilteredRegion: boolean;
  readonly ipv6AvailableInFilteredRegion: boolean;
}

/** One offer as the order form reads it (`GET /v1/marketplace/plans/{id}`). */
export interface OfferDetail extends Omit<MarketplaceOffer, 'planRegions' | 'hasCapacityInFilteredRegion'> {
  readonly computeType: string;
  readonly computeCategory: string;
  readonly regionId: string;
  readonly regionCity: string;
  readonly regionCountry: string;
  readonly distros: readonly string[];
  /** Every region the plan is offered in now, this one included. */
  readonly offeredRegions: readonly { regionId: string; regionCity: string; regionCountry: string }[];
  readonly hasCapacity: boolean;
  readonly ipv6Available: boolean;
}

export interface MarketplaceLocation {
  readonly country: string;
  readonly city: string;
  readonly cityId: string;
}

export type ProvisioningState =
  | 'PENDING'
  | 'WAITING_FOR_AGENT'
  | 'PROVISIONING'
  | 'RUNNING'
  | 'STOPPED'
  | 'FAILED'
  | 'DELETING'
  | 'DELETED';

type PowerState = 'POWER_STATE_RUNNING' | 'POWER_STATE_STOPPED' | 'POWER_STATE_UNKNOWN';

export interface VirtualMachine {
  readonly id: string;
  readonly hostname: string;
  readonly distro: string;
  readonly tags: readonly string[];
  readonly provisioningState: ProvisioningState;
  readonly statusMessage: string;
  readonly powerState: PowerState;
  readonly powerStateTime: string | null;
  readonly cpu: number;
  /** MiB. */
  readonly memory: number;
  /** GiB. */
  readonly storage: number;
  readonly providerName: string;
  readonly regionCountry: string;
  readonly regionCity: string;
  readonly ipv4: string | null;
  readonly ipv6: string | null;
  readonly planCode: string;
  readonly planBillingType: string;
  readonly createTime: string;
}

export interface ProviderVirtualMachine extends VirtualMachine {
  readonly clientOrganizationId: string;
  readonly planId: string;
  readonly nodeId: string | null;
  readonly vmid: number;
  readonly macAddress: string;
}

export interface SshKey {
  readonly id: string;
  readonly name: string;
  readonly publicKey: string;
  readonly keyType: string;
  readonly fingerprint: string;
  readonly createTime: string;
}

export interface FirewallRuleset {
  readonly id: string;
  readonly name: string;
  readonly ruleCount: number;
  readonly attachedVmCount: number;
  readonly attachedVmHostnames: readonly string[];
  /** The same VMs' ids, in the same order. */
  readonly attachedVmIds: readonly string[];
}

export type FirewallDirection = 'FIREWALL_DIRECTION_INGRESS' | 'FIREWALL_DIRECTION_EGRESS';
export type FirewallAction = 'FIREWALL_ACTION_ACCEPT' | 'FIREWALL_ACTION_DROP';

export interface FirewallEndpoint {
  readonly ips: readonly string[];
  readonly addressGroupIds: readonly string[];
  readonly vmTags: readonly string[];
}

export interface FirewallRuleSpec {
  readonly direction: FirewallDirection;
  readonly action: FirewallAction;
  readonly protocol: string;
  readonly source?: FirewallEndpoint;
  readonly destination?: FirewallEndpoint;
  readonly sourcePorts?: string;
  readonly destinationPorts?: string;
}

export interface FirewallRule {
  readonly id: string;
  readonly rulesetId: string;
  readonly rule: FirewallRuleSpec;
  readonly position: number;
}

export interface Snapshot {
  readonly id: string;
  readonly name: string;
  readonly createdAt: string;
  readonly description: string;
  readonly snapshotStatus: string;
  readonly restoreStatus: string;
  readonly operationStatus: string;
  readonly statusMessage: string;
}

export interface Backup {
  readonly id: string;
  readonly name: string;
  readonly createdAt: string;
  readonly sizeBytes: number;
  readonly backupStatus: string;
  readonly restoreStatus: string;
  readonly operationStatus: string;
  readonly statusMessage: string;
}

export type MetricSeriesName = 'cpu' | 'memory' | 'network';

export interface MetricPoint {
  readonly time: string;
  readonly cpuUsageRatio?: number;
  readonly cpuUsageRatioMax?: number;
  readonly memoryUsedBytes?: number;
  readonly memoryUsedBytesMax?: number;
  readonly networkReceiveBytesPerSecond?: number;
  readonly networkTransmitBytesPerSecond?: number;
}

export interface MetricsAnswer {
  readonly series: MetricSeriesName;
  readonly resolutionSeconds: number;
  readonly from: string;
  readonly to: string;
  readonly points: readonly MetricPoint[];
}

interface BandwidthPeriod {
  readonly start: string;
  readonly end: string;
  readonly egressBytes: number;
  readonly ingressBytes: number;
  /** GiB (1024³ bytes). */
  readonly egressGb: number;
  /** GiB. */
  readonly ingressGb: number;
}

export interface BandwidthUsage {
  readonly period: string;
  /** GiB of egress per period; 0: no allowance, traffic is unlimited. */
  readonly allowanceGb: number;
  readonly periods: readonly BandwidthPeriod[];
}

type ServiceStatus = 'SERVICE_STATUS_ONLINE' | 'SERVICE_STATUS_OFFLINE' | 'SERVICE_STATUS_MAINTENANCE';

type InboundPeeringState =
  | 'INBOUND_PEERING_STATE_PENDING'
  | 'INBOUND_PEERING_STATE_PEERING'
  | 'INBOUND_PEERING_STATE_READY'
  | 'INBOUND_PEERING_STATE_FAILED';

export interface Agent {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly agentPublicIp: string;
  readonly gwServerServicePort: number;
  readonly provisioned: boolean;
  readonly gatewayRegion: string;
  readonly hypervisorDriver: string;
  /** Derived when read: the cluster reached and metrics arriving. */
  readonly serviceStatus: ServiceStatus;
  /** "cluster reachable, metrics received 20 s ago", "cluster reachable, no metrics for 12 min". */
  readonly serviceStatusReason: string;
  readonly clusterReachable: boolean | null;
  readonly metricsReceiveTime: string | null;
  readonly createTime: string;
  readonly inboundPeeringState: InboundPeeringState;
  readonly inboundPeeringError: string;
}

export interface InstallCommand {
  readonly command: string;
  readonly token: string;
  /** When the one-time token lapses (an hour after it was made). */
  readonly expiresAt: string;
}

export interface Region {
  readonly id: string;
  readonly cityCountry: { readonly id: string; readonly cityName: string; readonly countryName: string };
  readonly datacenter: { readonly id: string; readonly name: string };
  readonly createTime: string;
}

export interface CatalogueCountry {
  readonly name: string;
  readonly cities: readonly { id: string; name: string }[];
}

export interface Datacenter {
  readonly id: string;
  readonly name: string;
  readonly cityId: string;
}

export interface Platform {
  readonly id: string;
  readonly name: string;
  readonly endpointUrl: string;
  readonly driver: string;
  readonly agentId: string | null;
  readonly agentProvisioned: boolean;
  readonly serviceStatus: ServiceStatus;
  readonly createTime: string;
}

interface StoragePool {
  readonly storageId: string;
  readonly totalBytes: number;
  readonly allocatedBytes: number;
}

interface NodeInventory {
  readonly cpuCores: number;
  readonly memoryBytes: number;
  readonly storagePools: readonly StoragePool[];
  /**
   * What guests NodeRings did not create use. The control plane keeps these in the node's inventory for
   * placement but its node view does not answer them yet; the capacity bars use them when present.
   */
  readonly nonNrCpuCores?: number;
  readonly nonNrMemoryBytes?: number;
  readonly nonNrDiskBytes?: number;
}

type NodeComputeType = 'NODE_COMPUTE_TYPE_SHARED' | 'NODE_COMPUTE_TYPE_DEDICATED';

export interface HypervisorNode {
  readonly id: string;
  readonly name: string;
  readonly platformId: string;
  readonly regionId: string;
  readonly serviceStatus: ServiceStatus;
  readonly maintenanceMode: boolean;
  readonly vmidSeed: number;
  readonly vmStorageDestination: string;
  readonly backupStorageDestination: string;
  readonly backupStorageCompression: string;
  readonly cpuOverallocatePercent: number;
  readonly memoryOverallocatePercent: number;
  readonly storageOverallocatePercent: number;
  readonly computeType: NodeComputeType;
  readonly networkBridge: string;
  readonly networkName: string;
  readonly networkModel: string;
  readonly networkVlanId: number;
  readonly macAddressPrefix: string;
  readonly proxmoxCpuType: string;
  readonly inventory: NodeInventory;
  readonly createTime: string;
  readonly updateTime: string;
}

export interface IpamNetwork {
  readonly id: string;
  readonly name: string;
  readonly dnsServers: readonly string[];
  readonly macAddressPrefix: string;
  readonly nodes: readonly { id: string; name: string }[];
}

export interface IpamPrefix {
  readonly id: string;
  readonly networkId: string | null;
  readonly cidr: string;
  readonly family: 'IP_FAMILY_IPV4' | 'IP_FAMILY_IPV6';
  readonly gateway: string;
  readonly allocationStrategy: string;
  readonly description: string;
  readonly vmAssignmentPrefixLength: number;
  readonly reservedIps: readonly string[];
  readonly reservedPrefixes: readonly string[];
}

/** Counts are decimal strings: a /64 of single addresses holds 2^64. */
export interface PrefixUtilization {
  readonly totalIps: string;
  readonly allocatedCount: string;
  readonly reservedCount: string;
  readonly availableCount: string;
  readonly utilizationPercent: number;
  readonly capacityUnitLabel: string;
  readonly capacityIsOpenEnded: boolean;
}

export interface VmTemplate {
  readonly id: string;
  readonly name: string;
  readonly distro: string;
  readonly templateId: number;
  readonly nodeId: string;
  readonly nodeName: string;
  readonly platformName: string;
  readonly cloudInitTemplateId: string;
  readonly proxmoxCpuType: string;
}

export interface CloudInitTemplate {
  readonly id: string;
  readonly name: string;
  readonly userData: string;
  readonly vendorData: string;
  readonly networkData: string;
  readonly storage: string;
  readonly isTemplate: boolean;
  readonly updateTime: string | null;
}

export interface CloudInitRender {
  readonly userData: string;
  readonly vendorData: string | null;
  readonly networkData: string | null;
  readonly warnings: readonly { code: string; message: string; line: number; key: string }[];
}

export interface Plan {
  readonly id: string;
  readonly code: string;
  readonly name: string;
  readonly computeCategory: string;
  readonly computeType: string;
  readonly vcpus: number;
  /** GiB, as every size in the API. */
  readonly ramGb: number;
  /** GiB. */
  readonly diskGb: number;
  /** GiB of egress per bandwidth period; 0 is unlimited. */
  readonly bandwidthAllowanceGb: number;
  readonly billingType: string;
  readonly planPrices: readonly PlanPrice[];
  /** Where the plan sells, in the provider's order; empty once deleted. */
  readonly regionIds: readonly string[];
  readonly nodeIds: readonly string[];
  readonly isPublic: boolean;
  readonly status: string;
}

export interface AssignableNode {
  readonly id: string;
  readonly name: string;
  readonly regionId: string;
  readonly computeType: NodeComputeType;
  readonly capacity?: 'CAPACITY_FITS' | 'CAPACITY_UNKNOWN';
}

export interface PreflightCheck {
  readonly code: string;
  readonly passed: boolean;
  readonly note: string;
  readonly subChecks: readonly PreflightCheck[];
}

export interface PreflightChain {
  readonly passed: boolean;
  readonly agent: {
    readonly id: string | null;
    readonly name: string;
    readonly checks: readonly PreflightCheck[];
    readonly platform: {
      readonly id: string;
      readonly name: string;
      readonly checks: readonly PreflightCheck[];
      readonly node: {
        readonly id: string;
        readonly name: string;
        readonly checks: readonly PreflightCheck[];
      };
    };
  };
}

export interface PlanPreflight {
  readonly planId: string;
  readonly planCode: string;
  readonly planName: string;
  readonly marketplaceReady: boolean;
  readonly summaryNote: string;
  readonly summaryIssues: readonly string[];
  /** What does not stop the sale: a node without a template for a distro other nodes offer. */
  readonly summaryWarnings: readonly string[];
  readonly regionLabels: readonly string[];
  readonly planChecks: readonly PreflightCheck[];
  readonly infrastructure: readonly PreflightChain[];
  readonly evaluatedAt: string;
}

export interface PreflightAnswer {
  readonly plans: readonly PlanPreflight[];
  readonly totalCount: number;
  readonly marketplaceReadyCheckIntervalSeconds: number;
  readonly marketplaceReadyCheckEnabled: boolean;
}
