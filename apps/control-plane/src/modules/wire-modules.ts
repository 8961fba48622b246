import { randomUUID } from 'node:crypto';

import type { PlatformVersions } from '@noderings/domain';
import type { FastifyInstance } from 'fastify';

import type { PasswordHasher } from '../crypto/password-hasher.js';
import { registerAddonModule } from './addons/index.js';
import { registerAgentModule } from './agents/index.js';
import { registerAuditModule } from './audit/index.js';
import { registerAuthModule, type AuthService, type RegistrationLimits } from './auth/index.js';
import { registerCloudInitTemplateModule } from './cloud-init-templates/index.js';
import { registerCloudInitUserDataModule } from './cloud-init-user-data/index.js';
import { registerDeviceAuthorizationModule } from './device-authorization/index.js';
import { registerDispatchModule } from './dispatch/index.js';
import { registerEnvironmentVariableModule } from './environment-variables/index.js';
import { registerFirewallModule } from './firewall/index.js';
import { registerFleetModule, type FleetOptions } from './fleet/index.js';
import { registerInvitationModule } from './invitations/index.js';
import { registerIpamModule } from './ipam/index.js';
import { registerMarketplaceModule } from './marketplace/index.js';
import { registerMetricsModule, type MetricsSettings } from './metrics/index.js';
import { Signal, type ModuleContext, type Worker } from './module.js';
import { registerNodeModule } from './nodes/index.js';
import { registerOrderRefusalModule } from './order-refusals/index.js';
import { registerOrganizationModule } from './organizations/index.js';
import { registerOutboundSmtpModule } from './outbound-smtp/index.js';
import { registerPlacementModule } from './placement/index.js';
import { registerPlanModule } from './plans/index.js';
import { registerPlatformVersionsModule } from './platform-versions/index.js';
import { registerPlatformModule } from './platforms/index.js';
import { registerPreflightModule } from './preflight/index.js';
import { registerProxmoxInventoryModule } from './proxmox-inventory/index.js';
import { registerRegionModule } from './regions/index.js';
import { registerSecretModule } from './secrets/index.js';
import { registerServiceAccountModule } from './service-accounts/index.js';
import { registerSshKeyModule } from './ssh-keys/index.js';
import { registerVirtualMachineModule } from './virtual-machines/index.js';
import { registerVmBackupModule } from './vm-backups/index.js';
import { registerVmConsoleModule } from './vm-console/index.js';
import { registerVmSnapshotModule } from './vm-snapshots/index.js';
import { registerVmTemplateModule } from './vm-templates/index.js';

export interface ModuleSettings extends ModuleContext {
  readonly passwords: PasswordHasher;
  readonly sessionTtlMs: number;
  /** How many accounts may be registered per address and overall. */
  readonly registrationLimits: RegistrationLimits;
  /** Where the agent install command fetches the installer from. */
  readonly installScriptUrl: string;
  /** The API server agent clusters peer with, written into their peering kubeconfig. */
  readonly peeringApiServerUrl: string;
  /** Development only: private addresses are taken where public ones are required (see AgentService). */
  readonly allowPrivateDestinations: boolean;
  /** How often every plan's preflight is re-evaluated besides after changes; 0 turns that off. */
  readonly preflightIntervalSeconds: number;
  /** How often agents' Proxmox inventories are read into the database; 0 turns that off. */
  readonly proxmoxInventoryIntervalSeconds: number;
  readonly metrics: MetricsSettings;
  /** The fleet transport (NATS) for node agents; without it agents cannot enroll. */
  readonly fleet: FleetOptions | undefined;
  /** The version pins `nr cluster register` installs, served to anyone. */
  readonly platformVersions: PlatformVersions;
}

/** What the server needs of the modules once they are registered. */
export interface WiredModules {
  /** Creates or promotes the platform staff account on start. */
  readonly auth: Pick<AuthService, 'bootstrapStaff'>;
  /** Every module's workers, in the order they start; they stop in the reverse order. */
  readonly workers: readonly Worker[];
}

/**
 * Registers every module, in the order their dependencies need: each module builds its own repositories
 * and services and hands on what another module uses. Two signals carry the notifications that point
 * back up the table: "wanted state changed" to the dispatcher and "capacity changed" to preflight.
 */
export async function wireModules(app: FastifyInstance, settings: ModuleSettings): Promise<WiredModules> {
  const context: ModuleContext = { db: settings.db, now: settings.now, secretBox: settings.secretBox };
  /** This replica, as its leases and connections name it. */
  const replica = randomUUID();
  const dispatchWakeups = new Signal();
  const capacityChanges = new Signal<[organizationId: string]>();
  const { allowPrivateDestinations } = settings;

  // Accounts and tenancy.
  const { memberships } = await registerOrganizationModule(app, context);
  const { auth, users } = await registerAuthModule(app, { ...context, ...settings, memberships });
  await registerDeviceAuthorizationModule(app, context);
  await registerAuditModule(app, context);
  await registerInvitationModule(app, { ...context, users, memberships });
  await registerServiceAccountModule(app, context);
  // A provider's estate.
  await registerPlatformVersionsModule(app, settings);
  const { regions } = await registerRegionModule(app, context);
  const { agents, agentRecords } = await registerAgentModule(app, { ...context, ...settings });
  await registerPlatformModule(app, { ...context, agentRecords });
  const proxmoxInventory = registerProxmoxInventoryModule(app, {
    ...context,
    agents,
    allowPrivateDestinations,
    intervalSeconds: settings.proxmoxInventoryIntervalSeconds,
    changed: capacityChanges.send,
  });
  const { nodes, nodeRecords } = await registerNodeModule(app, {
    ...context,
    proxmox: proxmoxInventory.inventory,
  });
  const ipam = await registerIpamModule(app, context);
  const { addons } = await registerAddonModule(app, context);
  await registerPlanModule(app, { ...context, regions, nodeRecords, addons });
  // What a VM is made of.
  const { secrets } = await registerSecretModule(app, context);
  const { variables } = await registerEnvironmentVariableModule(app, context);
  const { sshKeys } = await registerSshKeyModule(app, context);
  const cloudInit = await registerCloudInitTemplateModule(app, { ...context, secrets, variables, sshKeys });
  await registerVmTemplateModule(app, {
    ...context,
    nodes,
    cloudInitTemplates: cloudInit.templates,
    proxmox: proxmoxInventory.inventory,
  });
  const { profiles } = await registerCloudInitUserDataModule(app, context);
  // Selling and placing.
  const { claims, candidates } = await registerPlacementModule(app, {
    ...context,
    addresses: ipam.addresses,
    capacityChanged: capacityChanges.send,
  });
  const preflight = await registerPreflightModule(app, {
    ...context,
    candidates,
    availability: ipam.availability,
    compiler: cloudInit.compiler,
    inventories: proxmoxInventory.inventories,
    intervalSeconds: settings.preflightIntervalSeconds,
    requests: capacityChanges,
  });
  const { offers } = await registerMarketplaceModule(app, { ...context, candidates });
  const { refusals } = await registerOrderRefusalModule(app, context);
  // Customers' VMs and the wanted state the dispatcher carries to agent clusters.
  const changed = dispatchWakeups.send;
  const { firewall } = await registerFirewallModule(app, { ...context, changed });
  const { smtp } = await registerOutboundSmtpModule(app, { ...context, changed });
  const { vms, vmRecords } = await registerVirtualMachineModule(app, {
    ...context,
    claims,
    offers,
    refusals,
    compiler: cloudInit.compiler,
    profiles,
    firewall,
    changed,
  });
  await registerVmSnapshotModule(app, { ...context, vmRecords, changed });
  await registerVmBackupModule(app, { ...context, vmRecords, changed });
  await registerVmConsoleModule(app, { ...context, vmRecords, changed });
  const dispatch = registerDispatchModule(app, {
    ...context,
    agents,
    claims,
    vms,
    smtp,
    firewall,
    wakeups: dispatchWakeups,
    allowPrivateDestinations,
    owner: replica,
  });
  // Observing: VM metrics, and the fleet of node agents.
  const metrics = await registerMetricsModule(app, {
    ...context,
    settings: settings.metrics,
    capacityChanged: capacityChanges.send,
  });
  const fleet = await registerFleetModule(app, {
    ...context,
    options: settings.fleet,
    replicaName: `control-plane-${replica}`,
  });
  return {
    auth,
    workers: [
      ...preflight.workers,
      ...proxmoxInventory.workers,
      ...dispatch.workers,
      ...metrics.workers,
      ...fleet.workers,
    ],
  };
}
