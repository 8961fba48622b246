import type { KubeConfig } from '@kubernetes/client-node';
import type { ApiResource } from './api-resource.js';
import {
  customResourceDefinitions,
  events,
  firewallRuleSets,
  leases,
  namespaces,
  proxmoxInventories,
  proxmoxVMs,
  secrets,
  vmBackups,
  vmSnapshots,
  vncRequests,
} from './api-resource.js';
import type { KubeEvent, Lease, Namespace, Secret } from './core-types.js';
import type { CustomResourceDefinition } from './crd-manifests.js';
import type {
  FirewallRuleSet,
  ProxmoxInventory,
  ProxmoxVM,
  VMBackup,
  VMSnapshot,
  VNCRequest,
} from './crd-types.js';
import type { KubeConfigSource } from './kube-config-source.js';
import { contextNamespace, loadKubeConfig } from './kube-config-source.js';
import type { KubeObject } from './kube-object.js';
import { KubeTransport, type DnsLookup } from './kube-transport.js';
import { ResourceClient } from './resource-client.js';

/** Typed clients for our six kinds and the core kinds we use, over one connection setup. */
export class KubeClient {
  readonly kubeConfig: KubeConfig;
  /** The current context's namespace, if the kubeconfig names one. */
  readonly defaultNamespace: string | undefined;
  readonly proxmoxVMs: ResourceClient<ProxmoxVM>;
  readonly vncRequests: ResourceClient<VNCRequest>;
  readonly firewallRuleSets: ResourceClient<FirewallRuleSet>;
  readonly vmBackups: ResourceClient<VMBackup>;
  readonly vmSnapshots: ResourceClient<VMSnapshot>;
  readonly proxmoxInventories: ResourceClient<ProxmoxInventory>;
  readonly secrets: ResourceClient<Secret>;
  readonly namespaces: ResourceClient<Namespace>;
  readonly leases: ResourceClient<Lease>;
  readonly events: ResourceClient<KubeEvent>;
  readonly customResourceDefinitions: ResourceClient<CustomResourceDefinition>;
  private readonly transport: KubeTransport;

  /** `options.lookup` resolves the API server for requests and watches alike and may refuse its addresses. */
  constructor(source: KubeConfigSource, options: { readonly lookup?: DnsLookup } = {}) {
    this.kubeConfig = loadKubeConfig(source);
    this.defaultNamespace = contextNamespace(this.kubeConfig);
    this.transport = new KubeTransport(this.kubeConfig, options.lookup);
    this.proxmoxVMs = this.resource(proxmoxVMs);
    this.vncRequests = this.resource(vncRequests);
    this.firewallRuleSets = this.resource(firewallRuleSets);
    this.vmBackups = this.resource(vmBackups);
    this.vmSnapshots = this.resource(vmSnapshots);
    this.proxmoxInventories = this.resource(proxmoxInventories);
    this.secrets = this.resource(secrets);
    this.namespaces = this.resource(namespaces);
    this.leases = this.resource(leases);
    this.events = this.resource(events);
    this.customResourceDefinitions = this.resource(customResourceDefinitions);
  }

  /** A client for any other kind. */
  resource<T extends KubeObject>(resource: ApiResource<T>): ResourceClient<T> {
    return new ResourceClient(this.transport, resource);
  }

  /** Closes the pooled connections; watches end with their own signals. */
  close(): Promise<void> {
    return this.transport.close();
  }
}
