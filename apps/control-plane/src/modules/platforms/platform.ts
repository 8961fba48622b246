import type { ServiceStatus } from '../../db/schema.js';

/** Which hypervisor API a platform speaks; only Proxmox exists today. */
export const PLATFORM_DRIVERS = ['PLATFORM_DRIVER_PROXMOX'] as const;
export type PlatformDriver = (typeof PLATFORM_DRIVERS)[number];

/** One hypervisor API endpoint, reached through the provider's agent. */
export interface Platform {
  readonly id: string;
  readonly organizationId: string;
  readonly name: string;
  /** Normalised, see endpoint-url.ts. */
  readonly endpointUrl: string;
  readonly driver: PlatformDriver;
  readonly agentId: string | null;
  /** Orders flow only through a provisioned agent; false without one. */
  readonly agentProvisioned: boolean;
  readonly serviceStatus: ServiceStatus;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}
