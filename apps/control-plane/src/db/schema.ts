import type { AgentType } from '@noderings/fleet';
import type { ColumnType, Generated, GeneratedAlways } from 'kysely';

/** A timestamp: read as a Date, written as a Date or an ISO string, defaulted by the database when omitted. */
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export type OrganizationType = 'ORGANIZATION_TYPE_PROVIDER' | 'ORGANIZATION_TYPE_CLIENT';
export type MemberRole = 'owner' | 'admin' | 'member';
export type TokenKind = 'session' | 'service_account' | 'agent';
export type ServiceStatus = 'SERVICE_STATUS_ONLINE' | 'SERVICE_STATUS_OFFLINE' | 'SERVICE_STATUS_MAINTENANCE';
export type InboundPeeringState =
  | 'INBOUND_PEERING_STATE_PENDING'
  | 'INBOUND_PEERING_STATE_PEERING'
  | 'INBOUND_PEERING_STATE_READY'
  | 'INBOUND_PEERING_STATE_FAILED';

interface UserTable {
  id: Generated<string>;
  email: string;
  password_hash: string;
  is_staff: Generated<boolean>;
  created_at: CreatedAt;
}

interface OrganizationTable {
  id: Generated<string>;
  name: string;
  type: OrganizationType;
  is_verified: Generated<boolean>;
  verified_at: NullableTimestamp;
  created_at: CreatedAt;
}

interface MembershipTable {
  organization_id: string;
  user_id: string;
  role: MemberRole;
  created_at: CreatedAt;
}

/** Every bearer credential: only the SHA-256 of the token is stored. */
interface AccessTokenTable {
  id: Generated<string>;
  /** SHA-256 of the token; PGlite reads bytea as a Uint8Array, pg as a Buffer. */
  token_hash: ColumnType<Uint8Array, Uint8Array, never>;
  kind: TokenKind;
  user_id: string | null;
  service_account_id: string | null;
  agent_id: string | null;
  organization_id: string | null;
  name: string | null;
  expires_at: Timestamp;
  revoked_at: NullableTimestamp;
  last_used_at: NullableTimestamp;
  created_at: CreatedAt;
}

export type DeviceAuthorizationStatus = 'pending' | 'approved' | 'denied' | 'redeemed';

/** A device's sign-in request (RFC 8628), polled with its device code until the user approves or denies it. */
interface DeviceAuthorizationTable {
  id: Generated<string>;
  device_code_hash: ColumnType<Uint8Array, Uint8Array, never>;
  /** Eight letters, stored without the dash the user sees. */
  user_code: string;
  client_id: string;
  status: ColumnType<DeviceAuthorizationStatus, DeviceAuthorizationStatus | undefined>;
  user_id: string | null;
  interval_seconds: number;
  last_polled_at: NullableTimestamp;
  expires_at: Timestamp;
  created_at: CreatedAt;
}

/** A rotating refresh token of a device's session (only its SHA-256). */
interface RefreshTokenTable {
  id: Generated<string>;
  token_hash: ColumnType<Uint8Array, Uint8Array, never>;
  user_id: string;
  client_id: string;
  access_token_id: string;
  expires_at: Timestamp;
  revoked_at: NullableTimestamp;
  created_at: CreatedAt;
}

/** A throttled key's counter (modules/auth/attempt-throttle.ts). */
interface AuthThrottleTable {
  scope: string;
  key: string;
  attempts: number;
  window_started_at: Timestamp;
  last_attempt_at: Timestamp;
  next_attempt_at: Timestamp;
}

/** An address (IPv4, or an IPv6 /64) the user has signed in from. */
interface SignInAddressTable {
  user_id: string;
  address: string;
  last_signed_in_at: Timestamp;
}

interface InvitationTable {
  id: Generated<string>;
  organization_id: string;
  email: string;
  role: MemberRole;
  /** SHA-256 of the token the invitation link carries; the token itself is never stored. */
  token_hash: ColumnType<Uint8Array, Uint8Array, never>;
  invited_by: string | null;
  created_at: CreatedAt;
  expires_at: Timestamp;
  accepted_at: NullableTimestamp;
  accepted_by: string | null;
  declined_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
}

interface ServiceAccountTable {
  id: Generated<string>;
  organization_id: string;
  name: string;
  description: string;
  role: MemberRole;
  is_active: Generated<boolean>;
  allowed_ips: string[];
  last_used_at: NullableTimestamp;
  deleted_at: NullableTimestamp;
  created_at: CreatedAt;
}

interface SecretTable {
  id: Generated<string>;
  organization_id: string;
  key: string;
  /** AES-256-GCM, see crypto/secret-box.ts; never leaves the service layer. */
  ciphertext: string;
  created_by: string | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

interface EnvironmentVariableTable {
  id: Generated<string>;
  organization_id: string;
  key: string;
  value: string;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

interface SshKeyTable {
  id: Generated<string>;
  organization_id: string;
  name: string;
  public_key: string;
  key_type: string;
  fingerprint: string;
  created_at: CreatedAt;
}

export interface AuditEventTable {
  /** bigserial: pg reads int8 as a string, PGlite as a number. */
  id: Generated<string | number>;
  organization_id: string | null;
  actor_kind: TokenKind | 'anonymous';
  actor_id: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  status_code: number;
  request_id: string;
  ip: string;
  /** The actor's organisation, when the event is recorded in another's log (a cross-tenant attempt). */
  actor_organization_id: ColumnType<string | null, string | null | undefined, never>;
  /** `GET /v1/secrets/{id}`: the route called. */
  route: ColumnType<string | null, string | null | undefined, never>;
  created_at: CreatedAt;
}

interface RegionTable {
  id: Generated<string>;
  organization_id: string;
  city_id: string;
  datacenter_id: string;
  created_at: CreatedAt;
}

export interface AgentTable {
  id: Generated<string>;
  organization_id: string;
  name: string;
  description: string;
  agent_public_ip: string;
  gateway_region: string;
  hypervisor_driver: string;
  gw_server_service_port: Generated<number>;
  provisioned: Generated<boolean>;
  inbound_peering_state: InboundPeeringState;
  inbound_peering_error: Generated<string>;
  /** The agent cluster's kubeconfig, sealed like a secret. */
  inbound_kubeconfig_ciphertext: string | null;
  service_status: ServiceStatus;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

interface InstallTokenTable {
  id: Generated<string>;
  agent_id: string;
  /** SHA-256 of the token; PGlite reads bytea as a Uint8Array, pg as a Buffer. */
  token_hash: ColumnType<Uint8Array, Uint8Array, never>;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
  created_at: CreatedAt;
}

interface PlatformTable {
  id: Generated<string>;
  organization_id: string;
  name: string;
  endpoint_url: string;
  driver: string;
  agent_id: string | null;
  service_status: ServiceStatus;
  /** When metrics first reported on the platform; null before. */
  metrics_reported_at: NullableTimestamp;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface NodeTable {
  id: Generated<string>;
  organization_id: string;
  platform_id: string;
  region_id: string;
  name: string;
  service_status: ServiceStatus;
  maintenance_mode: boolean;
  vmid_seed: number;
  vm_storage_destination: string;
  backup_storage_destination: string;
  backup_storage_compression: string;
  cpu_overallocate_percent: number;
  memory_overallocate_percent: number;
  storage_overallocate_percent: number;
  compute_type: string;
  network_bridge: string;
  network_name: string;
  network_model: string;
  network_vlan_id: number;
  mac_address_prefix: string;
  proxmox_cpu_type: string;
  /** Synced from the hypervisor's metrics (cores, memory, storage pools); empty until the first sync. */
  inventory: ColumnType<Record<string, unknown>, string | undefined, string>;
  /** The IPAM network the node's VMs take addresses from (at most one); written by the IPAM module only. */
  network_id: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

/** Money columns are numeric(18, 6), read as their text (`12.500000`) so no amount passes through a float. */
export interface PlanTable {
  id: Generated<string>;
  organization_id: string;
  code: string;
  name: string;
  compute_category: string;
  compute_type: string;
  vcpus: number;
  ram_gb: number;
  disk_gb: number;
  bandwidth_allowance_gb: number;
  bandwidth_period: string;
  network_rate_limit_mbps: number;
  cpu_units: number;
  cpu_limit: ColumnType<string, string, string>;
  billing_type: string;
  currency: string;
  setup_fee: ColumnType<string, string, string>;
  trial_days: number;
  is_public: boolean;
  on_credit_exhaustion: string;
  revision: Generated<number>;
  deleted_at: NullableTimestamp;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

interface PlanPriceTable {
  id: Generated<string>;
  plan_id: string;
  billing_period: string;
  currency: string;
  unit_amount: string;
}

interface PlanNodeTable {
  plan_id: string;
  node_id: string;
  position: number;
}

/** Where a live plan sells (migration 0017), in the provider's order; a deleted plan has none. */
interface PlanRegionTable {
  plan_id: string;
  region_id: string;
  position: number;
}

export interface AddonTable {
  id: Generated<string>;
  organization_id: string;
  code: string;
  name: string;
  addon_type: string;
  pricing_kind: 'fixed' | 'percentage';
  currency: string;
  unit_amount: string | null;
  percentage_value: string | null;
  zero_base_fallback_amount: string | null;
  auto_attach: boolean;
  is_public: boolean;
  backup_schedule: string | null;
  backup_retention: number | null;
  deleted_at: NullableTimestamp;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

interface AddonPlanTable {
  addon_id: string;
  plan_id: string;
  position: number;
}

interface CloudInitTemplateTable {
  id: Generated<string>;
  organization_id: string;
  name: string;
  user_data: string;
  vendor_data: string;
  network_data: string;
  storage: string;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

interface VmTemplateTable {
  id: Generated<string>;
  organization_id: string;
  node_id: string;
  cloud_init_template_id: string;
  name: string;
  distro: string;
  /** The Proxmox VMID of the template VM that orders clone. */
  template_vmid: number;
  proxmox_cpu_type: string;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

interface CloudInitUserDataTable {
  id: Generated<string>;
  organization_id: string;
  name: string;
  user_data: string;
  description: string;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export type IpAllocationStatus = 'IP_ALLOCATION_STATUS_ACTIVE' | 'IP_ALLOCATION_STATUS_RELEASED';

interface IpamNetworkTable {
  id: Generated<string>;
  organization_id: string;
  name: string;
  dns_servers: string[];
  mac_address_prefix: string;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

/** Addresses and prefixes are stored in their one canonical spelling (packages/domain ip-prefix.ts). */
interface IpamPrefixTable {
  id: Generated<string>;
  organization_id: string;
  network_id: string | null;
  cidr: string;
  family: 'ipv4' | 'ipv6';
  gateway: string;
  allocation_strategy: string;
  description: string;
  vm_assignment_prefix_length: number;
  reserved_ips: string[];
  reserved_prefixes: string[];
  /** Public (globally routed) space, which one organisation holds at a time; private and documentation space may repeat. */
  is_public: GeneratedAlways<boolean>;
  /** Where SEQUENTIAL continues from. */
  last_allocated: string | null;
  /** Bumped by every write, allocations included. */
  generation: Generated<number>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

interface IpAllocationTable {
  id: Generated<string>;
  prefix_id: string;
  organization_id: string;
  /** The claim (VM) holding the address; no foreign key until claims have a table. */
  claim_id: string | null;
  address: string;
  /** The address as an unsigned integer, generated from `address`; numeric, so pg and PGlite read a string. */
  address_ordinal: GeneratedAlways<string>;
  allocated_cidr: string;
  allocation_kind: string;
  status: IpAllocationStatus;
  created_at: CreatedAt;
  released_at: NullableTimestamp;
}

export type VmClaimStatus = 'ACTIVE' | 'RELEASED';

interface NodePlacementPolicyTable {
  organization_id: string;
  default_strategy: string;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

interface NodePlacementRegionOverrideTable {
  organization_id: string;
  region_id: string;
  strategy: string;
  position: number;
}

/** ROUND_ROBIN's place: the node the plan's last claim went to. */
interface NodePlacementCursorTable {
  plan_id: string;
  last_node_id: string;
  updated_at: Timestamp;
}

/** What a VM order holds; the specs are copied from the plan at its revision. */
interface VmClaimTable {
  /** The future VM's id. */
  id: string;
  client_organization_id: string;
  provider_organization_id: string;
  plan_id: string;
  plan_revision: number;
  /** Null only on a released claim whose node (or platform) has since been deleted. */
  node_id: string | null;
  platform_id: string | null;
  vcpus: number;
  ram_gb: number;
  disk_gb: number;
  vmid: number;
  mac_address: string;
  ipv4_allocation_id: string | null;
  ipv6_allocation_id: string | null;
  status: VmClaimStatus;
  created_at: CreatedAt;
  released_at: NullableTimestamp;
}

/** A plan's last preflight (see packages/domain/src/preflight.ts). */
interface PlanPreflightResultTable {
  plan_id: string;
  organization_id: string;
  plan_code: string;
  marketplace_ready: boolean;
  /** The plan's regions where a node passes every check (migration 0017): where the marketplace lists it. */
  ready_region_ids: ColumnType<string[], string[] | undefined, string[]>;
  ipv6_available: boolean;
  issue_count: number;
  result: ColumnType<unknown, string, string>;
  evaluated_at: Timestamp;
}

/** An order no node could take (migration 0017): what each node lacked, for the provider only. */
interface OrderRefusalTable {
  id: Generated<string>;
  organization_id: string;
  plan_id: string;
  plan_code: string;
  region_id: string | null;
  summary: string;
  nodes: ColumnType<{ nodeId: string; nodeName: string; reasons: string[] }[], string, string>;
  created_at: CreatedAt;
}

export type VmDesiredState = 'PRESENT' | 'ABSENT';
export type VmPowerState = 'Running' | 'Stopped';

/** A customer's VM (migration 0009): ordered, wanted and observed state. */
interface VirtualMachineTable {
  id: string;
  client_organization_id: string;
  provider_organization_id: string;
  plan_id: string;
  agent_id: string;
  node_id: string | null;
  idempotency_key: string;
  request_fingerprint: string;
  hostname: string;
  distro: string;
  tags: ColumnType<string[], string[] | undefined, string[]>;
  /** The ProxmoxVM spec as ordered, without the cloud-init reference. */
  spec: ColumnType<Record<string, unknown>, string, string>;
  /** The compiled cloud-init documents, sealed (SecretBox): they hold organisation secrets. */
  cloud_init_ciphertext: string;
  /** What the cloud-init was compiled from, sealed: a retry on another node compiles it again (migration 0019). */
  cloud_init_request_ciphertext: Generated<string>;
  desired_state: ColumnType<VmDesiredState, VmDesiredState | undefined, VmDesiredState>;
  desired_power_state: ColumnType<VmPowerState, VmPowerState | undefined, VmPowerState>;
  reboot_requested_at: NullableTimestamp;
  generation: Generated<number>;
  dispatched_generation: Generated<number>;
  /** The generation that asked to recreate the guest, and the last the dispatcher recreated it for. */
  reinstall_generation: Generated<number>;
  reinstalled_generation: Generated<number>;
  dispatch_attempts: Generated<number>;
  next_dispatch_at: ColumnType<Date, Date | string | undefined, Date | string>;
  dispatch_error: Generated<string>;
  lease_owner: string | null;
  lease_until: NullableTimestamp;
  observed_phase: Generated<string>;
  observed_power_state: Generated<string>;
  observed_message: Generated<string>;
  observed_conditions: ColumnType<unknown[], string | undefined, string>;
  observed_generation: Generated<number>;
  observed_at: NullableTimestamp;
  /** The guest's power state as the hypervisor's metrics last reported it (migration 0013). */
  reported_power_state: VmPowerState | null;
  reported_power_state_at: NullableTimestamp;
  /** Why the order failed, in the provider's and Proxmox's words; customers never see it (migration 0018). */
  failure_detail: Generated<string>;
  /** Nodes the order failed on: a retry is placed elsewhere. */
  failed_node_ids: ColumnType<string[], string[] | undefined, string[]>;
  /** When the order finally failed and what it held was released. */
  failed_at: NullableTimestamp;
  created_at: CreatedAt;
  updated_at: Timestamp;
  deleted_at: NullableTimestamp;
}

/** One Proxmox node as an agent's operator reported it. */
interface ProxmoxInventoryNodeColumn {
  name: string;
  online: boolean;
  templateVmids: number[];
}

/** What an agent's operator last reported of its Proxmox (migration 0018). */
interface ProxmoxInventoryTable {
  agent_id: string;
  /** Null until a report was read. */
  nodes: ColumnType<ProxmoxInventoryNodeColumn[] | null, string | null, string | null>;
  observed_at: NullableTimestamp;
  read_error: Generated<string>;
  read_at: Timestamp;
}

/** A customer's firewall ruleset (migration 0010). */
interface FirewallRuleSetTable {
  id: Generated<string>;
  organization_id: string;
  name: string;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

interface FirewallAddressGroupTable {
  id: Generated<string>;
  organization_id: string;
  name: string;
  /** Canonical CIDR prefixes. */
  prefixes: string[];
  created_at: CreatedAt;
  updated_at: Timestamp;
}

type FirewallDirectionColumn = 'FIREWALL_DIRECTION_INGRESS' | 'FIREWALL_DIRECTION_EGRESS';

interface FirewallRuleTable {
  id: Generated<string>;
  ruleset_id: string;
  organization_id: string;
  direction: FirewallDirectionColumn;
  /** Dense from 0 within (ruleset, direction). */
  position: number;
  /** The rule as the API takes it (packages/domain FirewallRuleSpec). */
  rule: ColumnType<Record<string, unknown>, string, string>;
  /** Every VM tag the rule names. */
  vm_tags: string[];
  created_at: CreatedAt;
  updated_at: Timestamp;
}

interface FirewallRuleAddressGroupTable {
  rule_id: string;
  address_group_id: string;
}

interface FirewallAttachmentTable {
  vm_id: string;
  ruleset_id: string;
  created_at: CreatedAt;
}

interface OutboundSmtpDefaultTable {
  organization_id: string;
  block_by_default: boolean;
  updated_at: Timestamp;
}

type OutboundSmtpVmAction = 'SMTP_OUTBOUND_VM_ACTION_ALLOW' | 'SMTP_OUTBOUND_VM_ACTION_BLOCK';

interface OutboundSmtpVmPolicyTable {
  vm_id: string;
  action: OutboundSmtpVmAction;
  updated_at: Timestamp;
}

/** What every table of a VM's resources in its agent cluster shares (migration 0011). */
interface ResourceDispatchColumns {
  vm_id: string;
  client_organization_id: string;
  agent_id: string;
  /** The custom resource's name in `{agent}-operator`. */
  object_name: string;
  desired_state: ColumnType<VmDesiredState, VmDesiredState | undefined, VmDesiredState>;
  generation: Generated<number>;
  dispatched_generation: Generated<number>;
  dispatch_attempts: Generated<number>;
  next_dispatch_at: ColumnType<Date, Date | string | undefined, Date | string>;
  dispatch_error: Generated<string>;
  lease_owner: string | null;
  lease_until: NullableTimestamp;
  observed_phase: Generated<string>;
  observed_message: Generated<string>;
  observed_at: NullableTimestamp;
  created_at: CreatedAt;
  updated_at: Timestamp;
  deleted_at: NullableTimestamp;
}

/** A customer's VM snapshot (migration 0011): one VMSnapshot, one Proxmox snapshot. */
export interface VmSnapshotTable extends ResourceDispatchColumns {
  id: string;
  snapshot_name: string;
  description: Generated<string>;
  rollback_requested_at: NullableTimestamp;
  observed_last_rollback_at: NullableTimestamp;
}

/** The backup addon a VM's backup policy came from (migration 0011). */
interface VmBackupPolicyTable {
  vm_id: string;
  addon_id: string;
  enabled_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export type BackupRemoval = 'DELETED' | 'EXPIRED';

/** A VMBackup the operator made on the VM's schedule, as status sync found it (migration 0011). */
export interface VmBackupTable extends ResourceDispatchColumns {
  id: Generated<string>;
  object_uid: string;
  addon_id: string | null;
  restore_requested_at: NullableTimestamp;
  restore_start: Generated<boolean>;
  observed_volid: Generated<string>;
  /** pg reads bigint as a string, PGlite as a number. */
  observed_size_bytes: ColumnType<string | number, number | undefined, number>;
  observed_finished_at: NullableTimestamp;
  observed_restore_phase: Generated<string>;
  observed_restore_requested_at: NullableTimestamp;
  observed_restore_message: Generated<string>;
  /** When status sync first saw the latest restore request served. */
  restored_at: NullableTimestamp;
  removal: ColumnType<BackupRemoval | null, BackupRemoval | null | undefined, BackupRemoval | null>;
}

/** A VM console session (migration 0011): one VNCRequest and what the operator answered, sealed. */
interface VmConsoleSessionTable extends ResourceDispatchColumns {
  id: string;
  /** SHA-256 of the relay token (PGlite reads bytea as a Uint8Array, pg as a Buffer). */
  token_hash: ColumnType<Uint8Array, Uint8Array, never>;
  observed_node: Generated<string>;
  observed_vmid: Generated<number>;
  observed_port: Generated<number>;
  ticket_ciphertext: string | null;
  password_ciphertext: string | null;
  expires_at: NullableTimestamp;
}

/** An agent's metrics write credential (migration 0013); only token hashes are stored. */
interface MetricsWriteCredentialTable {
  id: Generated<string>;
  organization_id: string;
  agent_id: string;
  name: string;
  token_hash: ColumnType<Uint8Array, Uint8Array, Uint8Array>;
  previous_token_hash: ColumnType<Uint8Array | null, Uint8Array | null | undefined, Uint8Array | null>;
  previous_valid_until: NullableTimestamp;
  last_used_at: NullableTimestamp;
  rotated_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
  created_at: CreatedAt;
}

/** The last pve_up of a host (`node/pve1`, `cluster/prod`) behind a platform's endpoint. */
interface PlatformMetricHostTable {
  platform_id: string;
  host: string;
  up: boolean;
  sampled_at: Timestamp;
}

/** The last sample applied for a VM's series (`cpu`, `netOut`, …). */
interface VmMetricCursorTable {
  vm_id: string;
  metric: string;
  sampled_at: NullableTimestamp;
  value: number | null;
}

interface VmMetricRollupTable {
  vm_id: string;
  metric: string;
  resolution_seconds: number;
  bucket: Timestamp;
  sum: number;
  count: number;
  max: number;
}

interface VmBandwidthUsageTable {
  vm_id: string;
  hour: Timestamp;
  direction: 'egress' | 'ingress';
  /** bigint: read as text by pg, as a number by PGlite. */
  bytes: ColumnType<string | number, number, number>;
}

interface FleetEnvironmentTable {
  id: Generated<string>;
  organization_id: string;
  name: string;
  created_at: CreatedAt;
}

/** Fleet install tokens (`nrf_…`): only the SHA-256 is stored. */
interface FleetInstallTokenTable {
  id: Generated<string>;
  organization_id: string;
  environment_id: string;
  description: string;
  token_hash: ColumnType<Uint8Array, Uint8Array, never>;
  expires_at: Timestamp;
  last_used_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
  created_at: CreatedAt;
}

interface FleetAgentTable {
  id: Generated<string>;
  organization_id: string;
  environment_id: string;
  agent_type: AgentType;
  name: string;
  public_key: string;
  key_bound_at: Timestamp;
  rebound_at: NullableTimestamp;
  install_token_id: string | null;
  version: string;
  hostname: string;
  machine_id: string | null;
  system_uuid: string | null;
  heartbeat_interval_seconds: number;
  /** The collector statuses of the newest heartbeat. */
  collectors: ColumnType<unknown[], string | undefined, string>;
  last_seen_at: NullableTimestamp;
  last_heartbeat_at: NullableTimestamp;
  enrolled_at: Timestamp;
  released_at: NullableTimestamp;
}

interface FleetAgentRetiredKeyTable {
  agent_id: string;
  public_key: string;
  retired_at: Timestamp;
}

interface FleetMessageIdTable {
  agent_id: string;
  message_id: string;
  received_at: Timestamp;
}

interface FleetClusterTable {
  id: Generated<string>;
  organization_id: string;
  environment_id: string;
  name: string;
  created_at: CreatedAt;
}

interface FleetClusterHostTable {
  cluster_id: string;
  environment_id: string;
  hostname: string;
  linked_at: Timestamp;
}

/** bigint ids: read as text by pg, as a number by PGlite. */
type BigId = ColumnType<string | number, never, never>;

interface FleetSeriesTable {
  id: BigId;
  organization_id: string;
  environment_id: string;
  agent_id: string;
  cluster_id: string | null;
  name: string;
  labels: ColumnType<Record<string, string>, string, string>;
  key_hash: string;
  last_sample_at: NullableTimestamp;
  last_value: number | null;
}

interface FleetSampleTable {
  series_id: ColumnType<string | number, string | number, never>;
  ts: Timestamp;
  value: number;
}

interface FleetLogTable {
  id: BigId;
  organization_id: string;
  environment_id: string;
  agent_id: string;
  ts: Timestamp;
  stream: 'stdout' | 'stderr';
  line: string;
  fields: ColumnType<Record<string, string>, string, string>;
  k8s_namespace: string | null;
  k8s_pod: string | null;
  k8s_container: string | null;
  k8s_pod_uid: string | null;
}

interface FleetAssetTable {
  id: Generated<string>;
  organization_id: string;
  environment_id: string;
  agent_id: string | null;
  host_name: string;
  asset_type: string;
  integration: string;
  target: string;
  status: string;
  details: ColumnType<Record<string, string>, string, string>;
  first_seen_at: Timestamp;
  last_seen_at: Timestamp;
}

export interface Database {
  users: UserTable;
  organizations: OrganizationTable;
  memberships: MembershipTable;
  access_tokens: AccessTokenTable;
  device_authorizations: DeviceAuthorizationTable;
  refresh_tokens: RefreshTokenTable;
  auth_throttles: AuthThrottleTable;
  sign_in_addresses: SignInAddressTable;
  invitations: InvitationTable;
  service_accounts: ServiceAccountTable;
  secrets: SecretTable;
  environment_variables: EnvironmentVariableTable;
  ssh_keys: SshKeyTable;
  audit_events: AuditEventTable;
  regions: RegionTable;
  agents: AgentTable;
  install_tokens: InstallTokenTable;
  platforms: PlatformTable;
  nodes: NodeTable;
  ipam_networks: IpamNetworkTable;
  ipam_prefixes: IpamPrefixTable;
  ip_allocations: IpAllocationTable;
  cloud_init_templates: CloudInitTemplateTable;
  vm_templates: VmTemplateTable;
  cloud_init_user_data: CloudInitUserDataTable;
  plans: PlanTable;
  plan_prices: PlanPriceTable;
  plan_nodes: PlanNodeTable;
  plan_regions: PlanRegionTable;
  addons: AddonTable;
  addon_plans: AddonPlanTable;
  node_placement_policies: NodePlacementPolicyTable;
  node_placement_region_overrides: NodePlacementRegionOverrideTable;
  node_placement_cursors: NodePlacementCursorTable;
  vm_claims: VmClaimTable;
  plan_preflight_results: PlanPreflightResultTable;
  order_refusals: OrderRefusalTable;
  virtual_machines: VirtualMachineTable;
  proxmox_inventories: ProxmoxInventoryTable;
  firewall_rulesets: FirewallRuleSetTable;
  firewall_address_groups: FirewallAddressGroupTable;
  firewall_rules: FirewallRuleTable;
  firewall_rule_address_groups: FirewallRuleAddressGroupTable;
  firewall_attachments: FirewallAttachmentTable;
  outbound_smtp_defaults: OutboundSmtpDefaultTable;
  outbound_smtp_vm_policies: OutboundSmtpVmPolicyTable;
  vm_snapshots: VmSnapshotTable;
  vm_backup_policies: VmBackupPolicyTable;
  vm_backups: VmBackupTable;
  vm_console_sessions: VmConsoleSessionTable;
  metrics_write_credentials: MetricsWriteCredentialTable;
  platform_metric_hosts: PlatformMetricHostTable;
  vm_metric_cursors: VmMetricCursorTable;
  vm_metric_rollups: VmMetricRollupTable;
  vm_bandwidth_usage: VmBandwidthUsageTable;
  fleet_environments: FleetEnvironmentTable;
  fleet_install_tokens: FleetInstallTokenTable;
  fleet_agents: FleetAgentTable;
  fleet_agent_retired_keys: FleetAgentRetiredKeyTable;
  fleet_message_ids: FleetMessageIdTable;
  fleet_clusters: FleetClusterTable;
  fleet_cluster_hosts: FleetClusterHostTable;
  fleet_series: FleetSeriesTable;
  fleet_samples: FleetSampleTable;
  fleet_logs: FleetLogTable;
  fleet_assets: FleetAssetTable;
}
