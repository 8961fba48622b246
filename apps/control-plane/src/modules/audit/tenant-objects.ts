import type { Database } from '../../db/schema.js';

/** A table whose rows belong to organisations, and which of its columns say to which. */
export interface TenantObjectTable {
  readonly table: keyof Database;
  /** What the audit event calls such an object (`targetType`). */
  readonly kind: string;
  readonly organizationColumns: readonly string[];
}

/**
 * Every table with a UUID `id` whose rows belong to an organisation: where the id a caller named in a
 * path, and was told does not exist (404), is looked up to find the organisation it was hidden from. A
 * test compares this list with the database's own tables, so a new table cannot be forgotten.
 */
export const TENANT_OBJECT_TABLES: readonly TenantObjectTable[] = [
  { table: 'regions', kind: 'region', organizationColumns: ['organization_id'] },
  { table: 'agents', kind: 'agent', organizationColumns: ['organization_id'] },
  { table: 'platforms', kind: 'platform', organizationColumns: ['organization_id'] },
  { table: 'nodes', kind: 'node', organizationColumns: ['organization_id'] },
  { table: 'plans', kind: 'plan', organizationColumns: ['organization_id'] },
  { table: 'addons', kind: 'addon', organizationColumns: ['organization_id'] },
  { table: 'secrets', kind: 'secret', organizationColumns: ['organization_id'] },
  { table: 'environment_variables', kind: 'environmentVariable', organizationColumns: ['organization_id'] },
  { table: 'ssh_keys', kind: 'sshKey', organizationColumns: ['organization_id'] },
  { table: 'cloud_init_templates', kind: 'cloudInitTemplate', organizationColumns: ['organization_id'] },
  { table: 'vm_templates', kind: 'vmTemplate', organizationColumns: ['organization_id'] },
  { table: 'cloud_init_user_data', kind: 'cloudInitUserData', organizationColumns: ['organization_id'] },
  { table: 'service_accounts', kind: 'serviceAccount', organizationColumns: ['organization_id'] },
  { table: 'access_tokens', kind: 'serviceAccountToken', organizationColumns: ['organization_id'] },
  { table: 'ipam_networks', kind: 'network', organizationColumns: ['organization_id'] },
  { table: 'ipam_prefixes', kind: 'prefix', organizationColumns: ['organization_id'] },
  { table: 'ip_allocations', kind: 'allocation', organizationColumns: ['organization_id'] },
  {
    table: 'vm_claims',
    kind: 'claim',
    organizationColumns: ['client_organization_id', 'provider_organization_id'],
  },
  {
    table: 'virtual_machines',
    kind: 'virtualMachine',
    organizationColumns: ['client_organization_id', 'provider_organization_id'],
  },
  { table: 'firewall_rulesets', kind: 'firewallRuleset', organizationColumns: ['organization_id'] },
  { table: 'firewall_rules', kind: 'firewallRule', organizationColumns: ['organization_id'] },
  { table: 'firewall_address_groups', kind: 'addressGroup', organizationColumns: ['organization_id'] },
  { table: 'vm_snapshots', kind: 'snapshot', organizationColumns: ['client_organization_id'] },
  { table: 'vm_backups', kind: 'backup', organizationColumns: ['client_organization_id'] },
  { table: 'vm_console_sessions', kind: 'consoleSession', organizationColumns: ['client_organization_id'] },
  { table: 'metrics_write_credentials', kind: 'metricsCredential', organizationColumns: ['organization_id'] },
  { table: 'fleet_environments', kind: 'fleetEnvironment', organizationColumns: ['organization_id'] },
  { table: 'fleet_install_tokens', kind: 'fleetInstallToken', organizationColumns: ['organization_id'] },
  { table: 'fleet_agents', kind: 'fleetAgent', organizationColumns: ['organization_id'] },
  { table: 'fleet_clusters', kind: 'fleetCluster', organizationColumns: ['organization_id'] },
  { table: 'fleet_assets', kind: 'fleetAsset', organizationColumns: ['organization_id'] },
  { table: 'invitations', kind: 'invitation', organizationColumns: ['organization_id'] },
];
