import { randomBytes, randomInt, randomUUID } from 'node:crypto';

import type { FastifyInstance } from 'fastify';

import type { PasswordHasher } from '../crypto/password-hasher.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { Db } from '../db/database.js';
import { installAuthentication } from '../http/authentication.js';
import { AuditRepository, auditRoutes, installAuditTrail, installCrossTenantAudit } from './audit/index.js';
import {
  AuthRepository,
  authRoutes,
  AuthService,
  ThrottleRepository,
  type RegistrationLimits,
} from './auth/index.js';
import { OrganizationRepository, organizationRoutes, OrganizationService } from './organizations/index.js';
import { InvitationRepository, invitationRoutes, InvitationService } from './invitations/index.js';
import { RegionRepository, regionRoutes, RegionService } from './regions/index.js';
import {
  AgentRepository,
  agentRoutes,
  AgentService,
  AgentTokenRepository,
  inboundPeeringCheck,
} from './agents/index.js';
import { PlatformRepository, platformRoutes, PlatformService } from './platforms/index.js';
import { NodeRepository, nodeRoutes, NodeService } from './nodes/index.js';
import {
  ProxmoxInventoryRepository,
  ProxmoxInventoryService,
  ProxmoxInventorySync,
  readAgentInventory,
} from './proxmox-inventory/index.js';
import {
  AllocationRepository,
  allocationRoutes,
  IpAllocationService,
  NetworkRepository,
  networkRoutes,
  NetworkService,
  PrefixRepository,
  prefixRoutes,
  NetworkAvailabilityRepository,
  PrefixService,
} from './ipam/index.js';
import { Dispatcher } from './dispatch/index.js';
import { MarketplaceRepository, marketplaceRoutes, MarketplaceService } from './marketplace/index.js';
import {
  VirtualMachineRepository,
  virtualMachineRoutes,
  VirtualMachineService,
} from './virtual-machines/index.js';
import {
  installPreflightTriggers,
  PreflightRepository,
  preflightRoutes,
  PreflightService,
  PreflightWorker,
} from './preflight/index.js';
import { PlanCalculator, PlanRepository, planRoutes, PlanService } from './plans/index.js';
import { AddonRepository, addonRoutes, AddonService } from './addons/index.js';
import { SecretRepository, secretRoutes, SecretService } from './secrets/index.js';
import {
  EnvironmentVariableRepository,
  environmentVariableRoutes,
  EnvironmentVariableService,
} from './environment-variables/index.js';
import { SshKeyRepository, sshKeyRoutes, SshKeyService } from './ssh-keys/index.js';
import {
  CloudInitCompileService,
  CloudInitTemplateRepository,
  cloudInitTemplateRoutes,
  CloudInitTemplateService,
} from './cloud-init-templates/index.js';
import { VmTemplateRepository, vmTemplateRoutes, VmTemplateService } from './vm-templates/index.js';
import {
  CloudInitUserDataRepository,
  cloudInitUserDataRoutes,
  CloudInitUserDataService,
} from './cloud-init-user-data/index.js';
import {
  ServiceAccountRepository,
  serviceAccountRoutes,
  ServiceAccountService,
} from './service-accounts/index.js';
import {
  CandidateNodeRepository,
  ClaimRepository,
  ClaimService,
  PlacementPolicyRepository,
  placementPolicyRoutes,
  PlacementPolicyService,
} from './placement/index.js';
import { bumpVmGenerations, createFirewallModule, firewallRoutes } from './firewall/index.js';
import { OutboundSmtpRepository, outboundSmtpRoutes, OutboundSmtpService } from './outbound-smtp/index.js';
import {
  BackupPolicyRepository,
  backupPolicyRoutes,
  VmBackupPolicyService,
} from './virtual-machines/index.js';
import { VmSnapshotRepository, vmSnapshotRoutes, VmSnapshotService } from './vm-snapshots/index.js';
import { VmBackupRepository, vmBackupRoutes, VmBackupService } from './vm-backups/index.js';
import { VmConsoleRepository, vmConsoleRoutes, VmConsoleService } from './vm-console/index.js';
import { OrderRefusalRepository, orderRefusalRoutes } from './order-refusals/index.js';
import {
  MetricsCredentialRepository,
  metricsCredentialRoutes,
  MetricsCredentialService,
  MetricsIngestRepository,
  MetricsIngestService,
  MetricsWorker,
  RemoteWriteForwarder,
  remoteWriteRoutes,
  type RemoteWriteTarget,
  VmMetricsRepository,
  vmMetricsRoutes,
  VmMetricsService,
} from './metrics/index.js';
import { registerFleetModule, type FleetOptions, type FleetWorkers } from './fleet/index.js';

export interface ModuleSettings {
  readonly db: Db;
  readonly secretBox: SecretBox;
  readonly passwords: PasswordHasher;
  readonly now: () => Date;
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
  /** Metrics ingest: when a silent platform turns offline, and the size limits of a remote-write request. */
  readonly metrics: {
    readonly silenceSeconds: number;
    readonly maxCompressedBytes: number;
    readonly maxDecompressedBytes: number;
    /** Where accepted series are also sent, for long retention; none when undefined. */
    readonly remoteWrite: RemoteWriteTarget | undefined;
  };
  /** The fleet transport (NATS) for node agents; without it agents cannot enroll. */
  readonly fleet: FleetOptions | undefined;
}

/** The services the workers of later issues (dispatcher, cloud-init compiler) reach beyond the routes. */
export interface Services {
  readonly auth: AuthService;
  readonly agents: AgentService;
  readonly secrets: SecretService;
  /** Compiles a VM's cloud-init data for an order (`compileForVm`). */
  readonly cloudInit: CloudInitCompileService;
  /** Places a VM order and takes its capacity, addresses, MAC and VMID (`claim`, `release`). */
  readonly claims: ClaimService;
  /** Keeps preflight results current: `request` after a change no API route makes; started and stopped with the server. */
  readonly preflight: PreflightWorker;
  /** Reads agents' Proxmox inventories (nodes, template VMIDs); started and stopped with the server. */
  readonly proxmoxInventorySync: ProxmoxInventorySync;
  /** Carries VMs' wanted state into agent clusters and their status back; started and stopped with the server. */
  readonly dispatcher: Dispatcher;
  /** Turns silent platforms and nodes offline and prunes old chart points; started and stopped with the server. */
  readonly metrics: MetricsWorker;
  /** Forwards accepted series to the configured store, when there is one; started and stopped with the server. */
  readonly metricsForwarder: RemoteWriteForwarder | undefined;
  /** The fleet NATS consumer (when configured) and retention worker; started and stopped with the server. */
  readonly fleet: FleetWorkers;
}

/** The claim service alone, for the order flow and for benchmarks that drive it without HTTP. */
export function createClaimService(
  db: Db,
  capacityChanged?: (providerOrganizationId: string) => void,
): ClaimService {
  return new ClaimService({
    claims: new ClaimRepository(db),
    policies: new PlacementPolicyRepository(db),
    addresses: new IpAllocationService({ allocations: new AllocationRepository(db) }),
    randomIndex: (bound) => randomInt(bound),
    capacityChanged,
  });
}

/** Builds every module's repositories and services and registers their routes: the one place they meet. */
export async function wireModules(app: FastifyInstance, settings: ModuleSettings): Promise<Services> {
  const { db, now } = settings;
  /** This replica, as its leases and connections name it. */
  const replica = randomUUID();
  const authRepository = new AuthRepository(db);
  const organizationRepository = new OrganizationRepository(db);
  installAuthentication(app, { credentials: authRepository, now });
  installAuditTrail(app, new AuditRepository(db));
  installCrossTenantAudit(app, new AuditRepository(db));

  const auth = new AuthService({
    auth: authRepository,
    throttles: new ThrottleRepository(db),
    memberships: organizationRepository,
    passwords: settings.passwords,
    sessionTtlMs: settings.sessionTtlMs,
    registrationLimits: settings.registrationLimits,
    now,
  });
  await app.register(authRoutes, { auth });
  await app.register(organizationRoutes, {
    organizations: new OrganizationService({ organizations: organizationRepository, now }),
  });
  await app.register(invitationRoutes, {
    invitations: new InvitationService({
      invitations: new InvitationRepository(db),
      users: authRepository,
      memberships: organizationRepository,
      now,
    }),
    now,
  });
  await app.register(auditRoutes, { audit: new AuditRepository(db) });
  await app.register(regionRoutes, { regions: new RegionService({ regions: new RegionRepository(db) }) });
  const agentRepository = new AgentRepository(db);
  const agents = new AgentService({
    agents: agentRepository,
    tokens: new AgentTokenRepository(db),
    secretBox: settings.secretBox,
    checkPeering: inboundPeeringCheck({ allowPrivateDestinations: settings.allowPrivateDestinations }),
    now,
    installScriptUrl: settings.installScriptUrl,
    peeringApiServerUrl: settings.peeringApiServerUrl,
    allowPrivateDestinations: settings.allowPrivateDestinations,
  });
  await app.register(agentRoutes, { agents });
  await app.register(platformRoutes, {
    platforms: new PlatformService({ platforms: new PlatformRepository(db), agents: agentRepository, now }),
  });
  const proxmoxInventories = new ProxmoxInventoryRepository(db);
  const proxmoxInventory = new ProxmoxInventoryService({ inventories: proxmoxInventories });
  const nodes = new NodeService({ nodes: new NodeRepository(db), proxmox: proxmoxInventory });
  await app.register(nodeRoutes, { nodes });
  await app.register(networkRoutes, {
    networks: new NetworkService({ networks: new NetworkRepository(db) }),
  });
  await app.register(prefixRoutes, { prefixes: new PrefixService({ prefixes: new PrefixRepository(db) }) });
  await app.register(allocationRoutes, {
    allocations: new IpAllocationService({ allocations: new AllocationRepository(db) }),
  });
  const plans = new PlanService({
    plans: new PlanRepository(db),
    regions: new RegionRepository(db),
    nodes: new NodeRepository(db),
  });
  const addons = new AddonService({ addons: new AddonRepository(db) });
  await app.register(planRoutes, { plans, calculator: new PlanCalculator({ plans, addons }) });
  await app.register(addonRoutes, { addons });
  const secrets = new SecretService({ secrets: new SecretRepository(db), box: settings.secretBox, now });
  await app.register(secretRoutes, { secrets });
  const variables = new EnvironmentVariableService({ variables: new EnvironmentVariableRepository(db), now });
  await app.register(environmentVariableRoutes, { variables });
  const sshKeys = new SshKeyService({ sshKeys: new SshKeyRepository(db), now });
  await app.register(sshKeyRoutes, { sshKeys });
  await app.register(serviceAccountRoutes, {
    accounts: new ServiceAccountService({ accounts: new ServiceAccountRepository(db), now }),
  });
  const cloudInitTemplates = new CloudInitTemplateService({
    templates: new CloudInitTemplateRepository(db),
    now,
  });
  const cloudInit = new CloudInitCompileService({
    templates: cloudInitTemplates,
    secrets,
    variables,
    sshKeys,
    randomBytes,
  });
  await app.register(cloudInitTemplateRoutes, { templates: cloudInitTemplates, compiler: cloudInit });
  await app.register(vmTemplateRoutes, {
    vmTemplates: new VmTemplateService({
      vmTemplates: new VmTemplateRepository(db),
      nodes,
      cloudInitTemplates,
      proxmox: proxmoxInventory,
      now,
    }),
  });
  const profiles = new CloudInitUserDataService({ profiles: new CloudInitUserDataRepository(db), now });
  await app.register(cloudInitUserDataRoutes, { profiles });
  await app.register(placementPolicyRoutes, {
    policies: new PlacementPolicyService({ policies: new PlacementPolicyRepository(db) }),
  });
  const preflightResults = new PreflightRepository(db);
  const preflight = new PreflightService({
    results: preflightResults,
    nodes: new CandidateNodeRepository(db),
    networks: new NetworkAvailabilityRepository(db),
    cloudInit,
    inventories: proxmoxInventories,
  });
  const preflightWorker = new PreflightWorker({
    preflight,
    results: preflightResults,
    intervalSeconds: settings.preflightIntervalSeconds,
    logger: app.log,
  });
  installPreflightTriggers(app, preflightWorker);
  const proxmoxInventorySync = new ProxmoxInventorySync({
    inventories: proxmoxInventories,
    kubeconfigOf: (agentId) => agents.inboundKubeconfig(agentId),
    read: (agentId, kubeconfig) =>
      readAgentInventory(agentId, kubeconfig, {
        allowPrivateDestinations: settings.allowPrivateDestinations,
      }),
    changed: (organizationId) => {
      preflightWorker.request(organizationId);
    },
    intervalSeconds: settings.proxmoxInventoryIntervalSeconds,
    now,
    logger: app.log,
  });
  await app.register(preflightRoutes, { preflight, worker: preflightWorker });
  await app.register(marketplaceRoutes, {
    marketplace: new MarketplaceService({
      marketplace: new MarketplaceRepository(db),
      nodes: new CandidateNodeRepository(db),
    }),
  });
  const claims = createClaimService(db, (organizationId) => {
    preflightWorker.request(organizationId);
  });
  const firewall = createFirewallModule(db, now, () => {
    dispatcher.kick();
  });
  await app.register(firewallRoutes, firewall.routes);
  const outboundSmtp = new OutboundSmtpService({
    policies: new OutboundSmtpRepository(db),
    bumpGenerations: bumpVmGenerations,
    changed: () => {
      dispatcher.kick();
    },
  });
  await app.register(outboundSmtpRoutes, { smtp: outboundSmtp });
  const dispatcher = new Dispatcher({
    db,
    secretBox: settings.secretBox,
    kubeconfigOf: (agentId) => agents.inboundKubeconfig(agentId),
    allowPrivateDestinations: settings.allowPrivateDestinations,
    releaseClaim: (claimId) => claims.release(claimId),
    placeAgain: (vmId) => vms.placeAgain(vmId),
    networkPolicyOf: async (vmId) => ({
      smtpBlocked: await outboundSmtp.effectiveBlockedFor(vmId),
      firewall: await firewall.firewall.compiledRuleSetFor(vmId),
    }),
    now,
    logger: app.log,
    owner: replica,
  });
  const refusals = new OrderRefusalRepository(db);
  await app.register(orderRefusalRoutes, { refusals });
  const vms = new VirtualMachineService({
    vms: new VirtualMachineRepository(db),
    claims,
    offers: new MarketplaceRepository(db),
    refusals,
    cloudInit,
    profiles,
    secretBox: settings.secretBox,
    newId: randomUUID,
    changed: () => {
      dispatcher.kick();
    },
    tagsChanged: (tx, organizationId, tags) => firewall.firewall.vmTagsChanged(tx, organizationId, tags),
  });
  await app.register(virtualMachineRoutes, { vms, now });
  // A VM's snapshots, backups and console: wanted state the dispatcher carries to its agent cluster.
  const vmResources = {
    vms: new VirtualMachineRepository(db),
    changed: () => {
      dispatcher.kick();
    },
  };
  await app.register(backupPolicyRoutes, {
    policies: new VmBackupPolicyService({ ...vmResources, policies: new BackupPolicyRepository(db) }),
  });
  await app.register(vmSnapshotRoutes, {
    snapshots: new VmSnapshotService({
      ...vmResources,
      snapshots: new VmSnapshotRepository(db),
      newId: randomUUID,
      now,
    }),
  });
  await app.register(vmBackupRoutes, {
    backups: new VmBackupService({ ...vmResources, backups: new VmBackupRepository(db) }),
  });
  await app.register(vmConsoleRoutes, {
    consoles: new VmConsoleService({
      ...vmResources,
      sessions: new VmConsoleRepository(db),
      secretBox: settings.secretBox,
      newId: randomUUID,
    }),
  });
  // Metrics: credentials, remote-write ingest, and what customers read of it.
  const metricsCredentials = new MetricsCredentialRepository(db);
  await app.register(metricsCredentialRoutes, {
    credentials: new MetricsCredentialService({ credentials: metricsCredentials, now }),
  });
  const metricsIngest = new MetricsIngestRepository(db);
  const capacityChanged = (organizationId: string) => {
    preflightWorker.request(organizationId);
  };
  const { remoteWrite } = settings.metrics;
  const metricsForwarder =
    remoteWrite === undefined
      ? undefined
      : new RemoteWriteForwarder({ target: remoteWrite, logger: app.log });
  await app.register(remoteWriteRoutes, {
    maxCompressedBytes: settings.metrics.maxCompressedBytes,
    ingest: new MetricsIngestService({
      credentials: metricsCredentials,
      ingest: metricsIngest,
      now,
      silenceSeconds: settings.metrics.silenceSeconds,
      limits: {
        maxCompressedBytes: settings.metrics.maxCompressedBytes,
        maxDecompressedBytes: settings.metrics.maxDecompressedBytes,
      },
      capacityChanged,
      forward:
        metricsForwarder &&
        ((series) => {
          metricsForwarder.enqueue(series);
        }),
      logger: app.log,
    }),
  });
  await app.register(vmMetricsRoutes, {
    metrics: new VmMetricsService({ metrics: new VmMetricsRepository(db), now }),
  });
  const metrics = new MetricsWorker({
    ingest: metricsIngest,
    now,
    silenceSeconds: settings.metrics.silenceSeconds,
    capacityChanged,
    logger: app.log,
  });
  // Fleet: node agents' environments, enrollment and identity, NATS telemetry, clusters.
  const fleet = await registerFleetModule(app, {
    db,
    now,
    options: settings.fleet,
    replicaName: `control-plane-${replica}`,
  });
  return {
    auth,
    agents,
    secrets,
    cloudInit,
    claims,
    preflight: preflightWorker,
    proxmoxInventorySync,
    dispatcher,
    metrics,
    metricsForwarder,
    fleet,
  };
}
