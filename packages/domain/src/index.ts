export type {
  AddressPoolInput,
  AllocationKind,
  AllocationStrategy,
  NextAddressOptions,
  PoolUtilization,
  RandomBelow,
} from './address-pool.js';
export { AddressPool, ALLOCATION_STRATEGIES, isAllocationStrategy } from './address-pool.js';
export type { ReadTakenValues, TakenRuns, TakenValuesQuery } from './nearest-free-value.js';
export type { ErrorCode, FieldViolation } from './domain-error.js';
export {
  AbortedError,
  AlreadyExistsError,
  DomainError,
  FailedPreconditionError,
  InvalidArgumentError,
  NotFoundError,
  PermissionDeniedError,
  ResourceExhaustedError,
  UnauthenticatedError,
  UnavailableError,
} from './domain-error.js';
export type { IpAddress, IpFamily, IpPrefix } from './ip-prefix.js';
export {
  formatIpAddress,
  formatIpPrefix,
  gatewayProblem,
  parseIpAddress,
  parseIpPrefix,
  prefixContains,
  prefixesOverlap,
  usableHostRange,
} from './ip-prefix.js';
export type { AddressUse, SpecialPurposeRange } from './special-purpose-address.js';
export {
  prefixUse,
  publicAddressProblem,
  SPECIAL_PURPOSE_RANGES,
  specialPurposeRangeOf,
} from './special-purpose-address.js';
export { macAddressOf, macAddressSuffix, nextMacAddressSuffix, parseMacAddress } from './mac-address.js';
export type { City, Datacenter } from './region-catalogue.js';
export { CITIES, DATACENTERS, datacenterFitsCity, findCity, findDatacenter } from './region-catalogue.js';
export type {
  BackupStorageCompression,
  NicModel,
  NodeComputeType,
  NodeSettings,
  NodeSettingsInput,
  Problem,
} from './node-settings.js';
export {
  BACKUP_STORAGE_COMPRESSIONS,
  DEFAULT_MAC_ADDRESS_PREFIX,
  DEFAULT_NETWORK_BRIDGE,
  DEFAULT_NETWORK_NAME,
  DEFAULT_NIC_MODEL,
  DEFAULT_NODE_COMPUTE_TYPE,
  DEFAULT_PROXMOX_CPU_TYPE,
  isBackupStorageCompression,
  isNicModel,
  isNodeComputeType,
  macAddressPrefixProblem,
  MAX_OVERALLOCATE_PERCENT,
  MAX_VLAN_ID,
  MAX_VMID,
  MIN_OVERALLOCATE_PERCENT,
  MIN_VLAN_ID,
  MIN_VMID,
  networkBridgeProblem,
  networkNameProblem,
  networkVlanIdProblem,
  NIC_MODELS,
  NO_OVERALLOCATION_PERCENT,
  NODE_COMPUTE_TYPES,
  NODE_SETTING_DEFAULTS,
  nodeNameProblem,
  nodeSettingsViolations,
  normalizeMacAddressPrefix,
  overallocatePercentProblem,
  proxmoxCpuTypeProblem,
  storageIdProblem,
  UNTAGGED_VLAN_ID,
  vmidSeedProblem,
  withNodeSettingDefaults,
} from './node-settings.js';
export { nextVmid } from './vmid.js';
export type { AddonType, BackupPolicy } from './addon-definition.js';
export {
  ADDON_TYPES,
  addonCodeProblem,
  addonDefinitionViolations,
  addonNameProblem,
  BACKUP_RETENTION,
} from './addon-definition.js';
export { CronSchedule, cronScheduleProblem } from './cron-schedule.js';
export {
  amountInCurrencyProblem,
  currencyMinorUnitDecimals,
  currencyProblem,
  RATE_EXTRA_DECIMALS,
} from './currency.js';
export { formatMoneyAmount, moneyAmountProblem, normalizeMoneyAmount, parseMoneyAmount } from './money.js';
export { MAX_PERCENTAGE, parsePercentage, percentageProblem } from './percentage.js';
export type { ComputeType } from './plan-code.js';
export {
  COMPUTE_CATEGORIES,
  COMPUTE_TYPE_ABBREVIATIONS,
  COMPUTE_TYPES,
  derivePlanCode,
  findComputeType,
  parsePlanCode,
} from './plan-code.js';
export type { BillingPeriod, BillingType, PlanDefinition, PlanPriceDefinition } from './plan-definition.js';
export {
  BILLING_PERIODS,
  BILLING_TYPES,
  CREDIT_EXHAUSTION_ACTIONS,
  cpuLimitProblem,
  DEFAULT_CPU_UNITS,
  PLAN_LIMITS,
  planDefinitionViolations,
  planNameProblem,
  planPriceViolations,
  UNLIMITED,
} from './plan-definition.js';
export type { NodeCapacity } from './plan-node-fit.js';
export { nodeComputeTypeFor, planNodeFit } from './plan-node-fit.js';
export type { AddonPricing, PriceQuote, QuotedAddon, QuotedPlan } from './price-quote.js';
export { billingPeriodHours, HOURS_PER_MONTH, quotePrice } from './price-quote.js';
export type { CloudConfigWarning, CloudConfigWarningCode } from './cloud-config-warnings.js';
export { cloudConfigWarnings, templateWarnings } from './cloud-config-warnings.js';
export type {
  CloudInitCompileResult,
  CloudInitDocument,
  CloudInitDocuments,
  CloudInitProblem,
  VariableResolver,
} from './cloud-init-compiler.js';
export {
  checkNamesOnly,
  CLOUD_INIT_DOCUMENTS,
  compileCloudInit,
  describeCloudInitProblem,
} from './cloud-init-compiler.js';
export type { SeedCloudInitTemplate } from './cloud-init-seeds.js';
export { findSeedCloudInitTemplate, SEED_CLOUD_INIT_TEMPLATES } from './cloud-init-seeds.js';
export type { CloudInitValues } from './cloud-init-variables.js';
export { resolveVariable, TEMPLATE_VARIABLES } from './cloud-init-variables.js';
export type { Distro } from './distro.js';
export { DISTROS, isDistro } from './distro.js';
export { sha512Crypt, sha512CryptSalt } from './sha512-crypt.js';
export { hostnameProblem } from './hostname.js';
export type {
  CapacityFit,
  CapacityProblem,
  CapacityResource,
  CapacityShortfall,
  NodeCapacityState,
  ResourceAmounts,
} from './node-capacity.js';
export { CAPACITY_RESOURCES, nodeCapacityFit, requestedAmounts, sellableAmount } from './node-capacity.js';
export type {
  NodePlacementStrategy,
  PlacementCandidate,
  PlacementContext,
  PlacementPolicy,
} from './placement-policy.js';
export {
  chooseNode,
  DEFAULT_NODE_PLACEMENT_STRATEGY,
  isNodePlacementStrategy,
  NODE_PLACEMENT_STRATEGIES,
  strategyForRegion,
} from './placement-policy.js';
export type {
  PreflightAgentFacts,
  PreflightCheck,
  PreflightCheckCode,
  PreflightInfrastructureEntry,
  PreflightNetworkFacts,
  PreflightNodeFacts,
  PreflightProxmoxFacts,
  PreflightPlanFacts,
  PreflightPlatformFacts,
  PreflightResult,
  PreflightTemplateFacts,
} from './preflight.js';
export { evaluatePreflight, PREFLIGHT_CHECK_CODES } from './preflight.js';
export type { FirewallProtocol } from './firewall-protocol.js';
export { FIREWALL_PROTOCOLS } from './firewall-protocol.js';
export type {
  FirewallAction,
  FirewallDirection,
  FirewallEndpoint,
  FirewallRuleSpec,
} from './firewall-rule.js';
export {
  FIREWALL_ACTIONS,
  FIREWALL_DIRECTIONS,
  FIREWALL_NAME_MAX_LENGTH,
  FIREWALL_PORTS_PATTERN,
  firewallNameProblem,
  firewallPrefixProblem,
  firewallRuleReferences,
  firewallRuleViolations,
  normalizeFirewallRule,
  VM_TAG_PATTERN,
} from './firewall-rule.js';
export type {
  CompiledFirewallRule,
  FirewallResolution,
  PositionedFirewallRule,
} from './firewall-compiler.js';
export { compileFirewallRules } from './firewall-compiler.js';
export type { ForwardingDecision } from './metric-forwarding.js';
export {
  FORWARDED_FAMILIES,
  FORWARDED_FAMILY_PREFIXES,
  forwardingDecision,
  forwardingPatterns,
  GUEST_DROPPED_FAMILIES,
  NR_GUEST_NAME_PREFIX,
} from './metric-forwarding.js';
export type { PeriodBounds } from './billing-period.js';
export { billingPeriodAt, previousBillingPeriod } from './billing-period.js';
export type { PlatformComponent, PlatformVersions } from './platform-versions.js';
export { parsePlatformVersions, platformVersionsSchema } from './platform-versions.js';
