import type { ColumnType, Generated } from 'kysely';

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

interface LoginAttemptTable {
  id: Generated<string>;
  email: string;
  ip: string;
  succeeded: boolean;
  created_at: CreatedAt;
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
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface Database {
  users: UserTable;
  organizations: OrganizationTable;
  memberships: MembershipTable;
  access_tokens: AccessTokenTable;
  login_attempts: LoginAttemptTable;
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
}
