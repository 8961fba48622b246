/**
 * The control plane's /v1 and /api/v1/fleet shapes, generated from its OpenAPI document
 * (`/openapi.json`) by apps/dashboard/tools/api-types.ts. Do not edit: after a change to the API, run
 * `npm run api-types -w @noderings/dashboard`; a test fails while this file is stale.
 */
export interface paths {
  readonly '/api/v1/fleet/agents': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get: {
      readonly parameters: {
        readonly query?: {
          /** @description Only this environment's. */
          readonly environmentId?: string;
          readonly includeReleased?: string;
          readonly page?: number;
          readonly pageSize?: number;
        };
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly agents: readonly components['schemas']['FleetAgent'][];
              readonly totalCount: number;
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/api/v1/fleet/agents/{agentId}/nats-credentials': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /** Fresh NATS credentials for a fleet agent signing with its current key (Authorization: Nkey …). */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly agentId: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly nats: {
                /** Format: date-time */
                readonly expiresAt: string;
                readonly inboxPrefix: string;
                /** @description A NATS user JWT for the fleet agent's key: publish under fleet.<key>.> only. */
                readonly jwt: string;
                readonly servers: readonly string[];
              };
            };
          };
        };
        /** @description Default Response */
        readonly 410: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['FleetIdentityError'];
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/api/v1/fleet/agents/{agentId}/release-identity': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /** Releases the fleet agent record: kept for history, its name free to enroll again, its key no longer accepted. */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly agentId: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['FleetAgent'];
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/api/v1/fleet/agents/{id}': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['FleetAgent'];
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/api/v1/fleet/agents/{id}/series': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** The fleet agent's series (name and labels) with their newest value and its time. */
    readonly get: {
      readonly parameters: {
        readonly query?: {
          readonly name?: string;
          readonly page?: number;
          readonly pageSize?: number;
        };
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly series: readonly components['schemas']['FleetSeries'][];
              readonly totalCount: number;
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/api/v1/fleet/agents/enroll': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /** Enrolls a node agent with an install token (Authorization: Bearer nrf_…), idempotently by (environment, agent type, name). */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            /** @enum {string} */
            readonly agentType: 'host' | 'k8s-node-monitor' | 'collector';
            /** @default {} */
            readonly hostSignals?: {
              readonly machineId?: string;
              readonly systemUuid?: string;
            };
            readonly name: string;
            readonly publicKey: string;
            readonly version: string;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['FleetEnrollment'];
          };
        };
        /** @description Default Response */
        readonly 201: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['FleetEnrollment'];
          };
        };
        /** @description Default Response */
        readonly 409: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['FleetIdentityError'];
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/api/v1/fleet/assets': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** Services the fleet agents' integration collectors found (databases, caches, web servers, …). */
    readonly get: {
      readonly parameters: {
        readonly query?: {
          /** @description Only this environment's. */
          readonly environmentId?: string;
          readonly page?: number;
          readonly pageSize?: number;
        };
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly assets: readonly components['schemas']['FleetAsset'][];
              readonly totalCount: number;
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/api/v1/fleet/clusters': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get: {
      readonly parameters: {
        readonly query?: {
          /** @description Only this environment's. */
          readonly environmentId?: string;
          readonly page?: number;
          readonly pageSize?: number;
        };
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly clusters: readonly components['schemas']['FleetCluster'][];
              readonly totalCount: number;
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/api/v1/fleet/clusters/{clusterId}/hosts/{hostname}': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    /** Links a host (Kubernetes node) name to the fleet cluster: metrics of fleet agents on that host carry the fleet cluster's cluster_id from now on. */
    readonly put: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly clusterId: string;
          readonly hostname: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly clusterId: string;
              readonly hostname: string;
              /** Format: date-time */
              readonly linkedAt: string;
            };
          };
        };
      };
    };
    readonly post?: never;
    readonly delete: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly clusterId: string;
          readonly hostname: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Success'];
          };
        };
      };
    };
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/api/v1/fleet/clusters/{id}': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              /** Format: date-time */
              readonly createdAt: string;
              readonly environmentId: string;
              readonly hosts: readonly {
                readonly hostname: string;
                /** Format: date-time */
                readonly linkedAt: string;
              }[];
              readonly id: string;
              readonly name: string;
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/api/v1/fleet/clusters/{id}/restarts': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** Container restarts per step: sum of clamp_min(last_over_time(container_restarts_total[W]) - last_over_time(container_restarts_total[W] offset step), 0), W = max(step, 5m). */
    readonly get: {
      readonly parameters: {
        readonly query?: {
          /** @description Also per workload_kind and workload. */
          readonly by?: 'workload';
          /** @description Default: an hour before to. */
          readonly from?: string;
          /** @description Seconds, or a duration like 30s, 5m, 1h (default 60); at most 11,000 steps. */
          readonly step?: string;
          /** @description Default: now. */
          readonly to?: string;
        };
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              /** Format: date-time */
              readonly from: string;
              readonly points: readonly {
                readonly restarts: number;
                /** Format: date-time */
                readonly time: string;
              }[];
              readonly stepSeconds: number;
              /** Format: date-time */
              readonly to: string;
              readonly windowSeconds: number;
              /** @description With by=workload: the workloads with restarts in the range. */
              readonly workloads?: readonly {
                readonly points: readonly {
                  readonly restarts: number;
                  /** Format: date-time */
                  readonly time: string;
                }[];
                readonly workload: string | null;
                readonly workloadKind: string | null;
              }[];
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/api/v1/fleet/environments': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get: {
      readonly parameters: {
        readonly query?: {
          readonly page?: number;
          readonly pageSize?: number;
        };
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly environments: readonly components['schemas']['FleetEnvironment'][];
              readonly totalCount: number;
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            readonly name: string;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 201: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['FleetEnvironment'];
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/api/v1/fleet/environments/{id}': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['FleetEnvironment'];
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/api/v1/fleet/environments/{id}/clusters': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            readonly name: string;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 201: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['FleetCluster'];
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/api/v1/fleet/environments/{id}/install-tokens': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get: {
      readonly parameters: {
        readonly query?: {
          readonly page?: number;
          readonly pageSize?: number;
        };
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly installTokens: readonly components['schemas']['FleetInstallToken'][];
              readonly totalCount: number;
            };
          };
        };
      };
    };
    readonly put?: never;
    /** Creates a token node agents enroll with; the token is shown once. */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            /** @default  */
            readonly description?: string;
            /**
             * @description Default: 30 days.
             * @default 2592000
             */
            readonly expiresInSeconds?: number;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 201: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              /** Format: date-time */
              readonly expiresAt: string;
              readonly id: string;
              /** @description Shown once: `Authorization: Bearer nrf_…` of the enrollment call. */
              readonly token: string;
            };
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/api/v1/fleet/environments/{id}/install-tokens/{tokenId}': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    readonly post?: never;
    /** Revokes the token: enrollments with it fail from now on; enrolled fleet agents are unaffected. */
    readonly delete: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
          readonly tokenId: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Success'];
          };
        };
      };
    };
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/api/v1/fleet/logs': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** Log entries of the fleet agents, newest first. */
    readonly get: {
      readonly parameters: {
        readonly query?: {
          readonly agentId?: string;
          /** @description Only this environment's. */
          readonly environmentId?: string;
          readonly from?: string;
          /** @description Exact, or a prefix with a trailing * (nginx*). */
          readonly k8s_container?: string;
          /** @description Exact, or a prefix with a trailing * (nginx*). */
          readonly k8s_namespace?: string;
          /** @description Exact, or a prefix with a trailing * (nginx*). */
          readonly k8s_pod?: string;
          /** @description Exact, or a prefix with a trailing * (nginx*). */
          readonly k8s_pod_uid?: string;
          readonly limit?: number;
          readonly to?: string;
        };
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly entries: readonly {
                readonly agentId: string;
                readonly fields: {
                  readonly [key: string]: string;
                };
                readonly line: string;
                /** @enum {string} */
                readonly stream: 'stdout' | 'stderr';
                /** Format: date-time */
                readonly time: string;
              }[];
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/api/v1/fleet/series/points': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** Points of the series of an environment with this name and labels (label.<name>=<value>). */
    readonly get: {
      readonly parameters: {
        readonly query: {
          readonly environmentId: string;
          /** @description Default: an hour before to. */
          readonly from?: string;
          readonly name: string;
          /** @description Default: now. */
          readonly to?: string;
        };
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly series: readonly {
                readonly agentId: string;
                readonly id: string;
                readonly labels: {
                  readonly [key: string]: string;
                };
                readonly name: string;
                readonly points: readonly {
                  /** Format: date-time */
                  readonly time: string;
                  readonly value: number | ('NaN' | '+Inf' | '-Inf');
                }[];
              }[];
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/addons': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** Your organisation's addons; deleted ones are not listed. */
    readonly get: {
      readonly parameters: {
        readonly query?: {
          readonly addonType?: 'ADDON_TYPE_BACKUP' | 'ADDON_TYPE_SNAPSHOT' | 'ADDON_TYPE_ADDITIONAL_IP';
          readonly page?: number;
          readonly pageSize?: number;
          readonly search?: string;
        };
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly addons: readonly components['schemas']['Addon'][];
              readonly totalCount: number;
            };
          };
        };
      };
    };
    readonly put?: never;
    /** Creates a backup, snapshot or additional-IP addon. */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            /** @enum {string} */
            readonly addonType: 'ADDON_TYPE_BACKUP' | 'ADDON_TYPE_SNAPSHOT' | 'ADDON_TYPE_ADDITIONAL_IP';
            /**
             * @description Added to every new VM of a compatible plan.
             * @default false
             */
            readonly autoAttach?: boolean;
            readonly backupPolicy?: components['schemas']['BackupPolicyInput'];
            /** @description Unique among your addons that are not deleted, like BACKUP-DAILY. */
            readonly code: string;
            /**
             * @description Plans of your organisation the addon may be bought with.
             * @default []
             */
            readonly compatiblePlanIds?: readonly string[];
            /** @default false */
            readonly isPublic?: boolean;
            readonly name: string;
            readonly pricing: components['schemas']['AddonPricingInput'];
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 201: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly addon: components['schemas']['Addon'];
            };
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/addons/{id}': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** Reads an addon, deleted ones included (status STATUS_SOFT_DELETED). */
    readonly get: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly addon: components['schemas']['Addon'];
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    /** Soft-deletes an addon: it is no longer listed or sold, and its code is free again. */
    readonly delete: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Success'];
          };
        };
      };
    };
    readonly options?: never;
    readonly head?: never;
    /** Changes the fields given; fields left out keep their values. The code and type never change. */
    readonly patch: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            /** @description Added to every new VM of a compatible plan. */
            readonly autoAttach?: boolean;
            readonly backupPolicy?: components['schemas']['BackupPolicyInput'];
            /** @description Plans of your organisation the addon may be bought with. */
            readonly compatiblePlanIds?: readonly string[];
            readonly isPublic?: boolean;
            readonly name?: string;
            readonly pricing?: components['schemas']['AddonPricingInput'];
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly addon: components['schemas']['Addon'];
            };
          };
        };
      };
    };
    readonly trace?: never;
  };
  readonly '/v1/agents': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get: {
      readonly parameters: {
        readonly query?: {
          readonly gatewayRegion?: 'AGENT_GATEWAY_REGION_AMS01';
          readonly page?: number;
          readonly pageSize?: number;
          readonly search?: string;
        };
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly agents: readonly {
                readonly agent: components['schemas']['Agent'];
              }[];
              readonly totalCount: number;
            };
          };
        };
      };
    };
    readonly put?: never;
    /** Creates an agent and assigns it the next gateway service port. */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            /**
             * Format: ipv4
             * @description A public IPv4 address the agent is reached at from the internet.
             */
            readonly agentPublicIp: string;
            /** @default  */
            readonly description?: string;
            /** @enum {string} */
            readonly gatewayRegion: 'AGENT_GATEWAY_REGION_AMS01';
            /** @enum {string} */
            readonly hypervisorDriver: 'HYPERVISOR_DRIVER_PROXMOX';
            readonly name: string;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 201: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly agent: components['schemas']['Agent'];
            };
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/agents/{id}': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly agent: components['schemas']['Agent'];
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    readonly delete: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Success'];
          };
        };
      };
    };
    readonly options?: never;
    readonly head?: never;
    readonly patch: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            readonly description?: string;
            /** @enum {string} */
            readonly hypervisorDriver?: 'HYPERVISOR_DRIVER_PROXMOX';
            readonly name?: string;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly agent: components['schemas']['Agent'];
            };
          };
        };
      };
    };
    readonly trace?: never;
  };
  readonly '/v1/agents/{id}:generateInstallCommand': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /** A one-line installer command with a one-time install token, valid for an hour. */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': Record<string, never> | null;
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly command: string;
              /**
               * Format: date-time
               * @description The token works once, until then.
               */
              readonly expiresAt: string;
              readonly token: string;
            };
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/agents/{id}:generatePeeringConfig': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /** A kubeconfig for the agent cluster to reach NodeRings, with a fresh 24-hour agent token. */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': Record<string, never> | null;
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly config: string;
            };
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/agents/{id}:redeemInstallToken': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /** Trades the install token for the agent's own credential; works once. */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            readonly token: string;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly agent: components['schemas']['Agent'];
              readonly credential: {
                readonly expiresAt: string;
                readonly token: string;
              };
            };
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/agents/{id}:uploadInboundPeeringConfig': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /** Stores the agent cluster's kubeconfig (sealed) and checks it by listing ProxmoxVMs in the operator namespace. */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            readonly kubeconfig: string;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly inboundPeeringError: string;
              /** @enum {string} */
              readonly inboundPeeringState:
                | 'INBOUND_PEERING_STATE_PENDING'
                | 'INBOUND_PEERING_STATE_PEERING'
                | 'INBOUND_PEERING_STATE_READY'
                | 'INBOUND_PEERING_STATE_FAILED';
            };
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/audit-events': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** The organization's audit log, newest first (admins only). */
    readonly get: {
      readonly parameters: {
        readonly query?: {
          readonly action?: string;
          readonly page?: number;
          readonly pageSize?: number;
        };
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly events: readonly components['schemas']['AuditEvent'][];
              readonly totalCount: number;
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/auth/login': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /** Exchanges an email and password for a session token. Failed attempts slow further ones (429 with Retry-After). */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            /** Format: email */
            readonly email: string;
            readonly password: string;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly mfaRequired: boolean;
              readonly organizationId: string;
              readonly token: string;
            };
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/auth/logout': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /** Revokes the session token of this request. */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Success'];
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/auth/register': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /** Creates a user and their first organization, and signs them in. */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            /** Format: email */
            readonly email: string;
            readonly organizationName: string;
            /** @enum {string} */
            readonly organizationType: 'ORGANIZATION_TYPE_PROVIDER' | 'ORGANIZATION_TYPE_CLIENT';
            /** @description 15 to 256 characters of any kind, not a common or breached password, a repetition, a sequence or a keyboard walk, and not made of the email or organisation name */
            readonly password: string;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 201: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly organization: components['schemas']['Organization'];
              readonly token: string;
              readonly user: components['schemas']['User'];
            };
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/auth/sessions': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** The caller's live sessions: sign-ins and devices (nr), newest first. */
    readonly get: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly sessions: readonly components['schemas']['Session'][];
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/auth/sessions/{id}': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    readonly post?: never;
    /** Revokes one of the caller's sessions, and a device session's refresh token with it. */
    readonly delete: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Success'];
          };
        };
      };
    };
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/cloudinittemplate': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /**
     * Creates a cloud-init template, or copies a seed (copyFromId).
     * @description Documents are YAML with `{{ name }}` substitutions, values taken when a VM is ordered: hostname (the VM's host name); ssh_authorized_keys (the public keys the order named, as a YAML list); password_hash (the SHA-512-crypt hash of the order's password, or "!" (no password matches) without one); ssh_pwauth (true when the order set a password); lock_passwd (true when the order set no password); ipv4.address (the IPv4 address with its prefix length); ipv4.gateway (the IPv4 gateway); ipv6.address (the IPv6 address with its prefix length); ipv6.gateway (the IPv6 gateway); addresses (every address of the VM with its prefix length, as a YAML list); nameservers (the DNS servers, as a YAML list); mac_address (the primary NIC's MAC address); env.KEY (the value of the organization's environment variable KEY); secrets.KEY (the value of the organization's secret KEY). Values are always inserted as YAML data; `{{ '{{' }}` writes a literal `{{`. Comments are not templated. A template is checked as it is saved: YAML, #cloud-config, variable names (not yet whether a named secret exists).
     */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            /**
             * Format: uuid
             * @description A seed (or one of your templates) whose fields fill those left out.
             */
            readonly copyFromId?: string;
            readonly name: string;
            /** @description Optional network-config (version 1 or 2); empty lets the operator write one from the order. */
            readonly networkData?: string;
            /** @description Proxmox storage the operator uploads the NoCloud seed image of each VM to; it must accept ISO images. */
            readonly storage?: string;
            /** @description Must start with #cloud-config. */
            readonly userData?: string;
            /** @description Optional; empty means none. */
            readonly vendorData?: string;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 201: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly cloudInitTemplate: components['schemas']['CloudInitTemplate'];
            };
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/cloudinittemplate/{id}': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly cloudInitTemplate: components['schemas']['CloudInitTemplate'];
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    /** Deletes a template no VM template uses (412 otherwise). */
    readonly delete: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Success'];
          };
        };
      };
    };
    readonly options?: never;
    readonly head?: never;
    /**
     * Changes the fields given; seed templates cannot be changed (412).
     * @description Documents are YAML with `{{ name }}` substitutions, values taken when a VM is ordered: hostname (the VM's host name); ssh_authorized_keys (the public keys the order named, as a YAML list); password_hash (the SHA-512-crypt hash of the order's password, or "!" (no password matches) without one); ssh_pwauth (true when the order set a password); lock_passwd (true when the order set no password); ipv4.address (the IPv4 address with its prefix length); ipv4.gateway (the IPv4 gateway); ipv6.address (the IPv6 address with its prefix length); ipv6.gateway (the IPv6 gateway); addresses (every address of the VM with its prefix length, as a YAML list); nameservers (the DNS servers, as a YAML list); mac_address (the primary NIC's MAC address); env.KEY (the value of the organization's environment variable KEY); secrets.KEY (the value of the organization's secret KEY). Values are always inserted as YAML data; `{{ '{{' }}` writes a literal `{{`. Comments are not templated. VMs that exist keep the cloud-init data they were created with.
     */
    readonly patch: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            readonly name?: string;
            /** @description Optional network-config (version 1 or 2); empty lets the operator write one from the order. */
            readonly networkData?: string;
            /** @description Proxmox storage the operator uploads the NoCloud seed image of each VM to; it must accept ISO images. */
            readonly storage?: string;
            /** @description Must start with #cloud-config. */
            readonly userData?: string;
            /** @description Optional; empty means none. */
            readonly vendorData?: string;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly cloudInitTemplate: components['schemas']['CloudInitTemplate'];
            };
          };
        };
      };
    };
    readonly trace?: never;
  };
  readonly '/v1/cloudinittemplate/{id}:render': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /**
     * Compiles a template with sample values, to preview and validate it.
     * @description Secrets appear as [secret KEY], never with their values; values left out get documentation addresses. A template that would not compile for an order answers 412 with each problem’s document, line and column.
     */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            readonly hostname?: string;
            readonly ipv4?: {
              readonly address: string;
              readonly gateway: string;
            };
            readonly ipv6?: {
              readonly address: string;
              readonly gateway: string;
            };
            readonly macAddress?: string;
            readonly nameservers?: readonly string[];
            /** @description Keys of your organization to render. */
            readonly sshKeyIds?: readonly string[];
            /** @description Render as if the order set a password (the hash is a placeholder). */
            readonly withPassword?: boolean;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly networkData: string | null;
              readonly userData: string;
              readonly vendorData: string | null;
              readonly warnings: readonly components['schemas']['CloudInitWarning'][];
            };
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/cloudinittemplates': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** Your cloud-init templates and the platform's seed templates (seeds first). */
    readonly get: {
      readonly parameters: {
        readonly query?: {
          /** @description true: only the platform's seed templates; false: only yours; unset: both. */
          readonly filterIsTemplate?: string;
          readonly page?: number;
          readonly pageSize?: number;
        };
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly cloudInitTemplates: readonly components['schemas']['CloudInitTemplate'][];
              readonly totalCount: number;
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/cloudinituserdata': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** Your saved user data, by name. */
    readonly get: {
      readonly parameters: {
        readonly query?: {
          readonly page?: number;
          readonly pageSize?: number;
        };
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly profiles: readonly components['schemas']['CloudInitUserData'][];
              readonly totalCount: number;
            };
          };
        };
      };
    };
    readonly put?: never;
    /** Saves user data to order VMs with. */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            readonly description?: string;
            readonly name: string;
            /** @description Reaches the VM as it is: cloud-config, a script, or cloud-init Jinja. */
            readonly userData: string;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 201: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly profile: components['schemas']['CloudInitUserData'];
            };
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/cloudinituserdata/{id}': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly profile: components['schemas']['CloudInitUserData'];
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    readonly delete: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Success'];
          };
        };
      };
    };
    readonly options?: never;
    readonly head?: never;
    /** Changes the fields given; VMs that exist keep the user data they were created with. */
    readonly patch: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            readonly description?: string;
            readonly name?: string;
            /** @description Reaches the VM as it is: cloud-config, a script, or cloud-init Jinja. */
            readonly userData?: string;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly profile: components['schemas']['CloudInitUserData'];
            };
          };
        };
      };
    };
    readonly trace?: never;
  };
  readonly '/v1/countries-cities': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** The cities regions can be in, by country. */
    readonly get: {
      readonly parameters: {
        readonly query?: {
          readonly query?: string;
        };
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly countries: readonly {
                readonly cities: readonly {
                  readonly id: string;
                  readonly name: string;
                }[];
                readonly name: string;
              }[];
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/datacenters': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get: {
      readonly parameters: {
        readonly query?: {
          readonly query?: string;
        };
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly datacenters: readonly {
                readonly cityId: string;
                readonly id: string;
                readonly name: string;
              }[];
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/environment-variables': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get: {
      readonly parameters: {
        readonly query?: {
          /** @description Only variables whose key contains this text. */
          readonly filterKey?: string;
          readonly page?: number;
          readonly pageSize?: number;
        };
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly environmentVariables: readonly components['schemas']['EnvironmentVariable'][];
              readonly totalCount: number;
            };
          };
        };
      };
    };
    readonly put?: never;
    /** Creates a variable for cloud-init templates; unlike a secret, its value can be read back. */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            readonly key: string;
            readonly value: string;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 201: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly environmentVariable: components['schemas']['EnvironmentVariable'];
            };
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/environment-variables/{id}': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly environmentVariable: components['schemas']['EnvironmentVariable'];
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    readonly delete: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Success'];
          };
        };
      };
    };
    readonly options?: never;
    readonly head?: never;
    readonly patch: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            readonly value: string;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly environmentVariable: components['schemas']['EnvironmentVariable'];
            };
          };
        };
      };
    };
    readonly trace?: never;
  };
  readonly '/v1/firewall/address-groups': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** Your address groups by name. */
    readonly get: {
      readonly parameters: {
        readonly query?: {
          readonly page?: number;
          readonly pageSize?: number;
        };
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly groups: readonly components['schemas']['FirewallAddressGroup'][];
              readonly totalCount: number;
            };
          };
        };
      };
    };
    readonly put?: never;
    /**
     * Creates a named set of prefixes for rules to refer to.
     * @description Deviation: prefixes are CIDR strings ("192.0.2.0/24"), not {ip, prefix} objects.
     */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            readonly group: {
              readonly name: string;
              /** @description CIDR prefixes, IPv4 and IPv6 mixed; 0.0.0.0/0 and ::/0 are every address. */
              readonly prefixes: readonly string[];
            };
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 201: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly group: components['schemas']['FirewallAddressGroup'];
            };
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/firewall/address-groups/{id}': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly group: components['schemas']['FirewallAddressGroup'];
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    /** Deletes a group no rule names (412 otherwise). */
    readonly delete: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Success'];
          };
        };
      };
    };
    readonly options?: never;
    readonly head?: never;
    /** Renames the group or replaces its prefixes; the VMs whose rules name it get the change. */
    readonly patch: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            readonly group: {
              readonly name?: string;
              /** @description CIDR prefixes, IPv4 and IPv6 mixed; 0.0.0.0/0 and ::/0 are every address. */
              readonly prefixes?: readonly string[];
            };
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly group: components['schemas']['FirewallAddressGroup'];
            };
          };
        };
      };
    };
    readonly trace?: never;
  };
  readonly '/v1/firewall/rules/{id}': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly rule: components['schemas']['FirewallRule'];
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    /** Deletes the rule; the rules after it move up. */
    readonly delete: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Success'];
          };
        };
      };
    };
    readonly options?: never;
    readonly head?: never;
    /**
     * Replaces the rule (leave out source or destination for any address).
     * @description The rule keeps its position; turned to the other direction, it goes last there.
     */
    readonly patch: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            readonly rule: {
              /** @enum {string} */
              readonly action: 'FIREWALL_ACTION_ACCEPT' | 'FIREWALL_ACTION_DROP';
              /** @description The union of its parts; at least one part must name something. Leave it out for any address. */
              readonly destination?: {
                /**
                 * @description Your address groups.
                 * @default []
                 */
                readonly addressGroupIds?: readonly string[];
                /**
                 * @description Addresses (192.0.2.10) and CIDR prefixes (192.0.2.0/24, 2001:db8::/48).
                 * @default []
                 */
                readonly ips?: readonly string[];
                /**
                 * @description The addresses of your VMs carrying any of these tags, as they are at any moment.
                 * @default []
                 */
                readonly vmTags?: readonly string[];
              };
              /** @description One port ("443") or a range ("8000-9000"); needs protocol TCP, UDP, SCTP, DCCP or UDPLITE. */
              readonly destinationPorts?: string;
              /** @enum {string} */
              readonly direction: 'FIREWALL_DIRECTION_INGRESS' | 'FIREWALL_DIRECTION_EGRESS';
              /**
               * @description ANY leaves the protocol unset. IPSEC, VXLAN and GENEVE are legacy values and refused.
               * @default FIREWALL_PROTOCOL_ANY
               * @enum {string}
               */
              readonly protocol?:
                | 'FIREWALL_PROTOCOL_ANY'
                | 'FIREWALL_PROTOCOL_TCP'
                | 'FIREWALL_PROTOCOL_UDP'
                | 'FIREWALL_PROTOCOL_SCTP'
                | 'FIREWALL_PROTOCOL_IPV6'
                | 'FIREWALL_PROTOCOL_ICMP'
                | 'FIREWALL_PROTOCOL_ICMPV6'
                | 'FIREWALL_PROTOCOL_ESP'
                | 'FIREWALL_PROTOCOL_AH'
                | 'FIREWALL_PROTOCOL_IPSEC'
                | 'FIREWALL_PROTOCOL_GRE'
                | 'FIREWALL_PROTOCOL_IPIP'
                | 'FIREWALL_PROTOCOL_VXLAN'
                | 'FIREWALL_PROTOCOL_L2TP'
                | 'FIREWALL_PROTOCOL_GENEVE'
                | 'FIREWALL_PROTOCOL_IGMP'
                | 'FIREWALL_PROTOCOL_GGP'
                | 'FIREWALL_PROTOCOL_IPENCAP'
                | 'FIREWALL_PROTOCOL_ST'
                | 'FIREWALL_PROTOCOL_EGP'
                | 'FIREWALL_PROTOCOL_IGP'
                | 'FIREWALL_PROTOCOL_PUP'
                | 'FIREWALL_PROTOCOL_HMP'
                | 'FIREWALL_PROTOCOL_XNS_IDP'
                | 'FIREWALL_PROTOCOL_RDP'
                | 'FIREWALL_PROTOCOL_ISO_TP4'
                | 'FIREWALL_PROTOCOL_DCCP'
                | 'FIREWALL_PROTOCOL_XTP'
                | 'FIREWALL_PROTOCOL_DDP'
                | 'FIREWALL_PROTOCOL_IDPR_CMTP'
                | 'FIREWALL_PROTOCOL_IPV6_ROUTE'
                | 'FIREWALL_PROTOCOL_IPV6_FRAG'
                | 'FIREWALL_PROTOCOL_IDRP'
                | 'FIREWALL_PROTOCOL_RSVP'
                | 'FIREWALL_PROTOCOL_SKIP'
                | 'FIREWALL_PROTOCOL_IPV6_ICMP'
                | 'FIREWALL_PROTOCOL_IPV6_NONXT'
                | 'FIREWALL_PROTOCOL_IPV6_OPTS'
                | 'FIREWALL_PROTOCOL_VMTP'
                | 'FIREWALL_PROTOCOL_EIGRP'
                | 'FIREWALL_PROTOCOL_OSPF'
                | 'FIREWALL_PROTOCOL_AX_25'
                | 'FIREWALL_PROTOCOL_ETHERIP'
                | 'FIREWALL_PROTOCOL_ENCAP'
                | 'FIREWALL_PROTOCOL_PIM'
                | 'FIREWALL_PROTOCOL_IPCOMP'
                | 'FIREWALL_PROTOCOL_VRRP'
                | 'FIREWALL_PROTOCOL_ISIS'
                | 'FIREWALL_PROTOCOL_FC'
                | 'FIREWALL_PROTOCOL_MOBILITY_HEADER'
                | 'FIREWALL_PROTOCOL_UDPLITE'
                | 'FIREWALL_PROTOCOL_MPLS_IN_IP'
                | 'FIREWALL_PROTOCOL_HIP'
                | 'FIREWALL_PROTOCOL_SHIM6'
                | 'FIREWALL_PROTOCOL_WESP'
                | 'FIREWALL_PROTOCOL_ROHC';
              /** @description The union of its parts; at least one part must name something. Leave it out for any address. */
              readonly source?: {
                /**
                 * @description Your address groups.
                 * @default []
                 */
                readonly addressGroupIds?: readonly string[];
                /**
                 * @description Addresses (192.0.2.10) and CIDR prefixes (192.0.2.0/24, 2001:db8::/48).
                 * @default []
                 */
                readonly ips?: readonly string[];
                /**
                 * @description The addresses of your VMs carrying any of these tags, as they are at any moment.
                 * @default []
                 */
                readonly vmTags?: readonly string[];
              };
              /** @description One port ("443") or a range ("8000-9000"); needs protocol TCP, UDP, SCTP, DCCP or UDPLITE. */
              readonly sourcePorts?: string;
            };
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly rule: components['schemas']['FirewallRule'];
            };
          };
        };
      };
    };
    readonly trace?: never;
  };
  readonly '/v1/firewall/rules/{id}/move': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /**
     * Moves the rule just before (matched earlier) or just after another rule.
     * @description The other rule must be of the same ruleset and direction.
     */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            /** @enum {string} */
            readonly position: 'FIREWALL_RULE_POSITION_BEFORE' | 'FIREWALL_RULE_POSITION_AFTER';
            /** Format: uuid */
            readonly targetRuleId: string;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly rule: components['schemas']['FirewallRule'];
            };
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/firewall/rulesets': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** Your firewall rulesets by name, with the VMs each is attached to. */
    readonly get: {
      readonly parameters: {
        readonly query?: {
          readonly filterAttachment?:
            'FIREWALL_RULESET_ATTACHMENT_FILTER_ATTACHED' | 'FIREWALL_RULESET_ATTACHMENT_FILTER_UNATTACHED';
          /** @description Only rulesets whose name contains this, ignoring case. */
          readonly name?: string;
          readonly page?: number;
          readonly pageSize?: number;
        };
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly rulesets: readonly components['schemas']['FirewallRuleSet'][];
              readonly totalCount: number;
            };
          };
        };
      };
    };
    readonly put?: never;
    /**
     * Creates an empty ruleset; names are unique in your organisation.
     * @description Deviation: answers 201 with the ruleset instead of a bare Success.
     */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            readonly ruleset: {
              readonly name: string;
            };
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 201: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly ruleset: components['schemas']['FirewallRuleSet'];
            };
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/firewall/rulesets/{id}': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly ruleset: components['schemas']['FirewallRuleSet'];
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    /**
     * Deletes the ruleset and its rules.
     * @description A ruleset attached to VMs is refused (412) unless force=true, which detaches it from them: they are left with no rules of yours.
     */
    readonly delete: {
      readonly parameters: {
        readonly query?: {
          readonly force?: string;
        };
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Success'];
          };
        };
      };
    };
    readonly options?: never;
    readonly head?: never;
    /** Renames the ruleset. */
    readonly patch: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            readonly ruleset: {
              readonly name: string;
            };
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly ruleset: components['schemas']['FirewallRuleSet'];
            };
          };
        };
      };
    };
    readonly trace?: never;
  };
  readonly '/v1/firewall/rulesets/{rulesetId}/rules': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** The ruleset’s rules: ingress, then egress, each in the order they are matched. */
    readonly get: {
      readonly parameters: {
        readonly query?: {
          readonly direction?: 'FIREWALL_DIRECTION_INGRESS' | 'FIREWALL_DIRECTION_EGRESS';
          readonly page?: number;
          readonly pageSize?: number;
        };
        readonly header?: never;
        readonly path: {
          readonly rulesetId: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly rules: readonly components['schemas']['FirewallRule'][];
              readonly totalCount: number;
            };
          };
        };
      };
    };
    readonly put?: never;
    /**
     * Adds a rule last in its direction; the VMs the ruleset is attached to get it.
     * @description Traffic no rule matches is accepted. At most 200 rules per ruleset (429). Deviation: answers 201 with the rule.
     */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly rulesetId: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            readonly rule: {
              /** @enum {string} */
              readonly action: 'FIREWALL_ACTION_ACCEPT' | 'FIREWALL_ACTION_DROP';
              /** @description The union of its parts; at least one part must name something. Leave it out for any address. */
              readonly destination?: {
                /**
                 * @description Your address groups.
                 * @default []
                 */
                readonly addressGroupIds?: readonly string[];
                /**
                 * @description Addresses (192.0.2.10) and CIDR prefixes (192.0.2.0/24, 2001:db8::/48).
                 * @default []
                 */
                readonly ips?: readonly string[];
                /**
                 * @description The addresses of your VMs carrying any of these tags, as they are at any moment.
                 * @default []
                 */
                readonly vmTags?: readonly string[];
              };
              /** @description One port ("443") or a range ("8000-9000"); needs protocol TCP, UDP, SCTP, DCCP or UDPLITE. */
              readonly destinationPorts?: string;
              /** @enum {string} */
              readonly direction: 'FIREWALL_DIRECTION_INGRESS' | 'FIREWALL_DIRECTION_EGRESS';
              /**
               * @description ANY leaves the protocol unset. IPSEC, VXLAN and GENEVE are legacy values and refused.
               * @default FIREWALL_PROTOCOL_ANY
               * @enum {string}
               */
              readonly protocol?:
                | 'FIREWALL_PROTOCOL_ANY'
                | 'FIREWALL_PROTOCOL_TCP'
                | 'FIREWALL_PROTOCOL_UDP'
                | 'FIREWALL_PROTOCOL_SCTP'
                | 'FIREWALL_PROTOCOL_IPV6'
                | 'FIREWALL_PROTOCOL_ICMP'
                | 'FIREWALL_PROTOCOL_ICMPV6'
                | 'FIREWALL_PROTOCOL_ESP'
                | 'FIREWALL_PROTOCOL_AH'
                | 'FIREWALL_PROTOCOL_IPSEC'
                | 'FIREWALL_PROTOCOL_GRE'
                | 'FIREWALL_PROTOCOL_IPIP'
                | 'FIREWALL_PROTOCOL_VXLAN'
                | 'FIREWALL_PROTOCOL_L2TP'
                | 'FIREWALL_PROTOCOL_GENEVE'
                | 'FIREWALL_PROTOCOL_IGMP'
                | 'FIREWALL_PROTOCOL_GGP'
                | 'FIREWALL_PROTOCOL_IPENCAP'
                | 'FIREWALL_PROTOCOL_ST'
                | 'FIREWALL_PROTOCOL_EGP'
                | 'FIREWALL_PROTOCOL_IGP'
                | 'FIREWALL_PROTOCOL_PUP'
                | 'FIREWALL_PROTOCOL_HMP'
                | 'FIREWALL_PROTOCOL_XNS_IDP'
                | 'FIREWALL_PROTOCOL_RDP'
                | 'FIREWALL_PROTOCOL_ISO_TP4'
                | 'FIREWALL_PROTOCOL_DCCP'
                | 'FIREWALL_PROTOCOL_XTP'
                | 'FIREWALL_PROTOCOL_DDP'
                | 'FIREWALL_PROTOCOL_IDPR_CMTP'
                | 'FIREWALL_PROTOCOL_IPV6_ROUTE'
                | 'FIREWALL_PROTOCOL_IPV6_FRAG'
                | 'FIREWALL_PROTOCOL_IDRP'
                | 'FIREWALL_PROTOCOL_RSVP'
                | 'FIREWALL_PROTOCOL_SKIP'
                | 'FIREWALL_PROTOCOL_IPV6_ICMP'
                | 'FIREWALL_PROTOCOL_IPV6_NONXT'
                | 'FIREWALL_PROTOCOL_IPV6_OPTS'
                | 'FIREWALL_PROTOCOL_VMTP'
                | 'FIREWALL_PROTOCOL_EIGRP'
                | 'FIREWALL_PROTOCOL_OSPF'
                | 'FIREWALL_PROTOCOL_AX_25'
                | 'FIREWALL_PROTOCOL_ETHERIP'
                | 'FIREWALL_PROTOCOL_ENCAP'
                | 'FIREWALL_PROTOCOL_PIM'
                | 'FIREWALL_PROTOCOL_IPCOMP'
                | 'FIREWALL_PROTOCOL_VRRP'
                | 'FIREWALL_PROTOCOL_ISIS'
                | 'FIREWALL_PROTOCOL_FC'
                | 'FIREWALL_PROTOCOL_MOBILITY_HEADER'
                | 'FIREWALL_PROTOCOL_UDPLITE'
                | 'FIREWALL_PROTOCOL_MPLS_IN_IP'
                | 'FIREWALL_PROTOCOL_HIP'
                | 'FIREWALL_PROTOCOL_SHIM6'
                | 'FIREWALL_PROTOCOL_WESP'
                | 'FIREWALL_PROTOCOL_ROHC';
              /** @description The union of its parts; at least one part must name something. Leave it out for any address. */
              readonly source?: {
                /**
                 * @description Your address groups.
                 * @default []
                 */
                readonly addressGroupIds?: readonly string[];
                /**
                 * @description Addresses (192.0.2.10) and CIDR prefixes (192.0.2.0/24, 2001:db8::/48).
                 * @default []
                 */
                readonly ips?: readonly string[];
                /**
                 * @description The addresses of your VMs carrying any of these tags, as they are at any moment.
                 * @default []
                 */
                readonly vmTags?: readonly string[];
              };
              /** @description One port ("443") or a range ("8000-9000"); needs protocol TCP, UDP, SCTP, DCCP or UDPLITE. */
              readonly sourcePorts?: string;
            };
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 201: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly rule: components['schemas']['FirewallRule'];
            };
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/invitations': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** The open invitations to the signed-in user's email address. */
    readonly get: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly invitations: readonly components['schemas']['ReceivedInvitation'][];
              readonly totalCount: number;
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/invitations/{id}:accept': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /** Accepts an invitation to the signed-in user’s email address: they join with its role. */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly organization: components['schemas']['Organization'];
              /** @enum {string} */
              readonly role: 'MEMBER_ROLE_OWNER' | 'MEMBER_ROLE_ADMIN' | 'MEMBER_ROLE_MEMBER';
            };
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/invitations/{id}:decline': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /** Declines an invitation to the signed-in user’s email address. */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Success'];
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/ipam/allocations': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /**
     * The addresses handed to VMs, oldest first. Read-only: orders allocate and release them.
     * @description IPAM lists answer `total`, as the NodeRings API does, not `totalCount`.
     */
    readonly get: {
      readonly parameters: {
        readonly query?: {
          readonly page?: number;
          readonly pageSize?: number;
          readonly prefixId?: string;
          readonly status?: 'IP_ALLOCATION_STATUS_ACTIVE' | 'IP_ALLOCATION_STATUS_RELEASED';
        };
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly allocations: readonly components['schemas']['IpAllocation'][];
              readonly total: number;
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/ipam/networks': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** @description IPAM lists answer `total`, as the NodeRings API does, not `totalCount`. */
    readonly get: {
      readonly parameters: {
        readonly query?: {
          readonly page?: number;
          readonly pageSize?: number;
        };
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly networks: readonly components['schemas']['IpamNetwork'][];
              readonly total: number;
            };
          };
        };
      };
    };
    readonly put?: never;
    /** Creates a network: the nameservers and MAC prefix of the VMs on its nodes. */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            /** @description Nameservers written into the VMs of the network. */
            readonly dnsServers?: readonly string[];
            /** @description Three octets VM MACs start with, like BC:24:11 (Proxmox’s own prefix; use your own on public networks). */
            readonly macAddressPrefix?: string;
            readonly name: string;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 201: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly network: components['schemas']['IpamNetwork'];
            };
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/ipam/networks/{id}': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly network: components['schemas']['IpamNetwork'];
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    /** Deletes a network without nodes or prefixes. */
    readonly delete: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Success'];
          };
        };
      };
    };
    readonly options?: never;
    readonly head?: never;
    /** Changes the fields given; a new MAC prefix applies to VMs ordered afterwards. */
    readonly patch: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            /** @description Nameservers written into the VMs of the network. */
            readonly dnsServers?: readonly string[];
            /** @description Three octets VM MACs start with, like BC:24:11 (Proxmox’s own prefix; use your own on public networks). */
            readonly macAddressPrefix?: string;
            readonly name?: string;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly network: components['schemas']['IpamNetwork'];
            };
          };
        };
      };
    };
    readonly trace?: never;
  };
  readonly '/v1/ipam/networks/{id}/assign-node': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /**
     * Puts nodes on the network; a node has one network, so one on another is refused.
     * @description All or nothing: an unknown node (404) or one on another network (412) changes nothing.
     */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            readonly nodeIds: readonly string[];
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly network: components['schemas']['IpamNetwork'];
            };
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/ipam/networks/{id}/nodes': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly nodes: readonly components['schemas']['IpamNetworkNode'][];
              readonly total: number;
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/ipam/nodes/{id}/network': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** The network of a node; `network` is absent when the node has none. */
    readonly get: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly network?: components['schemas']['IpamNetwork'];
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/ipam/nodes/{id}/unassign-network': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /** Takes the node off its network (a node on none stays so). */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': Record<string, never> | null;
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Success'];
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/ipam/prefixes': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** @description IPAM lists answer `total`, as the NodeRings API does, not `totalCount`. */
    readonly get: {
      readonly parameters: {
        readonly query?: {
          readonly filterNetworkId?: string;
          readonly page?: number;
          readonly pageSize?: number;
        };
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly prefixes: readonly components['schemas']['IpamPrefix'][];
              readonly total: number;
            };
          };
        };
      };
    };
    readonly put?: never;
    /**
     * Adds a pool of addresses VMs are given from.
     * @description The gateway must be a usable host of the CIDR; IPv6 needs vmAssignmentPrefixLength; reservations must lie inside the CIDR; prefixes of one organization never overlap (409).
     */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            /**
             * @description How the next address is chosen; SEQUENTIAL (the default) lets released addresses rest.
             * @enum {string}
             */
            readonly allocationStrategy?:
              | 'ALLOCATION_STRATEGY_SEQUENTIAL'
              | 'ALLOCATION_STRATEGY_RANDOM'
              | 'ALLOCATION_STRATEGY_FIRST_AVAILABLE'
              | 'ALLOCATION_STRATEGY_LAST_AVAILABLE';
            /** @description A CIDR prefix without host bits, like 203.0.113.0/24 or 2001:db8::/48. */
            readonly cidr: string;
            readonly description?: string;
            /** @description A usable host address inside the CIDR. */
            readonly gateway: string;
            /** @description The network whose nodes allocate from this prefix. */
            readonly networkId?: string | null;
            readonly reservedIps?: readonly string[];
            readonly reservedPrefixes?: readonly string[];
            /** @description Required for IPv6: 64 gives each VM a /64, 128 one address. IPv4 prefixes always give one (32). */
            readonly vmAssignmentPrefixLength?: number | null;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 201: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly prefix: components['schemas']['IpamPrefix'];
            };
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/ipam/prefixes/{id}': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly prefix: components['schemas']['IpamPrefix'];
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    /** Deletes a prefix none of whose addresses is allocated (412 otherwise). */
    readonly delete: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Success'];
          };
        };
      };
    };
    readonly options?: never;
    readonly head?: never;
    /**
     * Changes the fields given; the prefix is validated again as a whole.
     * @description Refused (412) when an allocated address would fall outside the new CIDR, onto a reservation or the gateway, or when vmAssignmentPrefixLength changes under allocations.
     */
    readonly patch: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            /**
             * @description How the next address is chosen; SEQUENTIAL (the default) lets released addresses rest.
             * @enum {string}
             */
            readonly allocationStrategy?:
              | 'ALLOCATION_STRATEGY_SEQUENTIAL'
              | 'ALLOCATION_STRATEGY_RANDOM'
              | 'ALLOCATION_STRATEGY_FIRST_AVAILABLE'
              | 'ALLOCATION_STRATEGY_LAST_AVAILABLE';
            /** @description A CIDR prefix without host bits, like 203.0.113.0/24 or 2001:db8::/48. */
            readonly cidr?: string;
            readonly description?: string;
            /** @description A usable host address inside the CIDR. */
            readonly gateway?: string;
            /** @description The network whose nodes allocate from this prefix. */
            readonly networkId?: string | null;
            readonly reservedIps?: readonly string[];
            readonly reservedPrefixes?: readonly string[];
            /** @description Required for IPv6: 64 gives each VM a /64, 128 one address. IPv4 prefixes always give one (32). */
            readonly vmAssignmentPrefixLength?: number | null;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly prefix: components['schemas']['IpamPrefix'];
            };
          };
        };
      };
    };
    readonly trace?: never;
  };
  readonly '/v1/ipam/prefixes/{id}/available-ips': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /**
     * The lowest free slots of the prefix and its counts.
     * @description Counts are decimal strings (proto3 JSON int64): a /64 handing out single addresses holds 2^64 of them.
     */
    readonly get: {
      readonly parameters: {
        readonly query?: {
          readonly limit?: number;
        };
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              /** @description A decimal integer, as a string: it may exceed what a JSON number holds. */
              readonly allocatedCount: string;
              /** @description A decimal integer, as a string: it may exceed what a JSON number holds. */
              readonly availableCount: string;
              /** @description The lowest free slots: addresses, or the first address of each free sub-prefix. */
              readonly availableIps: readonly string[];
              /** @description Reserved slots not allocated. */
              readonly reservedCount: string;
              /** @description Slots VMs could hold: hosts minus reserved slots minus the gateway’s. */
              readonly totalIps: string;
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/ipam/prefixes/{id}/reserved-ips': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /** Reserves an address of the prefix (an allocated one is refused with 412). */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            /** @description An IPv4 or IPv6 address, like 203.0.113.10 or 2001:db8::10. */
            readonly ip: string;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly prefix: components['schemas']['IpamPrefix'];
            };
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/ipam/prefixes/{id}/reserved-ips/{ip}': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    readonly post?: never;
    /** Makes a reserved address available again. */
    readonly delete: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
          /** @description An IPv4 or IPv6 address, like 203.0.113.10 or 2001:db8::10. */
          readonly ip: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly prefix: components['schemas']['IpamPrefix'];
            };
          };
        };
      };
    };
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/ipam/prefixes/{id}/reserved-ips/clear-all': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /** Makes every reserved address available again (reserved prefixes stay). */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': Record<string, never> | null;
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly prefix: components['schemas']['IpamPrefix'];
            };
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/ipam/prefixes/{id}/reserved-ips/reserve-all': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /**
     * Reserves every free address, so that nothing more is allocated from the prefix.
     * @description Refused (412) when that would make more reserved addresses than a prefix may hold; reserve prefixes then.
     */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': Record<string, never> | null;
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly prefix: components['schemas']['IpamPrefix'];
            };
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/ipam/prefixes/{id}/reserved-prefixes': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /** Reserves a range of the prefix (412 if it covers an allocated address). */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            /** @description A CIDR prefix without host bits, like 203.0.113.0/24 or 2001:db8::/48. */
            readonly cidr: string;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly prefix: components['schemas']['IpamPrefix'];
            };
          };
        };
      };
    };
    /** Makes a reserved range available again; the body names it, as the NodeRings API does. */
    readonly delete: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            /** @description A CIDR prefix without host bits, like 203.0.113.0/24 or 2001:db8::/48. */
            readonly cidr: string;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly prefix: components['schemas']['IpamPrefix'];
            };
          };
        };
      };
    };
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/ipam/prefixes/{id}/utilization': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** @description Counts are decimal strings (proto3 JSON int64): a /64 handing out single addresses holds 2^64 of them. */
    readonly get: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['IpamUtilization'];
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/marketplace/plans': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /**
     * The plan codes (SKUs) on sale, smallest first, with how many providers offer each.
     * @description Only plans that pass preflight are listed. No sign-in needed.
     */
    readonly get: {
      readonly parameters: {
        readonly query?: {
          readonly filterBillingType?: 'BILLING_TYPE_SUBSCRIPTION' | 'BILLING_TYPE_USAGE';
          /** @description A city of the catalogue, by name (Frankfurt) or id (de-fra). */
          readonly filterCity?: string;
          readonly filterComputeCategory?:
            'COMPUTE_CATEGORY_SHARED_COMPUTE' | 'COMPUTE_CATEGORY_DEDICATED_COMPUTE';
          /** @description A compute type, in full or as in codes (GC, HF, …). */
          readonly filterComputeType?:
            | 'COMPUTE_TYPE_GENERAL_COMPUTE'
            | 'COMPUTE_TYPE_HIGH_FREQUENCY'
            | 'COMPUTE_TYPE_HIGH_PERFORMANCE'
            | 'COMPUTE_TYPE_GENERAL_PURPOSE'
            | 'COMPUTE_TYPE_CPU_OPTIMIZED'
            | 'COMPUTE_TYPE_MEMORY_OPTIMIZED'
            | 'COMPUTE_TYPE_STORAGE_OPTIMIZED'
            | 'COMPUTE_TYPE_VERY_HIGH_FREQUENCY'
            | 'COMPUTE_TYPE_GAME_SERVER'
            | 'GC'
            | 'HF'
            | 'HP'
            | 'GP'
            | 'CPU'
            | 'MEM'
            | 'STO'
            | 'VHF'
            | 'GS';
          /** @description A country of the region catalogue, like Germany. */
          readonly filterCountry?: string;
          /** @description The currency of filterMaxMonthlyPrice, which needs it. */
          readonly filterCurrency?: string;
          /** @description Only offers whose VMs get IPv6. */
          readonly filterIpv6AvailableOnly?: string;
          /** @description The price per month at most; a price of another period counts by its hours (730 a month). */
          readonly filterMaxMonthlyPrice?: string;
          /** @description At least this many GiB of disk. */
          readonly filterMinDiskGb?: number;
          /** @description At least this many GiB of memory. */
          readonly filterMinRamGb?: number;
          /** @description At least this many vCPUs. */
          readonly filterMinVcpus?: number;
          /** @description Only offers without a traffic allowance. */
          readonly filterUnlimitedBandwidthOnly?: string;
          readonly page?: number;
          readonly pageSize?: number;
        };
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly skus: readonly components['schemas']['MarketplaceSku'][];
              readonly totalCount: number;
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/marketplace/plans/{id}': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /**
     * One offer, resolved for an order form: specs, prices, region and the distros to choose from.
     * @description A plan sells in one or more regions; regionId picks one (the first offered when left out).
     */
    readonly get: {
      readonly parameters: {
        readonly query?: {
          readonly regionId?: string;
        };
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly offer: components['schemas']['MarketplaceOffer'];
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/marketplace/providers': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /**
     * The offers of one plan code, one per provider and region it sells in, by price.
     * @description hasCapacityInFilteredRegion is worked out on each call with the rule a purchase applies. No sign-in needed.
     */
    readonly get: {
      readonly parameters: {
        readonly query: {
          readonly filterBillingType?: 'BILLING_TYPE_SUBSCRIPTION' | 'BILLING_TYPE_USAGE';
          /** @description A city of the catalogue, by name (Frankfurt) or id (de-fra). */
          readonly filterCity?: string;
          readonly filterComputeCategory?:
            'COMPUTE_CATEGORY_SHARED_COMPUTE' | 'COMPUTE_CATEGORY_DEDICATED_COMPUTE';
          /** @description A compute type, in full or as in codes (GC, HF, …). */
          readonly filterComputeType?:
            | 'COMPUTE_TYPE_GENERAL_COMPUTE'
            | 'COMPUTE_TYPE_HIGH_FREQUENCY'
            | 'COMPUTE_TYPE_HIGH_PERFORMANCE'
            | 'COMPUTE_TYPE_GENERAL_PURPOSE'
            | 'COMPUTE_TYPE_CPU_OPTIMIZED'
            | 'COMPUTE_TYPE_MEMORY_OPTIMIZED'
            | 'COMPUTE_TYPE_STORAGE_OPTIMIZED'
            | 'COMPUTE_TYPE_VERY_HIGH_FREQUENCY'
            | 'COMPUTE_TYPE_GAME_SERVER'
            | 'GC'
            | 'HF'
            | 'HP'
            | 'GP'
            | 'CPU'
            | 'MEM'
            | 'STO'
            | 'VHF'
            | 'GS';
          /** @description A country of the region catalogue, like Germany. */
          readonly filterCountry?: string;
          /** @description The currency of filterMaxMonthlyPrice, which needs it. */
          readonly filterCurrency?: string;
          /** @description Only offers whose VMs get IPv6. */
          readonly filterIpv6AvailableOnly?: string;
          /** @description The price per month at most; a price of another period counts by its hours (730 a month). */
          readonly filterMaxMonthlyPrice?: string;
          /** @description At least this many GiB of disk. */
          readonly filterMinDiskGb?: number;
          /** @description At least this many GiB of memory. */
          readonly filterMinRamGb?: number;
          /** @description At least this many vCPUs. */
          readonly filterMinVcpus?: number;
          /** @description The SKU, like SC-GC-2C-4G-40. */
          readonly filterPlanCode: string;
          /** @description Only offers without a traffic allowance. */
          readonly filterUnlimitedBandwidthOnly?: string;
          readonly page?: number;
          readonly pageSize?: number;
          readonly planPriceSort?:
            | 'PROVIDER_PLAN_PRICE_SORT_LEAST_EXPENSIVE_FIRST'
            | 'PROVIDER_PLAN_PRICE_SORT_MOST_EXPENSIVE_FIRST';
          /** @description A piece of the provider's name. */
          readonly search?: string;
        };
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly providers: readonly components['schemas']['MarketplaceProviderInfo'][];
              readonly totalCount: number;
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/marketplace/regions': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** The countries and cities where something is on sale. */
    readonly get: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly regions: readonly {
                readonly city: string;
                readonly cityId: string;
                readonly country: string;
              }[];
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/metrics-credentials': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get: {
      readonly parameters: {
        readonly query?: {
          /** @description Only this agent's credentials. */
          readonly agentId?: string;
          readonly includeRevoked?: string;
          readonly page?: number;
          readonly pageSize?: number;
        };
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly credentials: readonly components['schemas']['MetricsCredential'][];
              readonly totalCount: number;
            };
          };
        };
      };
    };
    readonly put?: never;
    /** Creates a credential that writes metrics for one agent; its token is shown once. */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            /** Format: uuid */
            readonly agentId: string;
            /** @default alloy */
            readonly name?: string;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 201: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly credential: components['schemas']['MetricsCredential'];
              /** @description Shown once: the bearer token of POST /api/v1/write (the agent stack reads it from a file). */
              readonly token: string;
            };
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/metrics-credentials/{id}': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly credential: components['schemas']['MetricsCredential'];
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    /** Revokes the credential: its tokens stop working at once. */
    readonly delete: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Success'];
          };
        };
      };
    };
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/metrics-credentials/{id}:rotate': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /** Replaces the token; the old one keeps working for gracePeriodSeconds (default 0: stops at once). */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            /** @default 0 */
            readonly gracePeriodSeconds?: number;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly credential: components['schemas']['MetricsCredential'];
              /** @description Shown once: the bearer token of POST /api/v1/write (the agent stack reads it from a file). */
              readonly token: string;
            };
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/node': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /**
     * Adds a hypervisor host to one of your platforms.
     * @description The name must be the host's name on the hypervisor; only its syntax is checked here. VM provisioning settings (network, MAC prefix, CPU type, storage) apply to VMs ordered afterwards; existing VMs keep the settings they were created with.
     */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            /** @enum {string} */
            readonly backupStorageCompression:
              | 'BACKUP_STORAGE_COMPRESSION_NONE'
              | 'BACKUP_STORAGE_COMPRESSION_LZO'
              | 'BACKUP_STORAGE_COMPRESSION_GZIP'
              | 'BACKUP_STORAGE_COMPRESSION_ZSTD';
            /** @description Proxmox storage id for backups, like local. */
            readonly backupStorageDestination: string;
            /** @enum {string} */
            readonly computeType?: 'NODE_COMPUTE_TYPE_SHARED' | 'NODE_COMPUTE_TYPE_DEDICATED';
            /** @description 100 sells exactly the physical capacity; 200 sells twice it. */
            readonly cpuOverallocatePercent?: number;
            /** @description Three octets, like BC:24:11. */
            readonly macAddressPrefix?: string;
            /** @description While on, no new VM is placed on this node. */
            readonly maintenanceMode?: boolean;
            /** @description 100 sells exactly the physical capacity; 200 sells twice it. */
            readonly memoryOverallocatePercent?: number;
            /** @description Exactly as `pvesh get /nodes` lists the host. */
            readonly name: string;
            readonly networkBridge?: string;
            /** @enum {string} */
            readonly networkModel?: 'virtio' | 'e1000' | 'rtl8139' | 'vmxnet3';
            /** @description The Proxmox net device key of the primary NIC. */
            readonly networkName?: string;
            /** @description 0 means untagged. */
            readonly networkVlanId?: number;
            /** Format: uuid */
            readonly platformId: string;
            readonly proxmoxCpuType?: string;
            /** Format: uuid */
            readonly regionId: string;
            /** @description 100 sells exactly the physical capacity; 200 sells twice it. */
            readonly storageOverallocatePercent?: number;
            /** @description The first VMID given to customer VMs on this node. */
            readonly vmidSeed: number;
            /** @description Proxmox storage id for new VM disks, like local-lvm. */
            readonly vmStorageDestination: string;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 201: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly node: components['schemas']['Node'];
            };
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/node-placement-policy': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /**
     * How new VMs choose among the nodes of a plan that can take them.
     * @description An organisation that never set a policy places by FIRST_STABLE everywhere.
     */
    readonly get: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly policy: components['schemas']['NodePlacementPolicy'];
            };
          };
        };
      };
    };
    /**
     * Replaces the placement policy: the default strategy and every region override.
     * @description FIRST_STABLE fills the oldest node first; ROUND_ROBIN takes turns per plan; LEAST_ASSIGNED_VMS takes the node with the fewest VMs; RANDOM any. Only nodes that are ready and have capacity left are ever chosen.
     */
    readonly put: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            /**
             * @description How VMs are placed in regions without an override.
             * @enum {string}
             */
            readonly defaultStrategy:
              | 'NODE_PLACEMENT_STRATEGY_FIRST_STABLE'
              | 'NODE_PLACEMENT_STRATEGY_ROUND_ROBIN'
              | 'NODE_PLACEMENT_STRATEGY_LEAST_ASSIGNED_VMS'
              | 'NODE_PLACEMENT_STRATEGY_RANDOM';
            /**
             * @description Another strategy for some of your regions, at most one per region.
             * @default []
             */
            readonly regionOverrides?: readonly {
              /** Format: uuid */
              readonly regionId: string;
              /** @enum {string} */
              readonly strategy:
                | 'NODE_PLACEMENT_STRATEGY_FIRST_STABLE'
                | 'NODE_PLACEMENT_STRATEGY_ROUND_ROBIN'
                | 'NODE_PLACEMENT_STRATEGY_LEAST_ASSIGNED_VMS'
                | 'NODE_PLACEMENT_STRATEGY_RANDOM';
            }[];
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly policy: components['schemas']['NodePlacementPolicy'];
            };
          };
        };
      };
    };
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/node/{id}': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly node: components['schemas']['Node'];
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    readonly delete: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Success'];
          };
        };
      };
    };
    readonly options?: never;
    readonly head?: never;
    /**
     * Changes the fields given; fields left out keep their values.
     * @description VM provisioning settings (network, MAC prefix, CPU type, storage) apply to VMs ordered afterwards; existing VMs keep the settings they were created with.
     */
    readonly patch: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            /** @enum {string} */
            readonly backupStorageCompression?:
              | 'BACKUP_STORAGE_COMPRESSION_NONE'
              | 'BACKUP_STORAGE_COMPRESSION_LZO'
              | 'BACKUP_STORAGE_COMPRESSION_GZIP'
              | 'BACKUP_STORAGE_COMPRESSION_ZSTD';
            /** @description Proxmox storage id for backups, like local. */
            readonly backupStorageDestination?: string;
            /** @enum {string} */
            readonly computeType?: 'NODE_COMPUTE_TYPE_SHARED' | 'NODE_COMPUTE_TYPE_DEDICATED';
            /** @description 100 sells exactly the physical capacity; 200 sells twice it. */
            readonly cpuOverallocatePercent?: number;
            /** @description Three octets, like BC:24:11. */
            readonly macAddressPrefix?: string;
            /** @description While on, no new VM is placed on this node. */
            readonly maintenanceMode?: boolean;
            /** @description 100 sells exactly the physical capacity; 200 sells twice it. */
            readonly memoryOverallocatePercent?: number;
            /** @description Exactly as `pvesh get /nodes` lists the host. */
            readonly name?: string;
            readonly networkBridge?: string;
            /** @enum {string} */
            readonly networkModel?: 'virtio' | 'e1000' | 'rtl8139' | 'vmxnet3';
            /** @description The Proxmox net device key of the primary NIC. */
            readonly networkName?: string;
            /** @description 0 means untagged. */
            readonly networkVlanId?: number;
            readonly proxmoxCpuType?: string;
            /** Format: uuid */
            readonly regionId?: string;
            /** @description 100 sells exactly the physical capacity; 200 sells twice it. */
            readonly storageOverallocatePercent?: number;
            /** @description The first VMID given to customer VMs on this node. */
            readonly vmidSeed?: number;
            /** @description Proxmox storage id for new VM disks, like local-lvm. */
            readonly vmStorageDestination?: string;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly node: components['schemas']['Node'];
            };
          };
        };
      };
    };
    readonly trace?: never;
  };
  readonly '/v1/nodes': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get: {
      readonly parameters: {
        readonly query?: {
          readonly expand?: 'region' | readonly 'region'[];
          readonly 'expand[]'?: 'region' | readonly 'region'[];
          readonly page?: number;
          readonly pageSize?: number;
          readonly platformId?: string;
          readonly regionId?: string;
          readonly search?: string;
          readonly serviceStatus?:
            'SERVICE_STATUS_ONLINE' | 'SERVICE_STATUS_OFFLINE' | 'SERVICE_STATUS_MAINTENANCE';
        };
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly nodes: readonly {
                readonly expandedRegion?: {
                  readonly cityCountry: {
                    readonly cityName: string;
                    readonly countryName: string;
                    readonly id: string;
                  };
                  readonly createTime: string;
                  readonly datacenter: {
                    readonly id: string;
                    readonly name: string;
                  };
                  readonly id: string;
                  readonly organizationId: string;
                };
                readonly node: components['schemas']['Node'];
              }[];
              readonly totalCount: number;
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/oauth/device_authorization': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /** Starts a device sign-in (RFC 8628): a device code to poll the token endpoint with, and a user code the user enters at verification_uri. */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            readonly client_id?: string;
            readonly scope?: string;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly device_code: string;
              readonly expires_in: number;
              /** @description Seconds to wait between polls. */
              readonly interval: number;
              readonly user_code: string;
              readonly verification_uri: string;
              readonly verification_uri_complete: string;
            };
          };
        };
        /** @description Default Response */
        readonly 400: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json':
              components['schemas']['OAuthError'] | components['schemas']['Status'];
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/oauth/device/{userCode}': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** The device sign-in a user code names, for the user to check before approving it. */
    readonly get: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          /** @description The code the device shows, in any case, with or without its dash. */
          readonly userCode: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly device: components['schemas']['PendingDevice'];
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/oauth/device/{userCode}:approve': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /** Signs the device in as the calling user: its next poll gets a session. */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          /** @description The code the device shows, in any case, with or without its dash. */
          readonly userCode: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Success'];
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/oauth/device/{userCode}:deny': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /** Refuses the device sign-in: its next poll gets access_denied. */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          /** @description The code the device shows, in any case, with or without its dash. */
          readonly userCode: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Success'];
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/oauth/revoke': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /** Revokes a device session by its access or refresh token (RFC 7009); an unknown token is not an error. */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            readonly client_id?: string;
            readonly token?: string;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': Record<string, never>;
          };
        };
        /** @description Default Response */
        readonly 400: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json':
              components['schemas']['OAuthError'] | components['schemas']['Status'];
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/oauth/token': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /** The token endpoint: a device code (grant_type urn:ietf:params:oauth:grant-type:device_code) or a refresh token (grant_type refresh_token) for an access token and a new refresh token. */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            readonly client_id?: string;
            readonly device_code?: string;
            readonly grant_type?: string;
            readonly refresh_token?: string;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['OAuthToken'];
          };
        };
        /** @description Default Response */
        readonly 400: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json':
              components['schemas']['OAuthError'] | components['schemas']['Status'];
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/organization': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** The organization selected by X-Organization-ID. */
    readonly get: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly organization: components['schemas']['Organization'];
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            readonly name: string;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly organization: components['schemas']['Organization'];
            };
          };
        };
      };
    };
    readonly trace?: never;
  };
  readonly '/v1/organization/invitations': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** The organization's invitations, newest first (admins). */
    readonly get: {
      readonly parameters: {
        readonly query?: {
          readonly page?: number;
          readonly pageSize?: number;
        };
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly invitations: readonly components['schemas']['Invitation'][];
              readonly totalCount: number;
            };
          };
        };
      };
    };
    readonly put?: never;
    /** Invites an email address to the organization (owners only for the owner role); the invitee accepts it, signed in with that address. */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            /** Format: email */
            readonly email: string;
            /** @enum {string} */
            readonly role: 'MEMBER_ROLE_OWNER' | 'MEMBER_ROLE_ADMIN' | 'MEMBER_ROLE_MEMBER';
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 201: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly invitation: components['schemas']['Invitation'];
            };
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/organization/invitations/{id}': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    readonly post?: never;
    /** Revokes an open invitation. */
    readonly delete: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Success'];
          };
        };
      };
    };
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/organization/members': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly members: readonly components['schemas']['Member'][];
              readonly totalCount: number;
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/organization/members/{userId}': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    readonly post?: never;
    readonly delete: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly userId: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Success'];
          };
        };
      };
    };
    readonly options?: never;
    readonly head?: never;
    readonly patch: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly userId: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            /** @enum {string} */
            readonly role: 'MEMBER_ROLE_OWNER' | 'MEMBER_ROLE_ADMIN' | 'MEMBER_ROLE_MEMBER';
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly member: components['schemas']['Member'];
            };
          };
        };
      };
    };
    readonly trace?: never;
  };
  readonly '/v1/organizations': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** The caller's organizations and their role in each. */
    readonly get: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly organizations: readonly {
                readonly createTime: string;
                readonly id: string;
                readonly isVerified: boolean;
                readonly name: string;
                /** @enum {string} */
                readonly role: 'MEMBER_ROLE_OWNER' | 'MEMBER_ROLE_ADMIN' | 'MEMBER_ROLE_MEMBER';
                /** @enum {string} */
                readonly type: 'ORGANIZATION_TYPE_PROVIDER' | 'ORGANIZATION_TYPE_CLIENT';
              }[];
              readonly totalCount: number;
            };
          };
        };
      };
    };
    readonly put?: never;
    /** Creates another organization owned by the caller. */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            readonly name: string;
            /** @enum {string} */
            readonly type: 'ORGANIZATION_TYPE_PROVIDER' | 'ORGANIZATION_TYPE_CLIENT';
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 201: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly organization: components['schemas']['Organization'];
            };
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/organizations/{id}:verify': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /** Marks a provider organization as reviewed (staff only). */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly organization: components['schemas']['Organization'];
            };
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/plans': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** Your organisation's plans; deleted ones are not listed. */
    readonly get: {
      readonly parameters: {
        readonly query?: {
          readonly billingType?: 'BILLING_TYPE_SUBSCRIPTION' | 'BILLING_TYPE_USAGE';
          /** @description A whole code, like SC-GC-1C-1G-20. */
          readonly filterCode?: string;
          /** @description A compute type, in full or as in codes (GC, HF, …). */
          readonly filterComputeType?:
            | 'COMPUTE_TYPE_GENERAL_COMPUTE'
            | 'COMPUTE_TYPE_HIGH_FREQUENCY'
            | 'COMPUTE_TYPE_HIGH_PERFORMANCE'
            | 'COMPUTE_TYPE_GENERAL_PURPOSE'
            | 'COMPUTE_TYPE_CPU_OPTIMIZED'
            | 'COMPUTE_TYPE_MEMORY_OPTIMIZED'
            | 'COMPUTE_TYPE_STORAGE_OPTIMIZED'
            | 'COMPUTE_TYPE_VERY_HIGH_FREQUENCY'
            | 'COMPUTE_TYPE_GAME_SERVER'
            | 'GC'
            | 'HF'
            | 'HP'
            | 'GP'
            | 'CPU'
            | 'MEM'
            | 'STO'
            | 'VHF'
            | 'GS';
          readonly page?: number;
          readonly pageSize?: number;
          /** @description Plans that sell in this region, among others. */
          readonly regionId?: string;
          /** @description A piece of the name or code. */
          readonly search?: string;
        };
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly plans: readonly components['schemas']['Plan'][];
              readonly totalCount: number;
            };
          };
        };
      };
    };
    readonly put?: never;
    /**
     * Creates a plan: specs, prices, one region and the nodes it may be placed on.
     * @description The code is derived from the compute category and type and the specs. Nodes must be in the region, of the compute category, and not known to be smaller than one VM of the plan.
     */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            /**
             * @description Traffic (egress) included per bandwidthPeriod, in GiB; 0 is unlimited.
             * @default 0
             */
            readonly bandwidthAllowanceGb?: number;
            /**
             * @default BILLING_PERIOD_MONTH
             * @enum {string}
             */
            readonly bandwidthPeriod?:
              | 'BILLING_PERIOD_HOUR'
              | 'BILLING_PERIOD_DAY'
              | 'BILLING_PERIOD_WEEK'
              | 'BILLING_PERIOD_MONTH'
              | 'BILLING_PERIOD_QUARTER'
              | 'BILLING_PERIOD_YEAR';
            /**
             * @default BILLING_TYPE_SUBSCRIPTION
             * @enum {string}
             */
            readonly billingType?: 'BILLING_TYPE_SUBSCRIPTION' | 'BILLING_TYPE_USAGE';
            /** @description Derived from the specs (SC-GC-2C-4G-40); when given, it must be that code. */
            readonly code?: string;
            /**
             * @description SC or DC in the code; the nodes must match it.
             * @default COMPUTE_CATEGORY_SHARED_COMPUTE
             * @enum {string}
             */
            readonly computeCategory?:
              'COMPUTE_CATEGORY_SHARED_COMPUTE' | 'COMPUTE_CATEGORY_DEDICATED_COMPUTE';
            /** @enum {string} */
            readonly computeType:
              | 'COMPUTE_TYPE_GENERAL_COMPUTE'
              | 'COMPUTE_TYPE_HIGH_FREQUENCY'
              | 'COMPUTE_TYPE_HIGH_PERFORMANCE'
              | 'COMPUTE_TYPE_GENERAL_PURPOSE'
              | 'COMPUTE_TYPE_CPU_OPTIMIZED'
              | 'COMPUTE_TYPE_MEMORY_OPTIMIZED'
              | 'COMPUTE_TYPE_STORAGE_OPTIMIZED'
              | 'COMPUTE_TYPE_VERY_HIGH_FREQUENCY'
              | 'COMPUTE_TYPE_GAME_SERVER';
            /**
             * @description Proxmox cpulimit in cores, at most the vCPUs; 0 is unlimited.
             * @default 0
             */
            readonly cpuLimit?: number;
            /**
             * @description Proxmox cpuunits: the CPU weight against other VMs.
             * @default 1024
             */
            readonly cpuUnits?: number;
            /** @description GiB (1024³ bytes). */
            readonly diskGb: number;
            /** @default false */
            readonly isPublic?: boolean;
            readonly name: string;
            /**
             * @description Megabits per second; 0 is unlimited.
             * @default 0
             */
            readonly networkRateLimitMbps?: number;
            /** @description Nodes of those regions the plan may be placed on, of its compute category and big enough. */
            readonly nodeIds: readonly string[];
            /**
             * @default CREDIT_EXHAUSTION_ACTION_SUSPEND
             * @enum {string}
             */
            readonly onCreditExhaustion?:
              'CREDIT_EXHAUSTION_ACTION_SUSPEND' | 'CREDIT_EXHAUSTION_ACTION_CONTINUE_WITH_DUNNING';
            /** @description One price per billing period, all in one currency. Usage plans have one: BILLING_PERIOD_HOUR. */
            readonly planPrices: readonly {
              /** @enum {string} */
              readonly billingPeriod:
                | 'BILLING_PERIOD_HOUR'
                | 'BILLING_PERIOD_DAY'
                | 'BILLING_PERIOD_WEEK'
                | 'BILLING_PERIOD_MONTH'
                | 'BILLING_PERIOD_QUARTER'
                | 'BILLING_PERIOD_YEAR';
              /** @description ISO 4217, like EUR. */
              readonly currency: string;
              /** @description A non-negative decimal string with up to six decimals, like 12.5; answers always carry six (12.500000). */
              readonly unitAmount: string;
            }[];
            /** @description GiB (1024³ bytes), written G in the code. */
            readonly ramGb: number;
            /**
             * Format: uuid
             * @description One region, as regionIds: [regionId]; give one of the two.
             */
            readonly regionId?: string;
            /** @description Regions of your organisation the plan sells in; each region’s nodes take its orders there. */
            readonly regionIds?: readonly string[];
            /**
             * @description One-time, in the currency of the prices.
             * @default 0
             */
            readonly setupFee?: string;
            /** @default 0 */
            readonly trialDays?: number;
            readonly vcpus: number;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 201: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly plan: components['schemas']['Plan'];
            };
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/plans:calculate': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /**
     * Prices one VM of a plan, with addons, for one billing period. Changes nothing.
     * @description Amounts are exact six-decimal strings. Usage plans bill hours × the hourly price, capped at the period (730 hours a month); fixed addon prices are per month and charged for the same hours; percentage addons are of the plan charge, or their fallback when the plan costs nothing. Each line is rounded half up to 0.000001 once; totals are exact sums.
     */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            /** @default [] */
            readonly addons?: readonly {
              /**
               * Format: uuid
               * @description One of your addons compatible with the plan; or give pricing.
               */
              readonly addonId?: string;
              readonly pricing?: components['schemas']['AddonPricingInput'];
              /** @default 1 */
              readonly quantity?: number;
            }[];
            /** @enum {string} */
            readonly billingPeriod:
              | 'BILLING_PERIOD_HOUR'
              | 'BILLING_PERIOD_DAY'
              | 'BILLING_PERIOD_WEEK'
              | 'BILLING_PERIOD_MONTH'
              | 'BILLING_PERIOD_QUARTER'
              | 'BILLING_PERIOD_YEAR';
            /** @description Usage plans only: hours used in the period, capped at its hours (730 a month). Default: all of them. */
            readonly hours?: number;
            /** @default false */
            readonly includeSetupFee?: boolean;
            /** @description Prices of a plan not saved yet; or give planId. */
            readonly planConfig?: {
              /**
               * @default BILLING_TYPE_SUBSCRIPTION
               * @enum {string}
               */
              readonly billingType?: 'BILLING_TYPE_SUBSCRIPTION' | 'BILLING_TYPE_USAGE';
              readonly name?: string;
              /** @description One price per billing period, all in one currency. Usage plans have one: BILLING_PERIOD_HOUR. */
              readonly planPrices: readonly {
                /** @enum {string} */
                readonly billingPeriod:
                  | 'BILLING_PERIOD_HOUR'
                  | 'BILLING_PERIOD_DAY'
                  | 'BILLING_PERIOD_WEEK'
                  | 'BILLING_PERIOD_MONTH'
                  | 'BILLING_PERIOD_QUARTER'
                  | 'BILLING_PERIOD_YEAR';
                /** @description ISO 4217, like EUR. */
                readonly currency: string;
                /** @description A non-negative decimal string with up to six decimals, like 12.5; answers always carry six (12.500000). */
                readonly unitAmount: string;
              }[];
              /**
               * @description One-time, in the currency of the prices.
               * @default 0
               */
              readonly setupFee?: string;
            };
            /**
             * Format: uuid
             * @description One of your plans; or give planConfig.
             */
            readonly planId?: string;
            /** @default 0 */
            readonly taxRatePercent?: number;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              /** @enum {string} */
              readonly billingPeriod:
                | 'BILLING_PERIOD_HOUR'
                | 'BILLING_PERIOD_DAY'
                | 'BILLING_PERIOD_WEEK'
                | 'BILLING_PERIOD_MONTH'
                | 'BILLING_PERIOD_QUARTER'
                | 'BILLING_PERIOD_YEAR';
              readonly chargedHours: number;
              readonly currency: string;
              readonly lineItems: readonly {
                readonly amount: string;
                readonly description: string;
                /** @enum {string} */
                readonly productType: 'PRODUCT_TYPE_PLAN' | 'PRODUCT_TYPE_ADDON';
                readonly quantity: number;
                readonly referenceId?: string;
                readonly unitAmount: string;
              }[];
              readonly subtotal: string;
              readonly tax: string;
              readonly total: string;
            };
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/plans/{id}': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** Reads a plan, deleted ones included (status STATUS_SOFT_DELETED). */
    readonly get: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly plan: components['schemas']['Plan'];
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    /**
     * Soft-deletes a plan: no longer listed or sold; it lets go of its region and nodes.
     * @description Changes apply to VMs ordered afterwards: a VM keeps the plan revision it was ordered at.
     */
    readonly delete: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Success'];
          };
        };
      };
    };
    readonly options?: never;
    readonly head?: never;
    /**
     * Changes the fields given; fields left out keep their values, lists given replace the list.
     * @description Each change that changes something increments the revision; the code follows the specs. Changes apply to VMs ordered afterwards: a VM keeps the plan revision it was ordered at.
     */
    readonly patch: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            /** @description Traffic (egress) included per bandwidthPeriod, in GiB; 0 is unlimited. */
            readonly bandwidthAllowanceGb?: number;
            /** @enum {string} */
            readonly bandwidthPeriod?:
              | 'BILLING_PERIOD_HOUR'
              | 'BILLING_PERIOD_DAY'
              | 'BILLING_PERIOD_WEEK'
              | 'BILLING_PERIOD_MONTH'
              | 'BILLING_PERIOD_QUARTER'
              | 'BILLING_PERIOD_YEAR';
            /** @enum {string} */
            readonly billingType?: 'BILLING_TYPE_SUBSCRIPTION' | 'BILLING_TYPE_USAGE';
            /** @description Derived from the specs (SC-GC-2C-4G-40); when given, it must be that code. */
            readonly code?: string;
            /**
             * @description SC or DC in the code; the nodes must match it.
             * @enum {string}
             */
            readonly computeCategory?:
              'COMPUTE_CATEGORY_SHARED_COMPUTE' | 'COMPUTE_CATEGORY_DEDICATED_COMPUTE';
            /** @enum {string} */
            readonly computeType?:
              | 'COMPUTE_TYPE_GENERAL_COMPUTE'
              | 'COMPUTE_TYPE_HIGH_FREQUENCY'
              | 'COMPUTE_TYPE_HIGH_PERFORMANCE'
              | 'COMPUTE_TYPE_GENERAL_PURPOSE'
              | 'COMPUTE_TYPE_CPU_OPTIMIZED'
              | 'COMPUTE_TYPE_MEMORY_OPTIMIZED'
              | 'COMPUTE_TYPE_STORAGE_OPTIMIZED'
              | 'COMPUTE_TYPE_VERY_HIGH_FREQUENCY'
              | 'COMPUTE_TYPE_GAME_SERVER';
            /** @description Proxmox cpulimit in cores, at most the vCPUs; 0 is unlimited. */
            readonly cpuLimit?: number;
            /** @description Proxmox cpuunits: the CPU weight against other VMs. */
            readonly cpuUnits?: number;
            /** @description GiB (1024³ bytes). */
            readonly diskGb?: number;
            readonly isPublic?: boolean;
            readonly name?: string;
            /** @description Megabits per second; 0 is unlimited. */
            readonly networkRateLimitMbps?: number;
            /** @description Nodes of those regions the plan may be placed on, of its compute category and big enough. */
            readonly nodeIds?: readonly string[];
            /** @enum {string} */
            readonly onCreditExhaustion?:
              'CREDIT_EXHAUSTION_ACTION_SUSPEND' | 'CREDIT_EXHAUSTION_ACTION_CONTINUE_WITH_DUNNING';
            /** @description One price per billing period, all in one currency. Usage plans have one: BILLING_PERIOD_HOUR. */
            readonly planPrices?: readonly {
              /** @enum {string} */
              readonly billingPeriod:
                | 'BILLING_PERIOD_HOUR'
                | 'BILLING_PERIOD_DAY'
                | 'BILLING_PERIOD_WEEK'
                | 'BILLING_PERIOD_MONTH'
                | 'BILLING_PERIOD_QUARTER'
                | 'BILLING_PERIOD_YEAR';
              /** @description ISO 4217, like EUR. */
              readonly currency: string;
              /** @description A non-negative decimal string with up to six decimals, like 12.5; answers always carry six (12.500000). */
              readonly unitAmount: string;
            }[];
            /** @description GiB (1024³ bytes), written G in the code. */
            readonly ramGb?: number;
            /**
             * Format: uuid
             * @description One region, as regionIds: [regionId]; give one of the two.
             */
            readonly regionId?: string;
            /** @description Regions of your organisation the plan sells in; each region’s nodes take its orders there. */
            readonly regionIds?: readonly string[];
            /** @description One-time, in the currency of the prices. */
            readonly setupFee?: string;
            readonly trialDays?: number;
            readonly vcpus?: number;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly plan: components['schemas']['Plan'];
            };
          };
        };
      };
    };
    readonly trace?: never;
  };
  readonly '/v1/platform': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /** Registers a hypervisor API endpoint, once per organization. */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            /** Format: uuid */
            readonly agentId?: string;
            /** @enum {string} */
            readonly driver: 'PLATFORM_DRIVER_PROXMOX';
            readonly endpointUrl: string;
            readonly name: string;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 201: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly platform: components['schemas']['Platform'];
            };
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/platform-versions': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** The version pins of what `nr cluster register` installs on an agent VM, each with its SHA-256. Cacheable: an ETag, and If-None-Match answers 304. */
    readonly get: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['PlatformVersions'];
          };
        };
        /** @description Not modified: the ETag given in If-None-Match is the current one. */
        readonly 304: {
          headers: {
            readonly [name: string]: unknown;
          };
          content?: never;
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/platform/{id}': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly platform: components['schemas']['Platform'];
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    readonly delete: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Success'];
          };
        };
      };
    };
    readonly options?: never;
    readonly head?: never;
    readonly patch: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            readonly endpointUrl?: string;
            readonly name?: string;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly platform: components['schemas']['Platform'];
            };
          };
        };
      };
    };
    readonly trace?: never;
  };
  readonly '/v1/platforms': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get: {
      readonly parameters: {
        readonly query?: {
          readonly page?: number;
          readonly pageSize?: number;
          readonly search?: string;
          readonly serviceStatus?:
            'SERVICE_STATUS_ONLINE' | 'SERVICE_STATUS_OFFLINE' | 'SERVICE_STATUS_MAINTENANCE';
        };
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly platforms: readonly components['schemas']['Platform'][];
              readonly totalCount: number;
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/platforms/{id}:AssignAgent': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /** Links an agent of the organization; refused while another agent is linked. */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            /** Format: uuid */
            readonly agentId: string;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly platform: components['schemas']['Platform'];
            };
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/platforms/{id}:UnassignAgent': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            /** Format: uuid */
            readonly agentId: string;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly platform: components['schemas']['Platform'];
            };
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/provider/network/smtp-outbound-policies': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** Each VM on your infrastructure with your decision and what it comes to, by hostname. */
    readonly get: {
      readonly parameters: {
        readonly query?: {
          readonly page?: number;
          readonly pageSize?: number;
          /** @description A part of the hostname, or the VM id. */
          readonly search?: string;
        };
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly policies: readonly components['schemas']['SmtpOutboundVmPolicy'][];
              readonly totalCount: number;
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/provider/network/smtp-outbound-policies/{vmId}': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly vmId: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly policy: components['schemas']['SmtpOutboundVmPolicy'];
            };
          };
        };
      };
    };
    /** Allows or blocks one VM’s outbound SMTP, or has it follow the default (INHERIT). */
    readonly put: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly vmId: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            /** @enum {string} */
            readonly action:
              | 'SMTP_OUTBOUND_VM_ACTION_INHERIT'
              | 'SMTP_OUTBOUND_VM_ACTION_ALLOW'
              | 'SMTP_OUTBOUND_VM_ACTION_BLOCK';
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly policy: components['schemas']['SmtpOutboundVmPolicy'];
            };
          };
        };
      };
    };
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/provider/network/smtp-outbound-policy': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /**
     * Whether your VMs’ outbound SMTP is blocked unless you decide otherwise per VM.
     * @description A provider that never set it blocks.
     */
    readonly get: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly policy: components['schemas']['SmtpOutboundPolicy'];
            };
          };
        };
      };
    };
    /** Sets the default; every VM that inherits it gets the change. */
    readonly put: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            readonly blockByDefault: boolean;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly policy: components['schemas']['SmtpOutboundPolicy'];
            };
          };
        };
      };
    };
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/provider/order-refusals': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /**
     * Orders of your plans that no node could take, newest first, with each node's reasons.
     * @description The customer was told only that the plan had no capacity in the region; refusals are kept 30 days.
     */
    readonly get: {
      readonly parameters: {
        readonly query?: {
          readonly page?: number;
          readonly pageSize?: number;
        };
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly orderRefusals: readonly components['schemas']['OrderRefusal'][];
              readonly totalCount: number;
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/provider/plans/assignable-nodes': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** Your nodes in a region; with planId, those the plan may be assigned to. */
    readonly get: {
      readonly parameters: {
        readonly query: {
          /** @description Keep only the nodes this plan may be assigned to. */
          readonly planId?: string;
          readonly regionId: string;
        };
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly nodes: readonly {
                /**
                 * @description With planId: CAPACITY_FITS when the node reported enough cores, memory and VM storage for one VM of the plan; CAPACITY_UNKNOWN while it has not reported them (preflight checks again). Nodes known to be too small are left out.
                 * @enum {string}
                 */
                readonly capacity?: 'CAPACITY_FITS' | 'CAPACITY_UNKNOWN';
                /** @enum {string} */
                readonly computeType: 'NODE_COMPUTE_TYPE_SHARED' | 'NODE_COMPUTE_TYPE_DEDICATED';
                readonly id: string;
                readonly name: string;
                readonly regionId: string;
              }[];
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/provider/preflight-checks': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /**
     * Whether each of your plans can be sold, checked agent → platform → node.
     * @description Results are re-evaluated after every change you make and on an interval; a change made just before this call is already reflected.
     */
    readonly get: {
      readonly parameters: {
        readonly query?: {
          /** @description Only plans with a failing check. */
          readonly issuesOnly?: string;
          readonly page?: number;
          readonly pageSize?: number;
          readonly planCode?: string;
          readonly planId?: string;
        };
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly marketplaceReadyCheckEnabled: boolean;
              readonly marketplaceReadyCheckIntervalSeconds: number;
              readonly plans: readonly components['schemas']['PreflightResult'][];
              readonly totalCount: number;
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/provider/virtual-machines': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** The VMs on your infrastructure, newest first (no customer secrets). */
    readonly get: {
      readonly parameters: {
        readonly query?: {
          readonly page?: number;
          readonly pageSize?: number;
        };
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly totalCount: number;
              readonly virtualMachines: readonly components['schemas']['ProviderVirtualMachine'][];
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/provider/virtual-machines/{id}': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** One VM on your infrastructure. */
    readonly get: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly virtualMachine: components['schemas']['ProviderVirtualMachine'];
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/regions': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get: {
      readonly parameters: {
        readonly query?: {
          readonly page?: number;
          readonly pageSize?: number;
          readonly platformId?: string;
          readonly search?: string;
        };
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly regions: readonly components['schemas']['Region'][];
              readonly totalCount: number;
            };
          };
        };
      };
    };
    readonly put?: never;
    /** Creates a region from a city and a datacenter of the catalogue. */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            readonly cityCountryId: string;
            readonly datacenterId: string;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 201: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Region'];
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/regions/{id}': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Region'];
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    readonly delete: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Success'];
          };
        };
      };
    };
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/secrets': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get: {
      readonly parameters: {
        readonly query?: {
          readonly page?: number;
          readonly pageSize?: number;
        };
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly secrets: readonly components['schemas']['Secret'][];
              readonly totalCount: number;
            };
          };
        };
      };
    };
    readonly put?: never;
    /** Stores a secret, encrypted; its value can be replaced but never read back. */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            readonly key: string;
            readonly value: string;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 201: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly secret: components['schemas']['Secret'];
            };
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/secrets/{id}': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly secret: components['schemas']['Secret'];
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    readonly delete: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Success'];
          };
        };
      };
    };
    readonly options?: never;
    readonly head?: never;
    /** Replaces the value of a secret. */
    readonly patch: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            readonly value: string;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly secret: components['schemas']['Secret'];
            };
          };
        };
      };
    };
    readonly trace?: never;
  };
  readonly '/v1/service-accounts': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get: {
      readonly parameters: {
        readonly query?: {
          /** @description Also list deactivated accounts. */
          readonly includeInactive?: string;
          readonly page?: number;
          readonly pageSize?: number;
        };
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly serviceAccounts: readonly components['schemas']['ServiceAccount'][];
              readonly totalCount: number;
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            /**
             * @description Addresses or CIDR prefixes the tokens may be used from; empty means anywhere.
             * @default []
             */
            readonly allowedIps?: readonly string[];
            /** @default  */
            readonly description?: string;
            readonly name: string;
            /**
             * @default MEMBER_ROLE_MEMBER
             * @enum {string}
             */
            readonly role?: 'MEMBER_ROLE_ADMIN' | 'MEMBER_ROLE_MEMBER';
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 201: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly serviceAccount: components['schemas']['ServiceAccount'];
            };
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/service-accounts/{id}': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly serviceAccount: components['schemas']['ServiceAccount'];
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    /** Deletes an account and revokes all its tokens. */
    readonly delete: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Success'];
          };
        };
      };
    };
    readonly options?: never;
    readonly head?: never;
    /** Changes an account; deactivating it stops its tokens working until it is activated again. */
    readonly patch: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            /** @description Addresses or CIDR prefixes the tokens may be used from; empty means anywhere. */
            readonly allowedIps?: readonly string[];
            readonly description?: string;
            readonly isActive?: boolean;
            readonly name?: string;
            /** @enum {string} */
            readonly role?: 'MEMBER_ROLE_ADMIN' | 'MEMBER_ROLE_MEMBER';
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly serviceAccount: components['schemas']['ServiceAccount'];
            };
          };
        };
      };
    };
    readonly trace?: never;
  };
  readonly '/v1/service-accounts/{id}/tokens': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get: {
      readonly parameters: {
        readonly query?: {
          readonly page?: number;
          readonly pageSize?: number;
        };
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly tokens: readonly components['schemas']['ServiceAccountToken'][];
              readonly totalCount: number;
            };
          };
        };
      };
    };
    readonly put?: never;
    /** Creates a bearer token for the account. The response is the only time the token is shown. */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            /** @default 90 */
            readonly expiresInDays?: number;
            readonly name: string;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 201: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly expiresAt: string;
              readonly token: string;
              readonly tokenId: string;
            };
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/service-accounts/tokens/{tokenId}': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    readonly post?: never;
    /** Revokes a token; requests made with it fail from now on. */
    readonly delete: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly tokenId: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Success'];
          };
        };
      };
    };
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/ssh-keys': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get: {
      readonly parameters: {
        readonly query?: {
          readonly page?: number;
          readonly pageSize?: number;
        };
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly sshKeys: readonly components['schemas']['SshKey'][];
              readonly totalCount: number;
            };
          };
        };
      };
    };
    readonly put?: never;
    /** Adds an OpenSSH public key (ssh-ed25519, ecdsa-sha2-nistp256/384/521, or ssh-rsa of 2048 bits or more). */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            readonly name: string;
            readonly publicKey: string;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 201: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly sshKey: components['schemas']['SshKey'];
            };
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/ssh-keys/{id}': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly sshKey: components['schemas']['SshKey'];
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    readonly delete: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Success'];
          };
        };
      };
    };
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/staff/organizations': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** All organizations, for the review of providers (staff only). */
    readonly get: {
      readonly parameters: {
        readonly query?: {
          readonly isVerified?: 'true' | 'false';
          readonly page?: number;
          readonly pageSize?: number;
          readonly type?: 'ORGANIZATION_TYPE_PROVIDER' | 'ORGANIZATION_TYPE_CLIENT';
        };
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly organizations: readonly components['schemas']['Organization'][];
              readonly totalCount: number;
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/virtual-machines': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** The VMs your organisation ordered, newest first. */
    readonly get: {
      readonly parameters: {
        readonly query?: {
          readonly page?: number;
          readonly pageSize?: number;
        };
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly totalCount: number;
              readonly virtualMachines: readonly components['schemas']['VirtualMachine'][];
            };
          };
        };
      };
    };
    readonly put?: never;
    /**
     * Orders a VM: places it, takes its addresses, MAC and VMID, and sends it to the provider.
     * @description Only plans the marketplace lists can be ordered; any other planId is NOT_FOUND. Idempotent by idempotencyKey: the same order again answers 200 with the VM it made; the key with a different order is ALREADY_EXISTS. Deviation: answers the VM, not a bare Success.
     */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            /**
             * Format: uuid
             * @description One of your saved cloud-init user data profiles.
             */
            readonly cloudInitUserDataId?: string;
            /** @enum {string} */
            readonly distro:
              | 'DISTRO_UBUNTU_22_04'
              | 'DISTRO_UBUNTU_24_04'
              | 'DISTRO_UBUNTU_26_04'
              | 'DISTRO_FEDORA_43'
              | 'DISTRO_FEDORA_44'
              | 'DISTRO_DEBIAN_12'
              | 'DISTRO_DEBIAN_13'
              | 'DISTRO_CENTOS_9'
              | 'DISTRO_CENTOS_10'
              | 'DISTRO_ROCKY_9'
              | 'DISTRO_ROCKY_10'
              | 'DISTRO_ALMALINUX_9'
              | 'DISTRO_ALMALINUX_10';
            readonly hostname: string;
            /** @description Your id for this order: sending it again answers the same VM instead of a second one. */
            readonly idempotencyKey: string;
            /** @description Kept only as a SHA-512-crypt hash inside the cloud-init data. */
            readonly password?: string;
            /**
             * Format: uuid
             * @description The offer (marketplace plan) to buy; it fixes the provider and the region.
             */
            readonly planId: string;
            /**
             * Format: uuid
             * @description The plan's region.
             */
            readonly regionId: string;
            /** @description Your SSH keys to authorise. */
            readonly sshKeyIds?: readonly string[];
            /** @default [] */
            readonly tags?: readonly string[];
            /** @description Your own cloud-init user data, used as it is instead of the provider's. */
            readonly userData?: string;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly virtualMachine: components['schemas']['VirtualMachine'];
            };
          };
        };
        /** @description Default Response */
        readonly 201: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly virtualMachine: components['schemas']['VirtualMachine'];
            };
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/virtual-machines/{id}': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** One of your VMs. */
    readonly get: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly virtualMachine: components['schemas']['VirtualMachine'];
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    /** Deletes a VM: DELETING until the provider reports it gone, then its addresses are released. */
    readonly delete: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly virtualMachine: components['schemas']['VirtualMachine'];
            };
          };
        };
      };
    };
    readonly options?: never;
    readonly head?: never;
    /** Adds and removes tags, the only thing of a VM that is edited. */
    readonly patch: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            /** @default [] */
            readonly addTags?: readonly string[];
            /** @default [] */
            readonly removeTags?: readonly string[];
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly virtualMachine: components['schemas']['VirtualMachine'];
            };
          };
        };
      };
    };
    readonly trace?: never;
  };
  readonly '/v1/virtual-machines/{id}:attach-firewall': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /**
     * Attaches the ruleset to the VM, in place of the one it had (a VM has at most one).
     * @description The VM must be yours and not being deleted. Deviation: answers the ruleset with its attachments instead of the VM.
     */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            /** Format: uuid */
            readonly rulesetId: string;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly ruleset: components['schemas']['FirewallRuleSet'];
            };
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/virtual-machines/{id}:detach-firewall': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /**
     * Detaches the ruleset from the VM; nothing happens when it is not the VM’s ruleset.
     * @description The VM must be yours and not being deleted. Deviation: answers the ruleset with its attachments instead of the VM.
     */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            /** Format: uuid */
            readonly rulesetId: string;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly ruleset: components['schemas']['FirewallRuleSet'];
            };
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/virtual-machines/{id}:disable-backup': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /**
     * Stops the VM's scheduled backups.
     * @description The backups already made stay (restorable and deletable; they go with the VM) unless cancelImmediately, which deletes them now too. Deviation: answers the VM.
     */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            /** Format: uuid */
            readonly addonId: string;
            /** @default false */
            readonly cancelImmediately?: boolean;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly virtualMachine: components['schemas']['VirtualMachine'];
            };
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/virtual-machines/{id}:enable-backup': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /**
     * Backs the VM up on the schedule of a backup addon of its provider.
     * @description The addon must be a live ADDON_TYPE_BACKUP addon offered with the VM's plan; its schedule and retention, and the node's backup storage and compression as they are now, become the VM's policy (enabling again replaces it). Deviation: answers the VM and its policy.
     */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            /** Format: uuid */
            readonly addonId: string;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly backupPolicy: components['schemas']['VmBackupPolicy'];
              readonly virtualMachine: components['schemas']['VirtualMachine'];
            };
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/virtual-machines/{id}:reinstall': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /**
     * Reinstalls the VM: a new guest from the template, with the same VMID, MAC and addresses.
     * @description Everything on the old disk is lost. The cloud-init data is compiled again.
     */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            /**
             * Format: uuid
             * @description One of your saved cloud-init user data profiles.
             */
            readonly cloudInitUserDataId?: string;
            /**
             * @description Another distro with a template on the VM’s node; the same when left out.
             * @enum {string}
             */
            readonly distro?:
              | 'DISTRO_UBUNTU_22_04'
              | 'DISTRO_UBUNTU_24_04'
              | 'DISTRO_UBUNTU_26_04'
              | 'DISTRO_FEDORA_43'
              | 'DISTRO_FEDORA_44'
              | 'DISTRO_DEBIAN_12'
              | 'DISTRO_DEBIAN_13'
              | 'DISTRO_CENTOS_9'
              | 'DISTRO_CENTOS_10'
              | 'DISTRO_ROCKY_9'
              | 'DISTRO_ROCKY_10'
              | 'DISTRO_ALMALINUX_9'
              | 'DISTRO_ALMALINUX_10';
            readonly hostname?: string;
            /** @description Kept only as a SHA-512-crypt hash inside the cloud-init data. */
            readonly password?: string;
            /** @description Your SSH keys to authorise. */
            readonly sshKeyIds?: readonly string[];
            /** @description Your own cloud-init user data, used as it is instead of the provider's. */
            readonly userData?: string;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly virtualMachine: components['schemas']['VirtualMachine'];
            };
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/virtual-machines/{id}:restart': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /** Reboots the VM (starts it when stopped). */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': Record<string, never>;
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly virtualMachine: components['schemas']['VirtualMachine'];
            };
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/virtual-machines/{id}:start': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /** Starts the VM. */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': Record<string, never>;
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly virtualMachine: components['schemas']['VirtualMachine'];
            };
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/virtual-machines/{id}:stop': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /** Stops the VM. */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': Record<string, never>;
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly virtualMachine: components['schemas']['VirtualMachine'];
            };
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/virtual-machines/{id}/bandwidth-usage': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** Traffic per billing period of the VM's plan (egress is transmitted, ingress received). */
    readonly get: {
      readonly parameters: {
        readonly query?: {
          readonly periods?: number;
        };
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['VirtualMachineBandwidthUsage'];
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/virtual-machines/{id}/console': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /**
     * Opens a console session on a running VM (VNC over WebSocket).
     * @description Waits until the provider's operator has opened the VNC proxy (503 UNAVAILABLE after 15 s, or at once when the agent cannot be reached; 412 when the VM is not running). Needs the admin role. Deviation: answers `expiresAt` too.
     */
    readonly get: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['VmConsole'];
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/virtual-machines/{id}/metrics': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** Usage chart points: 1-minute points for the last 48 hours, 1-hour points for 90 days, merged into `step` seconds. */
    readonly get: {
      readonly parameters: {
        readonly query?: {
          /** @description Default: an hour before to. */
          readonly from?: string;
          readonly series?:
            'CHART_SERIES_CPU' | 'CHART_SERIES_MEMORY' | 'CHART_SERIES_NETWORK' | 'CHART_SERIES_DISK';
          /** @description Seconds per point, a multiple of 60 within the last 48 hours and of 3600 before: points are merged into steps (a chart of 7 days asks 3600). Default: 60, or 3600 for a range that starts earlier. */
          readonly step?: number;
          /** @description Default: now. */
          readonly to?: string;
        };
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['VirtualMachineMetrics'];
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/virtual-machines/{vmId}/backups': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /**
     * The VM's backups, newest first (deleted and expired ones too).
     * @description There is no create: backups are made on the schedule of the VM's backup addon (`:enable-backup`), and the oldest beyond its retention expire.
     */
    readonly get: {
      readonly parameters: {
        readonly query?: {
          readonly page?: number;
          readonly pageSize?: number;
          readonly status?:
            | 'BACKUP_STATUS_ACTIVE'
            | 'BACKUP_STATUS_DELETED'
            | 'BACKUP_STATUS_EXPIRED'
            | 'BACKUP_STATUS_UNKNOWN';
        };
        readonly header?: never;
        readonly path: {
          readonly vmId: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly backups: readonly components['schemas']['Backup'][];
              readonly totalCount: number;
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/virtual-machines/{vmId}/backups/{backupId}': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** One backup of the VM. */
    readonly get: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly backupId: string;
          readonly vmId: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly backup: components['schemas']['Backup'];
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    /** Deletes the backup and its archive: PROCESSING until the provider has, then DELETED. */
    readonly delete: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly backupId: string;
          readonly vmId: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly backup: components['schemas']['Backup'];
            };
          };
        };
      };
    };
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/virtual-machines/{vmId}/backups/{backupId}/restore': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /** Restores the VM from the backup, over its current disks (the VM is stopped first). */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly backupId: string;
          readonly vmId: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            /**
             * @description Start the VM once restored.
             * @default true
             */
            readonly startAfterRestore?: boolean;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly backup: components['schemas']['Backup'];
            };
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/virtual-machines/{vmId}/snapshots': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** The VM's snapshots, newest first (deleted ones too, as DELETED). */
    readonly get: {
      readonly parameters: {
        readonly query?: {
          readonly page?: number;
          readonly pageSize?: number;
          readonly status?:
            | 'SNAPSHOT_STATUS_ACTIVE'
            | 'SNAPSHOT_STATUS_DELETED'
            | 'SNAPSHOT_STATUS_EXPIRED'
            | 'SNAPSHOT_STATUS_UNKNOWN';
        };
        readonly header?: never;
        readonly path: {
          readonly vmId: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly snapshots: readonly components['schemas']['Snapshot'][];
              readonly totalCount: number;
            };
          };
        };
      };
    };
    readonly put?: never;
    /**
     * Takes a snapshot of the VM (disks and config; the Proxmox snapshot is named for you).
     * @description Answers at once; the snapshot is COMPLETED when the provider has taken it. Deviation: 201 with the snapshot.
     */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly vmId: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            /** @default  */
            readonly description?: string;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 201: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly snapshot: components['schemas']['Snapshot'];
            };
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/virtual-machines/{vmId}/snapshots/{snapshotId}': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /** One snapshot of the VM. */
    readonly get: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly snapshotId: string;
          readonly vmId: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly snapshot: components['schemas']['Snapshot'];
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    /** Deletes the snapshot: PROCESSING until the provider has removed it, then DELETED. */
    readonly delete: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly snapshotId: string;
          readonly vmId: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly snapshot: components['schemas']['Snapshot'];
            };
          };
        };
      };
    };
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/virtual-machines/{vmId}/snapshots/{snapshotId}/restore': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /**
     * Rolls the VM back to the snapshot.
     * @description Proxmox stops the guest to roll back (it is started again when the VM is wanted running): a running VM needs `stopVm: true`, else FAILED_PRECONDITION. `snapshotName`, when given, must be the snapshot's.
     */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly snapshotId: string;
          readonly vmId: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            readonly snapshotName?: string;
            /** @default false */
            readonly stopVm?: boolean;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly snapshot: components['schemas']['Snapshot'];
            };
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/vmtemplate': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get?: never;
    readonly put?: never;
    /** Registers a Proxmox template VM of a node for one distro (one per node and distro). */
    readonly post: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            /**
             * Format: uuid
             * @description One of your cloud-init templates (copy a seed first).
             */
            readonly cloudInitTemplateId: string;
            /** @enum {string} */
            readonly distro:
              | 'DISTRO_UBUNTU_22_04'
              | 'DISTRO_UBUNTU_24_04'
              | 'DISTRO_UBUNTU_26_04'
              | 'DISTRO_FEDORA_43'
              | 'DISTRO_FEDORA_44'
              | 'DISTRO_DEBIAN_12'
              | 'DISTRO_DEBIAN_13'
              | 'DISTRO_CENTOS_9'
              | 'DISTRO_CENTOS_10'
              | 'DISTRO_ROCKY_9'
              | 'DISTRO_ROCKY_10'
              | 'DISTRO_ALMALINUX_9'
              | 'DISTRO_ALMALINUX_10';
            readonly name: string;
            /** Format: uuid */
            readonly nodeId: string;
            /** @description The CPU type clones get; host when left out. */
            readonly proxmoxCpuType?: string;
            /** @description The Proxmox VMID of the template VM on the node. */
            readonly templateId: number;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 201: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly vmTemplate: components['schemas']['VMTemplate'];
            };
          };
        };
      };
    };
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
  readonly '/v1/vmtemplate/{id}': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    readonly get: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly vmTemplate: components['schemas']['VMTemplate'];
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    readonly delete: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Success'];
          };
        };
      };
    };
    readonly options?: never;
    readonly head?: never;
    /**
     * Changes the fields given; the node cannot change.
     * @description VMs that exist keep what they were cloned from.
     */
    readonly patch: {
      readonly parameters: {
        readonly query?: never;
        readonly header?: never;
        readonly path: {
          readonly id: string;
        };
        readonly cookie?: never;
      };
      readonly requestBody: {
        readonly content: {
          readonly 'application/json': {
            /**
             * Format: uuid
             * @description One of your cloud-init templates (copy a seed first).
             */
            readonly cloudInitTemplateId?: string;
            /** @enum {string} */
            readonly distro?:
              | 'DISTRO_UBUNTU_22_04'
              | 'DISTRO_UBUNTU_24_04'
              | 'DISTRO_UBUNTU_26_04'
              | 'DISTRO_FEDORA_43'
              | 'DISTRO_FEDORA_44'
              | 'DISTRO_DEBIAN_12'
              | 'DISTRO_DEBIAN_13'
              | 'DISTRO_CENTOS_9'
              | 'DISTRO_CENTOS_10'
              | 'DISTRO_ROCKY_9'
              | 'DISTRO_ROCKY_10'
              | 'DISTRO_ALMALINUX_9'
              | 'DISTRO_ALMALINUX_10';
            readonly name?: string;
            /** @description The CPU type clones get; host when left out. */
            readonly proxmoxCpuType?: string;
            /** @description The Proxmox VMID of the template VM on the node. */
            readonly templateId?: number;
          };
        };
      };
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly vmTemplate: components['schemas']['VMTemplate'];
            };
          };
        };
      };
    };
    readonly trace?: never;
  };
  readonly '/v1/vmtemplates': {
    readonly parameters: {
      readonly query?: never;
      readonly header?: never;
      readonly path?: never;
      readonly cookie?: never;
    };
    /**
     * The VM templates, by node name; a page never splits one node's templates.
     * @description A page holds as many whole nodes as fit in pageSize templates (a node with more gets a page of its own), so pages can hold fewer than pageSize; totalPages counts them.
     */
    readonly get: {
      readonly parameters: {
        readonly query?: {
          readonly distro?:
            | 'DISTRO_UBUNTU_22_04'
            | 'DISTRO_UBUNTU_24_04'
            | 'DISTRO_UBUNTU_26_04'
            | 'DISTRO_FEDORA_43'
            | 'DISTRO_FEDORA_44'
            | 'DISTRO_DEBIAN_12'
            | 'DISTRO_DEBIAN_13'
            | 'DISTRO_CENTOS_9'
            | 'DISTRO_CENTOS_10'
            | 'DISTRO_ROCKY_9'
            | 'DISTRO_ROCKY_10'
            | 'DISTRO_ALMALINUX_9'
            | 'DISTRO_ALMALINUX_10';
          readonly nodeId?: string;
          readonly page?: number;
          readonly pageSize?: number;
          readonly platformId?: string;
          /** @description A piece of the template's or its node's name. */
          readonly search?: string;
        };
        readonly header?: never;
        readonly path?: never;
        readonly cookie?: never;
      };
      readonly requestBody?: never;
      readonly responses: {
        /** @description Default Response */
        readonly '4XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly '5XX': {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': components['schemas']['Status'];
          };
        };
        /** @description Default Response */
        readonly 200: {
          headers: {
            readonly [name: string]: unknown;
          };
          content: {
            readonly 'application/json': {
              readonly totalCount: number;
              readonly totalPages: number;
              readonly vmTemplates: readonly components['schemas']['VMTemplate'][];
            };
          };
        };
      };
    };
    readonly put?: never;
    readonly post?: never;
    readonly delete?: never;
    readonly options?: never;
    readonly head?: never;
    readonly patch?: never;
    readonly trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    readonly Addon: {
      /** @enum {string} */
      readonly addonType: 'ADDON_TYPE_BACKUP' | 'ADDON_TYPE_SNAPSHOT' | 'ADDON_TYPE_ADDITIONAL_IP';
      readonly autoAttach: boolean;
      readonly backupPolicy: {
        readonly retention: number;
        readonly schedule: string;
      } | null;
      readonly code: string;
      readonly compatiblePlanIds: readonly string[];
      readonly createTime: string;
      readonly id: string;
      readonly isPublic: boolean;
      readonly name: string;
      readonly organizationId: string;
      readonly pricing:
        | {
            readonly currency: string;
            /** @constant */
            readonly kind: 'fixed';
            readonly unitAmount: string;
          }
        | {
            readonly currency: string;
            /** @constant */
            readonly kind: 'percentage';
            readonly percentageValue: number;
            readonly zeroBaseFallbackAmount: string;
          };
      /** @enum {string} */
      readonly status: 'STATUS_ACTIVE' | 'STATUS_SOFT_DELETED';
      readonly updateTime: string;
    };
    readonly AddonInput: {
      /** @enum {string} */
      readonly addonType: 'ADDON_TYPE_BACKUP' | 'ADDON_TYPE_SNAPSHOT' | 'ADDON_TYPE_ADDITIONAL_IP';
      readonly autoAttach: boolean;
      readonly backupPolicy: {
        readonly retention: number;
        readonly schedule: string;
      } | null;
      readonly code: string;
      readonly compatiblePlanIds: readonly string[];
      readonly createTime: string;
      readonly id: string;
      readonly isPublic: boolean;
      readonly name: string;
      readonly organizationId: string;
      readonly pricing:
        | {
            readonly currency: string;
            /** @constant */
            readonly kind: 'fixed';
            readonly unitAmount: string;
          }
        | {
            readonly currency: string;
            /** @constant */
            readonly kind: 'percentage';
            readonly percentageValue: number;
            readonly zeroBaseFallbackAmount: string;
          };
      /** @enum {string} */
      readonly status: 'STATUS_ACTIVE' | 'STATUS_SOFT_DELETED';
      readonly updateTime: string;
    };
    readonly AddonPricing:
      | {
          /** @description ISO 4217, like EUR. */
          readonly currency: string;
          /** @constant */
          readonly kind: 'fixed';
          /** @description Per month (730 hours); other periods are charged pro rata by the hour. */
          readonly unitAmount: string;
        }
      | {
          /** @description ISO 4217, like EUR. */
          readonly currency: string;
          /** @constant */
          readonly kind: 'percentage';
          /** @description Of the plan's charge for the period. */
          readonly percentageValue: number;
          /** @description Per month, charged instead when the plan itself costs nothing. */
          readonly zeroBaseFallbackAmount: string;
        };
    readonly AddonPricingInput:
      | {
          /** @description ISO 4217, like EUR. */
          readonly currency: string;
          /** @constant */
          readonly kind: 'fixed';
          /** @description Per month (730 hours); other periods are charged pro rata by the hour. */
          readonly unitAmount: string;
        }
      | {
          /** @description ISO 4217, like EUR. */
          readonly currency: string;
          /** @constant */
          readonly kind: 'percentage';
          /** @description Of the plan's charge for the period. */
          readonly percentageValue: number;
          /** @description Per month, charged instead when the plan itself costs nothing. */
          readonly zeroBaseFallbackAmount: string;
        };
    readonly Agent: {
      readonly agentPublicIp: string;
      /** @description Whether the last check (at most 30 s old) reached the cluster; null before peering. */
      readonly clusterReachable: boolean | null;
      readonly createTime: string;
      readonly description: string;
      /** @enum {string} */
      readonly gatewayRegion: 'AGENT_GATEWAY_REGION_AMS01';
      readonly gwServerServicePort: number;
      /** @enum {string} */
      readonly hypervisorDriver: 'HYPERVISOR_DRIVER_PROXMOX';
      readonly id: string;
      readonly inboundPeeringError: string;
      /** @enum {string} */
      readonly inboundPeeringState:
        | 'INBOUND_PEERING_STATE_PENDING'
        | 'INBOUND_PEERING_STATE_PEERING'
        | 'INBOUND_PEERING_STATE_READY'
        | 'INBOUND_PEERING_STATE_FAILED';
      /** @description When the newest metrics sample of the agent's platforms was taken. */
      readonly metricsReceiveTime: string | null;
      readonly name: string;
      readonly organizationId: string;
      readonly provisioned: boolean;
      /**
       * @description Derived when read: ONLINE when this control plane reaches the agent cluster and its metrics arrived within 10 minutes.
       * @enum {string}
       */
      readonly serviceStatus:
        'SERVICE_STATUS_ONLINE' | 'SERVICE_STATUS_OFFLINE' | 'SERVICE_STATUS_MAINTENANCE';
      /** @description Why, in words: "cluster reachable, metrics received 20 s ago", "no metrics for 12 min". */
      readonly serviceStatusReason: string;
      readonly updateTime: string;
    };
    readonly AgentInput: {
      readonly agentPublicIp: string;
      /** @description Whether the last check (at most 30 s old) reached the cluster; null before peering. */
      readonly clusterReachable: boolean | null;
      readonly createTime: string;
      readonly description: string;
      /** @enum {string} */
      readonly gatewayRegion: 'AGENT_GATEWAY_REGION_AMS01';
      readonly gwServerServicePort: number;
      /** @enum {string} */
      readonly hypervisorDriver: 'HYPERVISOR_DRIVER_PROXMOX';
      readonly id: string;
      readonly inboundPeeringError: string;
      /** @enum {string} */
      readonly inboundPeeringState:
        | 'INBOUND_PEERING_STATE_PENDING'
        | 'INBOUND_PEERING_STATE_PEERING'
        | 'INBOUND_PEERING_STATE_READY'
        | 'INBOUND_PEERING_STATE_FAILED';
      /** @description When the newest metrics sample of the agent's platforms was taken. */
      readonly metricsReceiveTime: string | null;
      readonly name: string;
      readonly organizationId: string;
      readonly provisioned: boolean;
      /**
       * @description Derived when read: ONLINE when this control plane reaches the agent cluster and its metrics arrived within 10 minutes.
       * @enum {string}
       */
      readonly serviceStatus:
        'SERVICE_STATUS_ONLINE' | 'SERVICE_STATUS_OFFLINE' | 'SERVICE_STATUS_MAINTENANCE';
      /** @description Why, in words: "cluster reachable, metrics received 20 s ago", "no metrics for 12 min". */
      readonly serviceStatusReason: string;
      readonly updateTime: string;
    };
    readonly AuditEvent: {
      readonly action: string;
      readonly actorId: string | null;
      readonly actorKind: string;
      /** @description Set when the actor belongs to another organization: it named one of this organization's objects. */
      readonly actorOrganizationId: string | null;
      readonly createTime: string;
      readonly id: string;
      readonly ip: string;
      readonly organizationId: string | null;
      readonly requestId: string;
      readonly route: string | null;
      readonly statusCode: number;
      readonly targetId: string | null;
      readonly targetType: string | null;
    };
    readonly AuditEventInput: {
      readonly action: string;
      readonly actorId: string | null;
      readonly actorKind: string;
      /** @description Set when the actor belongs to another organization: it named one of this organization's objects. */
      readonly actorOrganizationId: string | null;
      readonly createTime: string;
      readonly id: string;
      readonly ip: string;
      readonly organizationId: string | null;
      readonly requestId: string;
      readonly route: string | null;
      readonly statusCode: number;
      readonly targetId: string | null;
      readonly targetType: string | null;
    };
    readonly Backup: {
      /** @description The backup addon whose schedule made it. */
      readonly addonId: string | null;
      readonly backupId: string;
      /** @enum {string} */
      readonly backupStatus:
        'BACKUP_STATUS_ACTIVE' | 'BACKUP_STATUS_DELETED' | 'BACKUP_STATUS_EXPIRED' | 'BACKUP_STATUS_UNKNOWN';
      /** Format: date-time */
      readonly createdAt: string;
      readonly id: string;
      /** @description The backup's name in the provider's cluster (the VM and the UTC slot). */
      readonly name: string;
      /** @enum {string} */
      readonly operationStatus:
        | 'BACKUP_OPERATION_STATUS_PENDING'
        | 'BACKUP_OPERATION_STATUS_PROCESSING'
        | 'BACKUP_OPERATION_STATUS_COMPLETED'
        | 'BACKUP_OPERATION_STATUS_FAILED';
      readonly restoredAt: string | null;
      /** @enum {string} */
      readonly restoreStatus:
        | 'RESTORE_STATUS_NONE'
        | 'RESTORE_STATUS_REQUESTED'
        | 'RESTORE_STATUS_RESTORING'
        | 'RESTORE_STATUS_COMPLETED'
        | 'RESTORE_STATUS_FAILED';
      readonly sizeBytes: number;
      /** @description Why it waits or failed, in the agent's or Proxmox's own words. */
      readonly statusMessage: string;
      readonly virtualMachineId: string;
    };
    readonly BackupInput: {
      /** @description The backup addon whose schedule made it. */
      readonly addonId: string | null;
      readonly backupId: string;
      /** @enum {string} */
      readonly backupStatus:
        'BACKUP_STATUS_ACTIVE' | 'BACKUP_STATUS_DELETED' | 'BACKUP_STATUS_EXPIRED' | 'BACKUP_STATUS_UNKNOWN';
      /** Format: date-time */
      readonly createdAt: string;
      readonly id: string;
      /** @description The backup's name in the provider's cluster (the VM and the UTC slot). */
      readonly name: string;
      /** @enum {string} */
      readonly operationStatus:
        | 'BACKUP_OPERATION_STATUS_PENDING'
        | 'BACKUP_OPERATION_STATUS_PROCESSING'
        | 'BACKUP_OPERATION_STATUS_COMPLETED'
        | 'BACKUP_OPERATION_STATUS_FAILED';
      readonly restoredAt: string | null;
      /** @enum {string} */
      readonly restoreStatus:
        | 'RESTORE_STATUS_NONE'
        | 'RESTORE_STATUS_REQUESTED'
        | 'RESTORE_STATUS_RESTORING'
        | 'RESTORE_STATUS_COMPLETED'
        | 'RESTORE_STATUS_FAILED';
      readonly sizeBytes: number;
      /** @description Why it waits or failed, in the agent's or Proxmox's own words. */
      readonly statusMessage: string;
      readonly virtualMachineId: string;
    };
    readonly BackupPolicy: {
      /** @description How many days a backup is kept. */
      readonly retention: number;
      /** @description Five-field cron (minute hour day-of-month month day-of-week), like "0 3 * * *". */
      readonly schedule: string;
    };
    readonly BackupPolicyInput: {
      /** @description How many days a backup is kept. */
      readonly retention: number;
      /** @description Five-field cron (minute hour day-of-month month day-of-week), like "0 3 * * *". */
      readonly schedule: string;
    };
    readonly CloudInitTemplate: {
      readonly createTime: string | null;
      readonly id: string;
      /** @description A seed template of the platform: it can only be copied. */
      readonly isTemplate: boolean;
      readonly name: string;
      readonly networkData: string;
      /** @description Null for the platform’s seed templates. */
      readonly organizationId: string | null;
      readonly storage: string;
      readonly updateTime: string | null;
      readonly userData: string;
      readonly vendorData: string;
    };
    readonly CloudInitTemplateInput: {
      readonly createTime: string | null;
      readonly id: string;
      /** @description A seed template of the platform: it can only be copied. */
      readonly isTemplate: boolean;
      readonly name: string;
      readonly networkData: string;
      /** @description Null for the platform’s seed templates. */
      readonly organizationId: string | null;
      readonly storage: string;
      readonly updateTime: string | null;
      readonly userData: string;
      readonly vendorData: string;
    };
    readonly CloudInitUserData: {
      readonly createTime: string;
      readonly description: string;
      readonly id: string;
      readonly name: string;
      readonly organizationId: string;
      readonly updateTime: string;
      readonly userData: string;
      /** @description Non-blocking: what cloud-init would likely not do as meant (no #cloud-config, unknown keys). */
      readonly validationWarnings: readonly components['schemas']['CloudInitWarning'][];
    };
    readonly CloudInitUserDataInput: {
      readonly createTime: string;
      readonly description: string;
      readonly id: string;
      readonly name: string;
      readonly organizationId: string;
      readonly updateTime: string;
      readonly userData: string;
      /** @description Non-blocking: what cloud-init would likely not do as meant (no #cloud-config, unknown keys). */
      readonly validationWarnings: readonly components['schemas']['CloudInitWarningInput'][];
    };
    readonly CloudInitWarning: {
      readonly code: string;
      readonly key: string;
      readonly line: number;
      readonly message: string;
    };
    readonly CloudInitWarningInput: {
      readonly code: string;
      readonly key: string;
      readonly line: number;
      readonly message: string;
    };
    readonly EnvironmentVariable: {
      readonly createTime: string;
      readonly id: string;
      readonly key: string;
      readonly organizationId: string;
      readonly updateTime: string;
      readonly value: string;
    };
    readonly EnvironmentVariableInput: {
      readonly createTime: string;
      readonly id: string;
      readonly key: string;
      readonly organizationId: string;
      readonly updateTime: string;
      readonly value: string;
    };
    readonly FirewallAddressGroup: {
      readonly id: string;
      readonly name: string;
      /** @description CIDR prefixes in their canonical spelling. */
      readonly prefixes: readonly string[];
    };
    readonly FirewallAddressGroupInput: {
      readonly id: string;
      readonly name: string;
      /** @description CIDR prefixes in their canonical spelling. */
      readonly prefixes: readonly string[];
    };
    readonly FirewallRule: {
      readonly id: string;
      /** @description From 0 within the rule’s direction; lower is matched first. */
      readonly position: number;
      readonly rule: components['schemas']['FirewallRuleSpec'];
      readonly rulesetId: string;
    };
    readonly FirewallRuleInput: {
      readonly id: string;
      /** @description From 0 within the rule’s direction; lower is matched first. */
      readonly position: number;
      readonly rule: components['schemas']['FirewallRuleSpecInput'];
      readonly rulesetId: string;
    };
    readonly FirewallRuleSet: {
      readonly attachedVmCount: number;
      readonly attachedVmHostnames: readonly string[];
      /** @description The attached VMs, in the order of attachedVmHostnames. */
      readonly attachedVmIds: readonly string[];
      readonly id: string;
      readonly name: string;
      readonly ruleCount: number;
    };
    readonly FirewallRuleSetInput: {
      readonly attachedVmCount: number;
      readonly attachedVmHostnames: readonly string[];
      /** @description The attached VMs, in the order of attachedVmHostnames. */
      readonly attachedVmIds: readonly string[];
      readonly id: string;
      readonly name: string;
      readonly ruleCount: number;
    };
    readonly FirewallRuleSpec: {
      /** @enum {string} */
      readonly action: 'FIREWALL_ACTION_ACCEPT' | 'FIREWALL_ACTION_DROP';
      readonly destination?: {
        readonly addressGroupIds: readonly string[];
        readonly ips: readonly string[];
        readonly vmTags: readonly string[];
      };
      readonly destinationPorts?: string;
      /** @enum {string} */
      readonly direction: 'FIREWALL_DIRECTION_INGRESS' | 'FIREWALL_DIRECTION_EGRESS';
      /** @enum {string} */
      readonly protocol:
        | 'FIREWALL_PROTOCOL_ANY'
        | 'FIREWALL_PROTOCOL_TCP'
        | 'FIREWALL_PROTOCOL_UDP'
        | 'FIREWALL_PROTOCOL_SCTP'
        | 'FIREWALL_PROTOCOL_IPV6'
        | 'FIREWALL_PROTOCOL_ICMP'
        | 'FIREWALL_PROTOCOL_ICMPV6'
        | 'FIREWALL_PROTOCOL_ESP'
        | 'FIREWALL_PROTOCOL_AH'
        | 'FIREWALL_PROTOCOL_IPSEC'
        | 'FIREWALL_PROTOCOL_GRE'
        | 'FIREWALL_PROTOCOL_IPIP'
        | 'FIREWALL_PROTOCOL_VXLAN'
        | 'FIREWALL_PROTOCOL_L2TP'
        | 'FIREWALL_PROTOCOL_GENEVE'
        | 'FIREWALL_PROTOCOL_IGMP'
        | 'FIREWALL_PROTOCOL_GGP'
        | 'FIREWALL_PROTOCOL_IPENCAP'
        | 'FIREWALL_PROTOCOL_ST'
        | 'FIREWALL_PROTOCOL_EGP'
        | 'FIREWALL_PROTOCOL_IGP'
        | 'FIREWALL_PROTOCOL_PUP'
        | 'FIREWALL_PROTOCOL_HMP'
        | 'FIREWALL_PROTOCOL_XNS_IDP'
        | 'FIREWALL_PROTOCOL_RDP'
        | 'FIREWALL_PROTOCOL_ISO_TP4'
        | 'FIREWALL_PROTOCOL_DCCP'
        | 'FIREWALL_PROTOCOL_XTP'
        | 'FIREWALL_PROTOCOL_DDP'
        | 'FIREWALL_PROTOCOL_IDPR_CMTP'
        | 'FIREWALL_PROTOCOL_IPV6_ROUTE'
        | 'FIREWALL_PROTOCOL_IPV6_FRAG'
        | 'FIREWALL_PROTOCOL_IDRP'
        | 'FIREWALL_PROTOCOL_RSVP'
        | 'FIREWALL_PROTOCOL_SKIP'
        | 'FIREWALL_PROTOCOL_IPV6_ICMP'
        | 'FIREWALL_PROTOCOL_IPV6_NONXT'
        | 'FIREWALL_PROTOCOL_IPV6_OPTS'
        | 'FIREWALL_PROTOCOL_VMTP'
        | 'FIREWALL_PROTOCOL_EIGRP'
        | 'FIREWALL_PROTOCOL_OSPF'
        | 'FIREWALL_PROTOCOL_AX_25'
        | 'FIREWALL_PROTOCOL_ETHERIP'
        | 'FIREWALL_PROTOCOL_ENCAP'
        | 'FIREWALL_PROTOCOL_PIM'
        | 'FIREWALL_PROTOCOL_IPCOMP'
        | 'FIREWALL_PROTOCOL_VRRP'
        | 'FIREWALL_PROTOCOL_ISIS'
        | 'FIREWALL_PROTOCOL_FC'
        | 'FIREWALL_PROTOCOL_MOBILITY_HEADER'
        | 'FIREWALL_PROTOCOL_UDPLITE'
        | 'FIREWALL_PROTOCOL_MPLS_IN_IP'
        | 'FIREWALL_PROTOCOL_HIP'
        | 'FIREWALL_PROTOCOL_SHIM6'
        | 'FIREWALL_PROTOCOL_WESP'
        | 'FIREWALL_PROTOCOL_ROHC';
      readonly source?: {
        readonly addressGroupIds: readonly string[];
        readonly ips: readonly string[];
        readonly vmTags: readonly string[];
      };
      readonly sourcePorts?: string;
    };
    readonly FirewallRuleSpecInput: {
      /** @enum {string} */
      readonly action: 'FIREWALL_ACTION_ACCEPT' | 'FIREWALL_ACTION_DROP';
      readonly destination?: {
        readonly addressGroupIds: readonly string[];
        readonly ips: readonly string[];
        readonly vmTags: readonly string[];
      };
      readonly destinationPorts?: string;
      /** @enum {string} */
      readonly direction: 'FIREWALL_DIRECTION_INGRESS' | 'FIREWALL_DIRECTION_EGRESS';
      /** @enum {string} */
      readonly protocol:
        | 'FIREWALL_PROTOCOL_ANY'
        | 'FIREWALL_PROTOCOL_TCP'
        | 'FIREWALL_PROTOCOL_UDP'
        | 'FIREWALL_PROTOCOL_SCTP'
        | 'FIREWALL_PROTOCOL_IPV6'
        | 'FIREWALL_PROTOCOL_ICMP'
        | 'FIREWALL_PROTOCOL_ICMPV6'
        | 'FIREWALL_PROTOCOL_ESP'
        | 'FIREWALL_PROTOCOL_AH'
        | 'FIREWALL_PROTOCOL_IPSEC'
        | 'FIREWALL_PROTOCOL_GRE'
        | 'FIREWALL_PROTOCOL_IPIP'
        | 'FIREWALL_PROTOCOL_VXLAN'
        | 'FIREWALL_PROTOCOL_L2TP'
        | 'FIREWALL_PROTOCOL_GENEVE'
        | 'FIREWALL_PROTOCOL_IGMP'
        | 'FIREWALL_PROTOCOL_GGP'
        | 'FIREWALL_PROTOCOL_IPENCAP'
        | 'FIREWALL_PROTOCOL_ST'
        | 'FIREWALL_PROTOCOL_EGP'
        | 'FIREWALL_PROTOCOL_IGP'
        | 'FIREWALL_PROTOCOL_PUP'
        | 'FIREWALL_PROTOCOL_HMP'
        | 'FIREWALL_PROTOCOL_XNS_IDP'
        | 'FIREWALL_PROTOCOL_RDP'
        | 'FIREWALL_PROTOCOL_ISO_TP4'
        | 'FIREWALL_PROTOCOL_DCCP'
        | 'FIREWALL_PROTOCOL_XTP'
        | 'FIREWALL_PROTOCOL_DDP'
        | 'FIREWALL_PROTOCOL_IDPR_CMTP'
        | 'FIREWALL_PROTOCOL_IPV6_ROUTE'
        | 'FIREWALL_PROTOCOL_IPV6_FRAG'
        | 'FIREWALL_PROTOCOL_IDRP'
        | 'FIREWALL_PROTOCOL_RSVP'
        | 'FIREWALL_PROTOCOL_SKIP'
        | 'FIREWALL_PROTOCOL_IPV6_ICMP'
        | 'FIREWALL_PROTOCOL_IPV6_NONXT'
        | 'FIREWALL_PROTOCOL_IPV6_OPTS'
        | 'FIREWALL_PROTOCOL_VMTP'
        | 'FIREWALL_PROTOCOL_EIGRP'
        | 'FIREWALL_PROTOCOL_OSPF'
        | 'FIREWALL_PROTOCOL_AX_25'
        | 'FIREWALL_PROTOCOL_ETHERIP'
        | 'FIREWALL_PROTOCOL_ENCAP'
        | 'FIREWALL_PROTOCOL_PIM'
        | 'FIREWALL_PROTOCOL_IPCOMP'
        | 'FIREWALL_PROTOCOL_VRRP'
        | 'FIREWALL_PROTOCOL_ISIS'
        | 'FIREWALL_PROTOCOL_FC'
        | 'FIREWALL_PROTOCOL_MOBILITY_HEADER'
        | 'FIREWALL_PROTOCOL_UDPLITE'
        | 'FIREWALL_PROTOCOL_MPLS_IN_IP'
        | 'FIREWALL_PROTOCOL_HIP'
        | 'FIREWALL_PROTOCOL_SHIM6'
        | 'FIREWALL_PROTOCOL_WESP'
        | 'FIREWALL_PROTOCOL_ROHC';
      readonly source?: {
        readonly addressGroupIds: readonly string[];
        readonly ips: readonly string[];
        readonly vmTags: readonly string[];
      };
      readonly sourcePorts?: string;
    };
    readonly FleetAgent: {
      /** @enum {string} */
      readonly agentType: 'host' | 'k8s-node-monitor' | 'collector';
      /** @description The newest heartbeat's collector statuses. */
      readonly collectors: readonly {
        readonly details?: {
          readonly [key: string]: string;
        };
        /** @enum {string} */
        readonly kind: 'core' | 'integration';
        /** Format: date-time */
        readonly lastSuccessAt?: string;
        readonly message?: string;
        readonly name: string;
        /** @enum {string} */
        readonly status: 'ok' | 'degraded' | 'failing' | 'disabled';
        readonly target?: string;
      }[];
      /** Format: date-time */
      readonly enrolledAt: string;
      readonly environmentId: string;
      readonly heartbeatIntervalSeconds: number;
      readonly hostname: string;
      readonly id: string;
      readonly lastSeenAt: string | null;
      readonly name: string;
      /** @description The nkey its messages are published under (fleet.<publicKey>.…). */
      readonly publicKey: string;
      readonly reboundAt: string | null;
      readonly releasedAt: string | null;
      /**
       * @description online: heard from within three heartbeat intervals.
       * @enum {string}
       */
      readonly status: 'online' | 'stale' | 'never_seen' | 'released';
      readonly version: string;
    };
    readonly FleetAgentInput: {
      /** @enum {string} */
      readonly agentType: 'host' | 'k8s-node-monitor' | 'collector';
      /** @description The newest heartbeat's collector statuses. */
      readonly collectors: readonly {
        readonly details?: {
          readonly [key: string]: string;
        };
        /** @enum {string} */
        readonly kind: 'core' | 'integration';
        /** Format: date-time */
        readonly lastSuccessAt?: string;
        readonly message?: string;
        readonly name: string;
        /** @enum {string} */
        readonly status: 'ok' | 'degraded' | 'failing' | 'disabled';
        readonly target?: string;
      }[];
      /** Format: date-time */
      readonly enrolledAt: string;
      readonly environmentId: string;
      readonly heartbeatIntervalSeconds: number;
      readonly hostname: string;
      readonly id: string;
      readonly lastSeenAt: string | null;
      readonly name: string;
      /** @description The nkey its messages are published under (fleet.<publicKey>.…). */
      readonly publicKey: string;
      readonly reboundAt: string | null;
      readonly releasedAt: string | null;
      /**
       * @description online: heard from within three heartbeat intervals.
       * @enum {string}
       */
      readonly status: 'online' | 'stale' | 'never_seen' | 'released';
      readonly version: string;
    };
    readonly FleetAsset: {
      readonly agentId: string | null;
      readonly assetType: string;
      readonly details: {
        readonly [key: string]: string;
      };
      readonly environmentId: string;
      /** Format: date-time */
      readonly firstSeenAt: string;
      readonly hostName: string;
      readonly id: string;
      readonly integration: string;
      /** Format: date-time */
      readonly lastSeenAt: string;
      readonly status: string;
      readonly target: string;
    };
    readonly FleetAssetInput: {
      readonly agentId: string | null;
      readonly assetType: string;
      readonly details: {
        readonly [key: string]: string;
      };
      readonly environmentId: string;
      /** Format: date-time */
      readonly firstSeenAt: string;
      readonly hostName: string;
      readonly id: string;
      readonly integration: string;
      /** Format: date-time */
      readonly lastSeenAt: string;
      readonly status: string;
      readonly target: string;
    };
    readonly FleetCluster: {
      /** Format: date-time */
      readonly createdAt: string;
      readonly environmentId: string;
      readonly id: string;
      readonly name: string;
    };
    readonly FleetClusterInput: {
      /** Format: date-time */
      readonly createdAt: string;
      readonly environmentId: string;
      readonly id: string;
      readonly name: string;
    };
    readonly FleetEnrollment: {
      readonly agentId: string;
      /** @enum {string} */
      readonly agentType: 'host' | 'k8s-node-monitor' | 'collector';
      readonly environmentId: string;
      readonly heartbeatIntervalSeconds: number;
      readonly name: string;
      readonly nats: {
        /** Format: date-time */
        readonly expiresAt: string;
        readonly inboxPrefix: string;
        /** @description A NATS user JWT for the fleet agent's key: publish under fleet.<key>.> only. */
        readonly jwt: string;
        readonly servers: readonly string[];
      };
      /** @description This enrollment took over a quiet record of the same name on the same host. */
      readonly rebound: boolean;
    };
    readonly FleetEnrollmentInput: {
      readonly agentId: string;
      /** @enum {string} */
      readonly agentType: 'host' | 'k8s-node-monitor' | 'collector';
      readonly environmentId: string;
      readonly heartbeatIntervalSeconds: number;
      readonly name: string;
      readonly nats: {
        /** Format: date-time */
        readonly expiresAt: string;
        readonly inboxPrefix: string;
        /** @description A NATS user JWT for the fleet agent's key: publish under fleet.<key>.> only. */
        readonly jwt: string;
        readonly servers: readonly string[];
      };
      /** @description This enrollment took over a quiet record of the same name on the same host. */
      readonly rebound: boolean;
    };
    readonly FleetEnvironment: {
      /** Format: date-time */
      readonly createdAt: string;
      readonly id: string;
      readonly name: string;
    };
    readonly FleetEnvironmentInput: {
      /** Format: date-time */
      readonly createdAt: string;
      readonly id: string;
      readonly name: string;
    };
    readonly FleetIdentityError: {
      readonly code: string;
      readonly details: readonly unknown[];
      readonly error: {
        /** @enum {string} */
        readonly code: 'identity_in_use' | 'public_key_in_use' | 'identity_released' | 'identity_rebound';
        readonly message: string;
      };
      readonly message: string;
    };
    readonly FleetIdentityErrorInput: {
      readonly code: string;
      readonly details: readonly unknown[];
      readonly error: {
        /** @enum {string} */
        readonly code: 'identity_in_use' | 'public_key_in_use' | 'identity_released' | 'identity_rebound';
        readonly message: string;
      };
      readonly message: string;
    };
    readonly FleetInstallToken: {
      /** Format: date-time */
      readonly createdAt: string;
      readonly description: string;
      readonly environmentId: string;
      /** Format: date-time */
      readonly expiresAt: string;
      readonly id: string;
      readonly lastUsedAt: string | null;
      readonly revoked: boolean;
    };
    readonly FleetInstallTokenInput: {
      /** Format: date-time */
      readonly createdAt: string;
      readonly description: string;
      readonly environmentId: string;
      /** Format: date-time */
      readonly expiresAt: string;
      readonly id: string;
      readonly lastUsedAt: string | null;
      readonly revoked: boolean;
    };
    readonly FleetSeries: {
      readonly id: string;
      readonly labels: {
        readonly [key: string]: string;
      };
      readonly latestAt: string | null;
      readonly latestValue: (number | ('NaN' | '+Inf' | '-Inf')) | null;
      readonly name: string;
    };
    readonly FleetSeriesInput: {
      readonly id: string;
      readonly labels: {
        readonly [key: string]: string;
      };
      readonly latestAt: string | null;
      readonly latestValue: (number | ('NaN' | '+Inf' | '-Inf')) | null;
      readonly name: string;
    };
    readonly Invitation: {
      readonly createTime: string;
      readonly email: string;
      readonly expireTime: string;
      readonly id: string;
      readonly invitedByEmail: string | null;
      readonly organizationId: string;
      /** @enum {string} */
      readonly role: 'MEMBER_ROLE_OWNER' | 'MEMBER_ROLE_ADMIN' | 'MEMBER_ROLE_MEMBER';
      /** @enum {string} */
      readonly state:
        | 'INVITATION_STATE_PENDING'
        | 'INVITATION_STATE_ACCEPTED'
        | 'INVITATION_STATE_DECLINED'
        | 'INVITATION_STATE_REVOKED'
        | 'INVITATION_STATE_EXPIRED';
    };
    readonly InvitationInput: {
      readonly createTime: string;
      readonly email: string;
      readonly expireTime: string;
      readonly id: string;
      readonly invitedByEmail: string | null;
      readonly organizationId: string;
      /** @enum {string} */
      readonly role: 'MEMBER_ROLE_OWNER' | 'MEMBER_ROLE_ADMIN' | 'MEMBER_ROLE_MEMBER';
      /** @enum {string} */
      readonly state:
        | 'INVITATION_STATE_PENDING'
        | 'INVITATION_STATE_ACCEPTED'
        | 'INVITATION_STATE_DECLINED'
        | 'INVITATION_STATE_REVOKED'
        | 'INVITATION_STATE_EXPIRED';
    };
    readonly IpAllocation: {
      /** @description What the VM is configured with, like 203.0.113.10/24 or 2001:db8:0:1::/64. */
      readonly allocatedCidr: string;
      /** @enum {string} */
      readonly allocationKind:
        'IP_ALLOCATION_KIND_IPV4_HOST' | 'IP_ALLOCATION_KIND_IPV6_HOST' | 'IP_ALLOCATION_KIND_IPV6_PREFIX';
      readonly createTime: string;
      readonly id: string;
      readonly ipAddress: string;
      readonly prefixId: string;
      readonly releaseTime: string | null;
      /** @enum {string} */
      readonly status: 'IP_ALLOCATION_STATUS_ACTIVE' | 'IP_ALLOCATION_STATUS_RELEASED';
      /** @description The VM (claim) holding the address. */
      readonly virtualMachineId: string | null;
    };
    readonly IpAllocationInput: {
      /** @description What the VM is configured with, like 203.0.113.10/24 or 2001:db8:0:1::/64. */
      readonly allocatedCidr: string;
      /** @enum {string} */
      readonly allocationKind:
        'IP_ALLOCATION_KIND_IPV4_HOST' | 'IP_ALLOCATION_KIND_IPV6_HOST' | 'IP_ALLOCATION_KIND_IPV6_PREFIX';
      readonly createTime: string;
      readonly id: string;
      readonly ipAddress: string;
      readonly prefixId: string;
      readonly releaseTime: string | null;
      /** @enum {string} */
      readonly status: 'IP_ALLOCATION_STATUS_ACTIVE' | 'IP_ALLOCATION_STATUS_RELEASED';
      /** @description The VM (claim) holding the address. */
      readonly virtualMachineId: string | null;
    };
    readonly IpamNetwork: {
      readonly createTime: string;
      readonly dnsServers: readonly string[];
      readonly id: string;
      readonly macAddressPrefix: string;
      readonly name: string;
      readonly nodes: readonly components['schemas']['IpamNetworkNode'][];
      readonly organizationId: string;
      readonly updateTime: string;
    };
    readonly IpamNetworkInput: {
      readonly createTime: string;
      readonly dnsServers: readonly string[];
      readonly id: string;
      readonly macAddressPrefix: string;
      readonly name: string;
      readonly nodes: readonly components['schemas']['IpamNetworkNodeInput'][];
      readonly organizationId: string;
      readonly updateTime: string;
    };
    readonly IpamNetworkNode: {
      readonly id: string;
      readonly name: string;
      readonly platformId: string;
      readonly regionId: string;
    };
    readonly IpamNetworkNodeInput: {
      readonly id: string;
      readonly name: string;
      readonly platformId: string;
      readonly regionId: string;
    };
    readonly IpamPrefix: {
      /** @enum {string} */
      readonly allocationStrategy:
        | 'ALLOCATION_STRATEGY_SEQUENTIAL'
        | 'ALLOCATION_STRATEGY_RANDOM'
        | 'ALLOCATION_STRATEGY_FIRST_AVAILABLE'
        | 'ALLOCATION_STRATEGY_LAST_AVAILABLE';
      readonly cidr: string;
      readonly createTime: string;
      readonly description: string;
      /** @enum {string} */
      readonly family: 'IP_FAMILY_IPV4' | 'IP_FAMILY_IPV6';
      readonly gateway: string;
      readonly id: string;
      readonly networkId: string | null;
      readonly organizationId: string;
      readonly reservedIps: readonly string[];
      readonly reservedPrefixes: readonly string[];
      readonly updateTime: string;
      readonly vmAssignmentPrefixLength: number;
    };
    readonly IpamPrefixInput: {
      /** @enum {string} */
      readonly allocationStrategy:
        | 'ALLOCATION_STRATEGY_SEQUENTIAL'
        | 'ALLOCATION_STRATEGY_RANDOM'
        | 'ALLOCATION_STRATEGY_FIRST_AVAILABLE'
        | 'ALLOCATION_STRATEGY_LAST_AVAILABLE';
      readonly cidr: string;
      readonly createTime: string;
      readonly description: string;
      /** @enum {string} */
      readonly family: 'IP_FAMILY_IPV4' | 'IP_FAMILY_IPV6';
      readonly gateway: string;
      readonly id: string;
      readonly networkId: string | null;
      readonly organizationId: string;
      readonly reservedIps: readonly string[];
      readonly reservedPrefixes: readonly string[];
      readonly updateTime: string;
      readonly vmAssignmentPrefixLength: number;
    };
    readonly IpamUtilization: {
      /** @description A decimal integer, as a string: it may exceed what a JSON number holds. */
      readonly allocatedCount: string;
      /** @description A decimal integer, as a string: it may exceed what a JSON number holds. */
      readonly availableCount: string;
      /** @description The capacity is too large to be worth showing as a number (beyond 2^53): show it as unlimited. */
      readonly capacityIsOpenEnded: boolean;
      /** @description What the counts count: "addresses", or "/64 prefixes" and the like. */
      readonly capacityUnitLabel: string;
      /** @description Reserved slots not allocated. */
      readonly reservedCount: string;
      /** @description Slots VMs could hold: hosts minus reserved slots minus the gateway’s. */
      readonly totalIps: string;
      /** @description Allocated of total, rounded down to hundredths. */
      readonly utilizationPercent: number;
    };
    readonly IpamUtilizationInput: {
      /** @description A decimal integer, as a string: it may exceed what a JSON number holds. */
      readonly allocatedCount: string;
      /** @description A decimal integer, as a string: it may exceed what a JSON number holds. */
      readonly availableCount: string;
      /** @description The capacity is too large to be worth showing as a number (beyond 2^53): show it as unlimited. */
      readonly capacityIsOpenEnded: boolean;
      /** @description What the counts count: "addresses", or "/64 prefixes" and the like. */
      readonly capacityUnitLabel: string;
      /** @description Reserved slots not allocated. */
      readonly reservedCount: string;
      /** @description Slots VMs could hold: hosts minus reserved slots minus the gateway’s. */
      readonly totalIps: string;
      /** @description Allocated of total, rounded down to hundredths. */
      readonly utilizationPercent: number;
    };
    readonly MarketplaceOffer: {
      /** @description GiB (1024³ bytes) per bandwidthPeriod; 0 is unlimited. */
      readonly bandwidthAllowanceGb: number;
      /** @enum {string} */
      readonly bandwidthPeriod:
        | 'BILLING_PERIOD_HOUR'
        | 'BILLING_PERIOD_DAY'
        | 'BILLING_PERIOD_WEEK'
        | 'BILLING_PERIOD_MONTH'
        | 'BILLING_PERIOD_QUARTER'
        | 'BILLING_PERIOD_YEAR';
      /** @enum {string} */
      readonly billingType: 'BILLING_TYPE_SUBSCRIPTION' | 'BILLING_TYPE_USAGE';
      /** @enum {string} */
      readonly computeCategory: 'COMPUTE_CATEGORY_SHARED_COMPUTE' | 'COMPUTE_CATEGORY_DEDICATED_COMPUTE';
      /** @enum {string} */
      readonly computeType:
        | 'COMPUTE_TYPE_GENERAL_COMPUTE'
        | 'COMPUTE_TYPE_HIGH_FREQUENCY'
        | 'COMPUTE_TYPE_HIGH_PERFORMANCE'
        | 'COMPUTE_TYPE_GENERAL_PURPOSE'
        | 'COMPUTE_TYPE_CPU_OPTIMIZED'
        | 'COMPUTE_TYPE_MEMORY_OPTIMIZED'
        | 'COMPUTE_TYPE_STORAGE_OPTIMIZED'
        | 'COMPUTE_TYPE_VERY_HIGH_FREQUENCY'
        | 'COMPUTE_TYPE_GAME_SERVER';
      /** @description GiB. */
      readonly diskGb: number;
      /** @description The distros an order in this region may choose. */
      readonly distros: readonly string[];
      readonly hasCapacity: boolean;
      readonly ipv6Available: boolean;
      readonly monthlyPrice: {
        readonly amount: string;
        readonly currency: string;
      };
      readonly networkRateLimitMbps: number;
      /** @description Every region the plan is offered in now, this one included: an order names one. */
      readonly offeredRegions: readonly {
        readonly regionCity: string;
        readonly regionCountry: string;
        readonly regionId: string;
      }[];
      readonly organizationId: string;
      readonly organizationName: string;
      readonly planCode: string;
      readonly planId: string;
      readonly planName: string;
      readonly planPrices: readonly {
        /** @enum {string} */
        readonly billingPeriod:
          | 'BILLING_PERIOD_HOUR'
          | 'BILLING_PERIOD_DAY'
          | 'BILLING_PERIOD_WEEK'
          | 'BILLING_PERIOD_MONTH'
          | 'BILLING_PERIOD_QUARTER'
          | 'BILLING_PERIOD_YEAR';
        readonly currency: string;
        readonly unitAmount: string;
      }[];
      /** @description GiB (1024³ bytes). */
      readonly ramGb: number;
      readonly regionCity: string;
      readonly regionCountry: string;
      readonly regionId: string;
      readonly setupFee: string;
      readonly trialDays: number;
      readonly unlimitedBandwidth: boolean;
      readonly vcpus: number;
    };
    readonly MarketplaceOfferInput: {
      /** @description GiB (1024³ bytes) per bandwidthPeriod; 0 is unlimited. */
      readonly bandwidthAllowanceGb: number;
      /** @enum {string} */
      readonly bandwidthPeriod:
        | 'BILLING_PERIOD_HOUR'
        | 'BILLING_PERIOD_DAY'
        | 'BILLING_PERIOD_WEEK'
        | 'BILLING_PERIOD_MONTH'
        | 'BILLING_PERIOD_QUARTER'
        | 'BILLING_PERIOD_YEAR';
      /** @enum {string} */
      readonly billingType: 'BILLING_TYPE_SUBSCRIPTION' | 'BILLING_TYPE_USAGE';
      /** @enum {string} */
      readonly computeCategory: 'COMPUTE_CATEGORY_SHARED_COMPUTE' | 'COMPUTE_CATEGORY_DEDICATED_COMPUTE';
      /** @enum {string} */
      readonly computeType:
        | 'COMPUTE_TYPE_GENERAL_COMPUTE'
        | 'COMPUTE_TYPE_HIGH_FREQUENCY'
        | 'COMPUTE_TYPE_HIGH_PERFORMANCE'
        | 'COMPUTE_TYPE_GENERAL_PURPOSE'
        | 'COMPUTE_TYPE_CPU_OPTIMIZED'
        | 'COMPUTE_TYPE_MEMORY_OPTIMIZED'
        | 'COMPUTE_TYPE_STORAGE_OPTIMIZED'
        | 'COMPUTE_TYPE_VERY_HIGH_FREQUENCY'
        | 'COMPUTE_TYPE_GAME_SERVER';
      /** @description GiB. */
      readonly diskGb: number;
      /** @description The distros an order in this region may choose. */
      readonly distros: readonly string[];
      readonly hasCapacity: boolean;
      readonly ipv6Available: boolean;
      readonly monthlyPrice: {
        readonly amount: string;
        readonly currency: string;
      };
      readonly networkRateLimitMbps: number;
      /** @description Every region the plan is offered in now, this one included: an order names one. */
      readonly offeredRegions: readonly {
        readonly regionCity: string;
        readonly regionCountry: string;
        readonly regionId: string;
      }[];
      readonly organizationId: string;
      readonly organizationName: string;
      readonly planCode: string;
      readonly planId: string;
      readonly planName: string;
      readonly planPrices: readonly {
        /** @enum {string} */
        readonly billingPeriod:
          | 'BILLING_PERIOD_HOUR'
          | 'BILLING_PERIOD_DAY'
          | 'BILLING_PERIOD_WEEK'
          | 'BILLING_PERIOD_MONTH'
          | 'BILLING_PERIOD_QUARTER'
          | 'BILLING_PERIOD_YEAR';
        readonly currency: string;
        readonly unitAmount: string;
      }[];
      /** @description GiB (1024³ bytes). */
      readonly ramGb: number;
      readonly regionCity: string;
      readonly regionCountry: string;
      readonly regionId: string;
      readonly setupFee: string;
      readonly trialDays: number;
      readonly unlimitedBandwidth: boolean;
      readonly vcpus: number;
    };
    readonly MarketplaceProviderInfo: {
      /** @description GiB (1024³ bytes) per bandwidthPeriod; 0 is unlimited. */
      readonly bandwidthAllowanceGb: number;
      /** @enum {string} */
      readonly bandwidthPeriod:
        | 'BILLING_PERIOD_HOUR'
        | 'BILLING_PERIOD_DAY'
        | 'BILLING_PERIOD_WEEK'
        | 'BILLING_PERIOD_MONTH'
        | 'BILLING_PERIOD_QUARTER'
        | 'BILLING_PERIOD_YEAR';
      /** @enum {string} */
      readonly billingType: 'BILLING_TYPE_SUBSCRIPTION' | 'BILLING_TYPE_USAGE';
      /** @description GiB. */
      readonly diskGb: number;
      /** @description A node of the offer can take one more VM now (the capacity rule a purchase applies). */
      readonly hasCapacityInFilteredRegion: boolean;
      readonly ipv6AvailableInFilteredRegion: boolean;
      readonly monthlyPrice: {
        readonly amount: string;
        readonly currency: string;
      };
      readonly networkRateLimitMbps: number;
      readonly organizationId: string;
      readonly organizationName: string;
      readonly planCode: string;
      readonly planId: string;
      readonly planName: string;
      readonly planPrices: readonly {
        /** @enum {string} */
        readonly billingPeriod:
          | 'BILLING_PERIOD_HOUR'
          | 'BILLING_PERIOD_DAY'
          | 'BILLING_PERIOD_WEEK'
          | 'BILLING_PERIOD_MONTH'
          | 'BILLING_PERIOD_QUARTER'
          | 'BILLING_PERIOD_YEAR';
        readonly currency: string;
        readonly unitAmount: string;
      }[];
      readonly planRegions: readonly {
        readonly city: string;
        readonly cityId: string;
        readonly country: string;
        readonly regionId: string;
      }[];
      /** @description GiB (1024³ bytes). */
      readonly ramGb: number;
      readonly setupFee: string;
      readonly trialDays: number;
      readonly unlimitedBandwidth: boolean;
      readonly vcpus: number;
    };
    readonly MarketplaceProviderInfoInput: {
      /** @description GiB (1024³ bytes) per bandwidthPeriod; 0 is unlimited. */
      readonly bandwidthAllowanceGb: number;
      /** @enum {string} */
      readonly bandwidthPeriod:
        | 'BILLING_PERIOD_HOUR'
        | 'BILLING_PERIOD_DAY'
        | 'BILLING_PERIOD_WEEK'
        | 'BILLING_PERIOD_MONTH'
        | 'BILLING_PERIOD_QUARTER'
        | 'BILLING_PERIOD_YEAR';
      /** @enum {string} */
      readonly billingType: 'BILLING_TYPE_SUBSCRIPTION' | 'BILLING_TYPE_USAGE';
      /** @description GiB. */
      readonly diskGb: number;
      /** @description A node of the offer can take one more VM now (the capacity rule a purchase applies). */
      readonly hasCapacityInFilteredRegion: boolean;
      readonly ipv6AvailableInFilteredRegion: boolean;
      readonly monthlyPrice: {
        readonly amount: string;
        readonly currency: string;
      };
      readonly networkRateLimitMbps: number;
      readonly organizationId: string;
      readonly organizationName: string;
      readonly planCode: string;
      readonly planId: string;
      readonly planName: string;
      readonly planPrices: readonly {
        /** @enum {string} */
        readonly billingPeriod:
          | 'BILLING_PERIOD_HOUR'
          | 'BILLING_PERIOD_DAY'
          | 'BILLING_PERIOD_WEEK'
          | 'BILLING_PERIOD_MONTH'
          | 'BILLING_PERIOD_QUARTER'
          | 'BILLING_PERIOD_YEAR';
        readonly currency: string;
        readonly unitAmount: string;
      }[];
      readonly planRegions: readonly {
        readonly city: string;
        readonly cityId: string;
        readonly country: string;
        readonly regionId: string;
      }[];
      /** @description GiB (1024³ bytes). */
      readonly ramGb: number;
      readonly setupFee: string;
      readonly trialDays: number;
      readonly unlimitedBandwidth: boolean;
      readonly vcpus: number;
    };
    readonly MarketplaceSku: {
      /** @enum {string} */
      readonly billingType: 'BILLING_TYPE_SUBSCRIPTION' | 'BILLING_TYPE_USAGE';
      /** @enum {string} */
      readonly computeCategory: 'COMPUTE_CATEGORY_SHARED_COMPUTE' | 'COMPUTE_CATEGORY_DEDICATED_COMPUTE';
      /** @enum {string} */
      readonly computeType:
        | 'COMPUTE_TYPE_GENERAL_COMPUTE'
        | 'COMPUTE_TYPE_HIGH_FREQUENCY'
        | 'COMPUTE_TYPE_HIGH_PERFORMANCE'
        | 'COMPUTE_TYPE_GENERAL_PURPOSE'
        | 'COMPUTE_TYPE_CPU_OPTIMIZED'
        | 'COMPUTE_TYPE_MEMORY_OPTIMIZED'
        | 'COMPUTE_TYPE_STORAGE_OPTIMIZED'
        | 'COMPUTE_TYPE_VERY_HIGH_FREQUENCY'
        | 'COMPUTE_TYPE_GAME_SERVER';
      /** @description GiB. */
      readonly diskGb: number;
      /** @description The cheapest offer per currency, per month. */
      readonly lowestMonthlyPrices: readonly {
        readonly amount: string;
        readonly currency: string;
      }[];
      /** @description Providers offering it where the filters look. */
      readonly offerCount: number;
      readonly planCode: string;
      /** @description GiB (1024³ bytes). */
      readonly ramGb: number;
      readonly vcpus: number;
    };
    readonly MarketplaceSkuInput: {
      /** @enum {string} */
      readonly billingType: 'BILLING_TYPE_SUBSCRIPTION' | 'BILLING_TYPE_USAGE';
      /** @enum {string} */
      readonly computeCategory: 'COMPUTE_CATEGORY_SHARED_COMPUTE' | 'COMPUTE_CATEGORY_DEDICATED_COMPUTE';
      /** @enum {string} */
      readonly computeType:
        | 'COMPUTE_TYPE_GENERAL_COMPUTE'
        | 'COMPUTE_TYPE_HIGH_FREQUENCY'
        | 'COMPUTE_TYPE_HIGH_PERFORMANCE'
        | 'COMPUTE_TYPE_GENERAL_PURPOSE'
        | 'COMPUTE_TYPE_CPU_OPTIMIZED'
        | 'COMPUTE_TYPE_MEMORY_OPTIMIZED'
        | 'COMPUTE_TYPE_STORAGE_OPTIMIZED'
        | 'COMPUTE_TYPE_VERY_HIGH_FREQUENCY'
        | 'COMPUTE_TYPE_GAME_SERVER';
      /** @description GiB. */
      readonly diskGb: number;
      /** @description The cheapest offer per currency, per month. */
      readonly lowestMonthlyPrices: readonly {
        readonly amount: string;
        readonly currency: string;
      }[];
      /** @description Providers offering it where the filters look. */
      readonly offerCount: number;
      readonly planCode: string;
      /** @description GiB (1024³ bytes). */
      readonly ramGb: number;
      readonly vcpus: number;
    };
    readonly Member: {
      readonly createTime: string;
      readonly email: string;
      /** @enum {string} */
      readonly role: 'MEMBER_ROLE_OWNER' | 'MEMBER_ROLE_ADMIN' | 'MEMBER_ROLE_MEMBER';
      readonly userId: string;
    };
    readonly MemberInput: {
      readonly createTime: string;
      readonly email: string;
      /** @enum {string} */
      readonly role: 'MEMBER_ROLE_OWNER' | 'MEMBER_ROLE_ADMIN' | 'MEMBER_ROLE_MEMBER';
      readonly userId: string;
    };
    readonly MetricsCredential: {
      readonly agentId: string;
      /** Format: date-time */
      readonly createTime: string;
      readonly id: string;
      readonly lastUsedAt: string | null;
      readonly name: string;
      /** @description Until when the token replaced by the last rotation is still accepted. */
      readonly previousTokenValidUntil: string | null;
      readonly revoked: boolean;
      readonly rotatedAt: string | null;
    };
    readonly MetricsCredentialInput: {
      readonly agentId: string;
      /** Format: date-time */
      readonly createTime: string;
      readonly id: string;
      readonly lastUsedAt: string | null;
      readonly name: string;
      /** @description Until when the token replaced by the last rotation is still accepted. */
      readonly previousTokenValidUntil: string | null;
      readonly revoked: boolean;
      readonly rotatedAt: string | null;
    };
    readonly Node: {
      /** @enum {string} */
      readonly backupStorageCompression:
        | 'BACKUP_STORAGE_COMPRESSION_NONE'
        | 'BACKUP_STORAGE_COMPRESSION_LZO'
        | 'BACKUP_STORAGE_COMPRESSION_GZIP'
        | 'BACKUP_STORAGE_COMPRESSION_ZSTD';
      readonly backupStorageDestination: string;
      /** @enum {string} */
      readonly computeType: 'NODE_COMPUTE_TYPE_SHARED' | 'NODE_COMPUTE_TYPE_DEDICATED';
      readonly cpuOverallocatePercent: number;
      readonly createTime: string;
      readonly id: string;
      /** @description Synced from the hypervisor; zeros until the first sync. Read-only. */
      readonly inventory: {
        readonly cpuCores: number;
        readonly cpuCoresAllocated: number;
        readonly memoryAllocatedBytes: number;
        readonly memoryBytes: number;
        /** @description vCPUs of guests NodeRings did not create (templates excluded). */
        readonly nonNrCpuCores: number;
        /** @description Disk size of guests NodeRings did not create (templates included). */
        readonly nonNrDiskBytes: number;
        readonly nonNrMemoryBytes: number;
        readonly storagePools: readonly {
          readonly allocatedBytes: number;
          readonly storageId: string;
          readonly totalBytes: number;
        }[];
        /** @description When the metrics last reported on the node. */
        readonly syncedAt: string | null;
      };
      readonly macAddressPrefix: string;
      readonly maintenanceMode: boolean;
      readonly memoryOverallocatePercent: number;
      readonly name: string;
      readonly networkBridge: string;
      readonly networkModel: string;
      readonly networkName: string;
      readonly networkVlanId: number;
      readonly organizationId: string;
      readonly platformId: string;
      readonly proxmoxCpuType: string;
      readonly regionId: string;
      /** @enum {string} */
      readonly serviceStatus:
        'SERVICE_STATUS_ONLINE' | 'SERVICE_STATUS_OFFLINE' | 'SERVICE_STATUS_MAINTENANCE';
      readonly storageOverallocatePercent: number;
      readonly updateTime: string;
      readonly vmidSeed: number;
      readonly vmStorageDestination: string;
    };
    readonly NodeInput: {
      /** @enum {string} */
      readonly backupStorageCompression:
        | 'BACKUP_STORAGE_COMPRESSION_NONE'
        | 'BACKUP_STORAGE_COMPRESSION_LZO'
        | 'BACKUP_STORAGE_COMPRESSION_GZIP'
        | 'BACKUP_STORAGE_COMPRESSION_ZSTD';
      readonly backupStorageDestination: string;
      /** @enum {string} */
      readonly computeType: 'NODE_COMPUTE_TYPE_SHARED' | 'NODE_COMPUTE_TYPE_DEDICATED';
      readonly cpuOverallocatePercent: number;
      readonly createTime: string;
      readonly id: string;
      /** @description Synced from the hypervisor; zeros until the first sync. Read-only. */
      readonly inventory: {
        readonly cpuCores: number;
        readonly cpuCoresAllocated: number;
        readonly memoryAllocatedBytes: number;
        readonly memoryBytes: number;
        /** @description vCPUs of guests NodeRings did not create (templates excluded). */
        readonly nonNrCpuCores: number;
        /** @description Disk size of guests NodeRings did not create (templates included). */
        readonly nonNrDiskBytes: number;
        readonly nonNrMemoryBytes: number;
        readonly storagePools: readonly {
          readonly allocatedBytes: number;
          readonly storageId: string;
          readonly totalBytes: number;
        }[];
        /** @description When the metrics last reported on the node. */
        readonly syncedAt: string | null;
      };
      readonly macAddressPrefix: string;
      readonly maintenanceMode: boolean;
      readonly memoryOverallocatePercent: number;
      readonly name: string;
      readonly networkBridge: string;
      readonly networkModel: string;
      readonly networkName: string;
      readonly networkVlanId: number;
      readonly organizationId: string;
      readonly platformId: string;
      readonly proxmoxCpuType: string;
      readonly regionId: string;
      /** @enum {string} */
      readonly serviceStatus:
        'SERVICE_STATUS_ONLINE' | 'SERVICE_STATUS_OFFLINE' | 'SERVICE_STATUS_MAINTENANCE';
      readonly storageOverallocatePercent: number;
      readonly updateTime: string;
      readonly vmidSeed: number;
      readonly vmStorageDestination: string;
    };
    readonly NodePlacementPolicy: {
      /** @enum {string} */
      readonly defaultStrategy:
        | 'NODE_PLACEMENT_STRATEGY_FIRST_STABLE'
        | 'NODE_PLACEMENT_STRATEGY_ROUND_ROBIN'
        | 'NODE_PLACEMENT_STRATEGY_LEAST_ASSIGNED_VMS'
        | 'NODE_PLACEMENT_STRATEGY_RANDOM';
      readonly regionOverrides: readonly {
        readonly regionId: string;
        /** @enum {string} */
        readonly strategy:
          | 'NODE_PLACEMENT_STRATEGY_FIRST_STABLE'
          | 'NODE_PLACEMENT_STRATEGY_ROUND_ROBIN'
          | 'NODE_PLACEMENT_STRATEGY_LEAST_ASSIGNED_VMS'
          | 'NODE_PLACEMENT_STRATEGY_RANDOM';
      }[];
    };
    readonly NodePlacementPolicyInput: {
      /** @enum {string} */
      readonly defaultStrategy:
        | 'NODE_PLACEMENT_STRATEGY_FIRST_STABLE'
        | 'NODE_PLACEMENT_STRATEGY_ROUND_ROBIN'
        | 'NODE_PLACEMENT_STRATEGY_LEAST_ASSIGNED_VMS'
        | 'NODE_PLACEMENT_STRATEGY_RANDOM';
      readonly regionOverrides: readonly {
        readonly regionId: string;
        /** @enum {string} */
        readonly strategy:
          | 'NODE_PLACEMENT_STRATEGY_FIRST_STABLE'
          | 'NODE_PLACEMENT_STRATEGY_ROUND_ROBIN'
          | 'NODE_PLACEMENT_STRATEGY_LEAST_ASSIGNED_VMS'
          | 'NODE_PLACEMENT_STRATEGY_RANDOM';
      }[];
    };
    readonly OAuthError: {
      readonly error: string;
      readonly error_description: string;
    };
    readonly OAuthErrorInput: {
      readonly error: string;
      readonly error_description: string;
    };
    readonly OAuthToken: {
      readonly access_token: string;
      /** @description Seconds the access token is valid. */
      readonly expires_in: number;
      /** @description For a new access token when this one expires; rotated on every use. */
      readonly refresh_token: string;
      /** @constant */
      readonly token_type: 'Bearer';
    };
    readonly OAuthTokenInput: {
      readonly access_token: string;
      /** @description Seconds the access token is valid. */
      readonly expires_in: number;
      /** @description For a new access token when this one expires; rotated on every use. */
      readonly refresh_token: string;
      /** @constant */
      readonly token_type: 'Bearer';
    };
    readonly OrderRefusal: {
      /** Format: date-time */
      readonly createTime: string;
      readonly id: string;
      readonly nodes: readonly {
        readonly nodeId: string;
        readonly nodeName: string;
        readonly reasons: readonly string[];
      }[];
      readonly planCode: string;
      readonly planId: string;
      /** @description The region ordered in; null once that region is deleted. */
      readonly regionId: string | null;
      /** @description Why no node could take the order, naming your infrastructure. */
      readonly summary: string;
    };
    readonly OrderRefusalInput: {
      /** Format: date-time */
      readonly createTime: string;
      readonly id: string;
      readonly nodes: readonly {
        readonly nodeId: string;
        readonly nodeName: string;
        readonly reasons: readonly string[];
      }[];
      readonly planCode: string;
      readonly planId: string;
      /** @description The region ordered in; null once that region is deleted. */
      readonly regionId: string | null;
      /** @description Why no node could take the order, naming your infrastructure. */
      readonly summary: string;
    };
    readonly Organization: {
      readonly createTime: string;
      readonly id: string;
      readonly isVerified: boolean;
      readonly name: string;
      /** @enum {string} */
      readonly type: 'ORGANIZATION_TYPE_PROVIDER' | 'ORGANIZATION_TYPE_CLIENT';
    };
    readonly OrganizationInput: {
      readonly createTime: string;
      readonly id: string;
      readonly isVerified: boolean;
      readonly name: string;
      /** @enum {string} */
      readonly type: 'ORGANIZATION_TYPE_PROVIDER' | 'ORGANIZATION_TYPE_CLIENT';
    };
    readonly PendingDevice: {
      readonly clientId: string;
      readonly clientName: string;
      readonly createTime: string;
      readonly expireTime: string;
      readonly userCode: string;
    };
    readonly PendingDeviceInput: {
      readonly clientId: string;
      readonly clientName: string;
      readonly createTime: string;
      readonly expireTime: string;
      readonly userCode: string;
    };
    readonly Plan: {
      /** @description GiB per bandwidthPeriod; 0 is unlimited. */
      readonly bandwidthAllowanceGb: number;
      /** @enum {string} */
      readonly bandwidthPeriod:
        | 'BILLING_PERIOD_HOUR'
        | 'BILLING_PERIOD_DAY'
        | 'BILLING_PERIOD_WEEK'
        | 'BILLING_PERIOD_MONTH'
        | 'BILLING_PERIOD_QUARTER'
        | 'BILLING_PERIOD_YEAR';
      /** @enum {string} */
      readonly billingType: 'BILLING_TYPE_SUBSCRIPTION' | 'BILLING_TYPE_USAGE';
      readonly code: string;
      /** @enum {string} */
      readonly computeCategory: 'COMPUTE_CATEGORY_SHARED_COMPUTE' | 'COMPUTE_CATEGORY_DEDICATED_COMPUTE';
      /** @enum {string} */
      readonly computeType:
        | 'COMPUTE_TYPE_GENERAL_COMPUTE'
        | 'COMPUTE_TYPE_HIGH_FREQUENCY'
        | 'COMPUTE_TYPE_HIGH_PERFORMANCE'
        | 'COMPUTE_TYPE_GENERAL_PURPOSE'
        | 'COMPUTE_TYPE_CPU_OPTIMIZED'
        | 'COMPUTE_TYPE_MEMORY_OPTIMIZED'
        | 'COMPUTE_TYPE_STORAGE_OPTIMIZED'
        | 'COMPUTE_TYPE_VERY_HIGH_FREQUENCY'
        | 'COMPUTE_TYPE_GAME_SERVER';
      readonly cpuLimit: number;
      readonly cpuUnits: number;
      readonly createTime: string;
      readonly currency: string;
      /** @description GiB. */
      readonly diskGb: number;
      readonly id: string;
      readonly isPublic: boolean;
      readonly name: string;
      readonly networkRateLimitMbps: number;
      /** @description Empty once the plan is deleted. */
      readonly nodeIds: readonly string[];
      /** @enum {string} */
      readonly onCreditExhaustion:
        'CREDIT_EXHAUSTION_ACTION_SUSPEND' | 'CREDIT_EXHAUSTION_ACTION_CONTINUE_WITH_DUNNING';
      readonly organizationId: string;
      readonly planPrices: readonly {
        /** @enum {string} */
        readonly billingPeriod:
          | 'BILLING_PERIOD_HOUR'
          | 'BILLING_PERIOD_DAY'
          | 'BILLING_PERIOD_WEEK'
          | 'BILLING_PERIOD_MONTH'
          | 'BILLING_PERIOD_QUARTER'
          | 'BILLING_PERIOD_YEAR';
        readonly currency: string;
        readonly id: string;
        readonly unitAmount: string;
      }[];
      /** @description GiB (1024³ bytes). */
      readonly ramGb: number;
      /** @description The first of regionIds, for one-region clients; null once the plan is deleted. */
      readonly regionId: string | null;
      /** @description Where the plan sells, in your order; empty once the plan is deleted. */
      readonly regionIds: readonly string[];
      /** @description Counts the changes to the plan; a VM records the revision it was ordered at. */
      readonly revision: number;
      readonly setupFee: string;
      /** @enum {string} */
      readonly status: 'STATUS_ACTIVE' | 'STATUS_SOFT_DELETED';
      readonly trialDays: number;
      readonly updateTime: string;
      readonly vcpus: number;
    };
    readonly PlanInput: {
      /** @description GiB per bandwidthPeriod; 0 is unlimited. */
      readonly bandwidthAllowanceGb: number;
      /** @enum {string} */
      readonly bandwidthPeriod:
        | 'BILLING_PERIOD_HOUR'
        | 'BILLING_PERIOD_DAY'
        | 'BILLING_PERIOD_WEEK'
        | 'BILLING_PERIOD_MONTH'
        | 'BILLING_PERIOD_QUARTER'
        | 'BILLING_PERIOD_YEAR';
      /** @enum {string} */
      readonly billingType: 'BILLING_TYPE_SUBSCRIPTION' | 'BILLING_TYPE_USAGE';
      readonly code: string;
      /** @enum {string} */
      readonly computeCategory: 'COMPUTE_CATEGORY_SHARED_COMPUTE' | 'COMPUTE_CATEGORY_DEDICATED_COMPUTE';
      /** @enum {string} */
      readonly computeType:
        | 'COMPUTE_TYPE_GENERAL_COMPUTE'
        | 'COMPUTE_TYPE_HIGH_FREQUENCY'
        | 'COMPUTE_TYPE_HIGH_PERFORMANCE'
        | 'COMPUTE_TYPE_GENERAL_PURPOSE'
        | 'COMPUTE_TYPE_CPU_OPTIMIZED'
        | 'COMPUTE_TYPE_MEMORY_OPTIMIZED'
        | 'COMPUTE_TYPE_STORAGE_OPTIMIZED'
        | 'COMPUTE_TYPE_VERY_HIGH_FREQUENCY'
        | 'COMPUTE_TYPE_GAME_SERVER';
      readonly cpuLimit: number;
      readonly cpuUnits: number;
      readonly createTime: string;
      readonly currency: string;
      /** @description GiB. */
      readonly diskGb: number;
      readonly id: string;
      readonly isPublic: boolean;
      readonly name: string;
      readonly networkRateLimitMbps: number;
      /** @description Empty once the plan is deleted. */
      readonly nodeIds: readonly string[];
      /** @enum {string} */
      readonly onCreditExhaustion:
        'CREDIT_EXHAUSTION_ACTION_SUSPEND' | 'CREDIT_EXHAUSTION_ACTION_CONTINUE_WITH_DUNNING';
      readonly organizationId: string;
      readonly planPrices: readonly {
        /** @enum {string} */
        readonly billingPeriod:
          | 'BILLING_PERIOD_HOUR'
          | 'BILLING_PERIOD_DAY'
          | 'BILLING_PERIOD_WEEK'
          | 'BILLING_PERIOD_MONTH'
          | 'BILLING_PERIOD_QUARTER'
          | 'BILLING_PERIOD_YEAR';
        readonly currency: string;
        readonly id: string;
        readonly unitAmount: string;
      }[];
      /** @description GiB (1024³ bytes). */
      readonly ramGb: number;
      /** @description The first of regionIds, for one-region clients; null once the plan is deleted. */
      readonly regionId: string | null;
      /** @description Where the plan sells, in your order; empty once the plan is deleted. */
      readonly regionIds: readonly string[];
      /** @description Counts the changes to the plan; a VM records the revision it was ordered at. */
      readonly revision: number;
      readonly setupFee: string;
      /** @enum {string} */
      readonly status: 'STATUS_ACTIVE' | 'STATUS_SOFT_DELETED';
      readonly trialDays: number;
      readonly updateTime: string;
      readonly vcpus: number;
    };
    readonly Platform: {
      readonly agentId: string | null;
      readonly agentProvisioned: boolean;
      readonly createTime: string;
      /** @enum {string} */
      readonly driver: 'PLATFORM_DRIVER_PROXMOX';
      readonly endpointUrl: string;
      readonly id: string;
      readonly name: string;
      readonly organizationId: string;
      /** @enum {string} */
      readonly serviceStatus:
        'SERVICE_STATUS_ONLINE' | 'SERVICE_STATUS_OFFLINE' | 'SERVICE_STATUS_MAINTENANCE';
      readonly updateTime: string;
    };
    readonly PlatformInput: {
      readonly agentId: string | null;
      readonly agentProvisioned: boolean;
      readonly createTime: string;
      /** @enum {string} */
      readonly driver: 'PLATFORM_DRIVER_PROXMOX';
      readonly endpointUrl: string;
      readonly id: string;
      readonly name: string;
      readonly organizationId: string;
      /** @enum {string} */
      readonly serviceStatus:
        'SERVICE_STATUS_ONLINE' | 'SERVICE_STATUS_OFFLINE' | 'SERVICE_STATUS_MAINTENANCE';
      readonly updateTime: string;
    };
    readonly PlatformVersions: {
      readonly channel: string;
      readonly components: readonly {
        readonly checksumSha256: string;
        readonly downloadUrl?: string;
        readonly image?: string;
        readonly name: string;
        readonly version: string;
      }[];
    };
    readonly PlatformVersionsInput: {
      readonly channel: string;
      readonly components: readonly {
        readonly checksumSha256: string;
        readonly downloadUrl?: string;
        readonly image?: string;
        readonly name: string;
        readonly version: string;
      }[];
    };
    readonly PreflightCheck: {
      /** @description What is checked, like NODE_CAPACITY_LEFT; a sub-check adds its subject. */
      readonly code: string;
      readonly note: string;
      readonly passed: boolean;
      readonly subChecks: readonly {
        readonly code: string;
        readonly note: string;
        readonly passed: boolean;
        /** @description Always empty: sub-checks have none of their own. */
        readonly subChecks: readonly [];
      }[];
    };
    readonly PreflightCheckInput: {
      /** @description What is checked, like NODE_CAPACITY_LEFT; a sub-check adds its subject. */
      readonly code: string;
      readonly note: string;
      readonly passed: boolean;
      readonly subChecks: readonly {
        readonly code: string;
        readonly note: string;
        readonly passed: boolean;
        /** @description Always empty: sub-checks have none of their own. */
        readonly subChecks: readonly [];
      }[];
    };
    readonly PreflightResult: {
      /** Format: date-time */
      readonly evaluatedAt: string;
      readonly infrastructure: readonly {
        readonly agent: {
          readonly checks: readonly components['schemas']['PreflightCheck'][];
          readonly id: string | null;
          readonly name: string;
          readonly platform: {
            readonly checks: readonly components['schemas']['PreflightCheck'][];
            readonly id: string;
            readonly name: string;
            readonly node: {
              readonly checks: readonly components['schemas']['PreflightCheck'][];
              readonly id: string;
              readonly name: string;
            };
          };
        };
        /** @description Every check of the chain passes: an order placed now can go to this node. */
        readonly passed: boolean;
      }[];
      /** @description The plan's own checks pass and at least one node passes every check: it is listed. */
      readonly marketplaceReady: boolean;
      readonly planChecks: readonly components['schemas']['PreflightCheck'][];
      readonly planCode: string;
      readonly planId: string;
      readonly planName: string;
      readonly regionLabels: readonly string[];
      /** @description Each region the plan sells in, decided by its own nodes. */
      readonly regions: readonly {
        /** @description A node in this region passes: the plan is listed here. */
        readonly marketplaceReady: boolean;
        readonly regionId: string;
        readonly regionLabel: string;
        readonly summaryNote: string;
      }[];
      readonly summaryIssues: readonly string[];
      readonly summaryNote: string;
      /** @description What does not stop the sale but is worth a look: a node without a template for a distro the plan's other nodes offer. */
      readonly summaryWarnings: readonly string[];
    };
    readonly PreflightResultInput: {
      /** Format: date-time */
      readonly evaluatedAt: string;
      readonly infrastructure: readonly {
        readonly agent: {
          readonly checks: readonly components['schemas']['PreflightCheckInput'][];
          readonly id: string | null;
          readonly name: string;
          readonly platform: {
            readonly checks: readonly components['schemas']['PreflightCheckInput'][];
            readonly id: string;
            readonly name: string;
            readonly node: {
              readonly checks: readonly components['schemas']['PreflightCheckInput'][];
              readonly id: string;
              readonly name: string;
            };
          };
        };
        /** @description Every check of the chain passes: an order placed now can go to this node. */
        readonly passed: boolean;
      }[];
      /** @description The plan's own checks pass and at least one node passes every check: it is listed. */
      readonly marketplaceReady: boolean;
      readonly planChecks: readonly components['schemas']['PreflightCheckInput'][];
      readonly planCode: string;
      readonly planId: string;
      readonly planName: string;
      readonly regionLabels: readonly string[];
      /** @description Each region the plan sells in, decided by its own nodes. */
      readonly regions: readonly {
        /** @description A node in this region passes: the plan is listed here. */
        readonly marketplaceReady: boolean;
        readonly regionId: string;
        readonly regionLabel: string;
        readonly summaryNote: string;
      }[];
      readonly summaryIssues: readonly string[];
      readonly summaryNote: string;
      /** @description What does not stop the sale but is worth a look: a node without a template for a distro the plan's other nodes offer. */
      readonly summaryWarnings: readonly string[];
    };
    readonly ProviderVirtualMachine: {
      readonly clientOrganizationId: string;
      readonly cpu: number;
      /** Format: date-time */
      readonly createTime: string;
      readonly distro: string;
      /** @description Why the order failed, in the agent's or Proxmox's words; empty unless it failed. */
      readonly failureDetail: string;
      readonly hostname: string;
      readonly id: string;
      readonly ipv4: string | null;
      readonly ipv6: string | null;
      readonly macAddress: string;
      /** @description MiB. */
      readonly memory: number;
      readonly nodeId: string | null;
      /** @enum {string} */
      readonly operationStatus:
        | 'OPERATION_STATUS_CREATED'
        | 'OPERATION_STATUS_STARTED'
        | 'OPERATION_STATUS_STOPPED'
        | 'OPERATION_STATUS_DELETED';
      readonly planBillingType: string;
      readonly planCode: string;
      readonly planId: string;
      /**
       * @description The guest's power as the hypervisor last reported it: the operator's reading after each power action or the agent's metrics, whichever is newer (UNKNOWN before any report).
       * @enum {string}
       */
      readonly powerState: 'POWER_STATE_RUNNING' | 'POWER_STATE_STOPPED' | 'POWER_STATE_UNKNOWN';
      /** @description When that report was made. */
      readonly powerStateTime: string | null;
      readonly providerName: string;
      /**
       * @description Where the VM is on its way: WAITING_FOR_AGENT while the agent cluster cannot be reached.
       * @enum {string}
       */
      readonly provisioningState:
        | 'PENDING'
        | 'WAITING_FOR_AGENT'
        | 'PROVISIONING'
        | 'RUNNING'
        | 'STOPPED'
        | 'FAILED'
        | 'DELETING'
        | 'DELETED';
      readonly regionCity: string;
      readonly regionCountry: string;
      /** @description Why the VM waits or failed. Customers get a plain sentence for a failure; providers, the agent's or Proxmox's own words. */
      readonly statusMessage: string;
      /** @description GiB. */
      readonly storage: number;
      readonly tags: readonly string[];
      readonly vmid: number;
    };
    readonly ProviderVirtualMachineInput: {
      readonly clientOrganizationId: string;
      readonly cpu: number;
      /** Format: date-time */
      readonly createTime: string;
      readonly distro: string;
      /** @description Why the order failed, in the agent's or Proxmox's words; empty unless it failed. */
      readonly failureDetail: string;
      readonly hostname: string;
      readonly id: string;
      readonly ipv4: string | null;
      readonly ipv6: string | null;
      readonly macAddress: string;
      /** @description MiB. */
      readonly memory: number;
      readonly nodeId: string | null;
      /** @enum {string} */
      readonly operationStatus:
        | 'OPERATION_STATUS_CREATED'
        | 'OPERATION_STATUS_STARTED'
        | 'OPERATION_STATUS_STOPPED'
        | 'OPERATION_STATUS_DELETED';
      readonly planBillingType: string;
      readonly planCode: string;
      readonly planId: string;
      /**
       * @description The guest's power as the hypervisor last reported it: the operator's reading after each power action or the agent's metrics, whichever is newer (UNKNOWN before any report).
       * @enum {string}
       */
      readonly powerState: 'POWER_STATE_RUNNING' | 'POWER_STATE_STOPPED' | 'POWER_STATE_UNKNOWN';
      /** @description When that report was made. */
      readonly powerStateTime: string | null;
      readonly providerName: string;
      /**
       * @description Where the VM is on its way: WAITING_FOR_AGENT while the agent cluster cannot be reached.
       * @enum {string}
       */
      readonly provisioningState:
        | 'PENDING'
        | 'WAITING_FOR_AGENT'
        | 'PROVISIONING'
        | 'RUNNING'
        | 'STOPPED'
        | 'FAILED'
        | 'DELETING'
        | 'DELETED';
      readonly regionCity: string;
      readonly regionCountry: string;
      /** @description Why the VM waits or failed. Customers get a plain sentence for a failure; providers, the agent's or Proxmox's own words. */
      readonly statusMessage: string;
      /** @description GiB. */
      readonly storage: number;
      readonly tags: readonly string[];
      readonly vmid: number;
    };
    readonly ReceivedInvitation: {
      readonly createTime: string;
      readonly email: string;
      readonly expireTime: string;
      readonly id: string;
      readonly invitedByEmail: string | null;
      readonly organization: {
        readonly id: string;
        readonly name: string;
        /** @enum {string} */
        readonly type: 'ORGANIZATION_TYPE_PROVIDER' | 'ORGANIZATION_TYPE_CLIENT';
      };
      readonly organizationId: string;
      /** @enum {string} */
      readonly role: 'MEMBER_ROLE_OWNER' | 'MEMBER_ROLE_ADMIN' | 'MEMBER_ROLE_MEMBER';
      /** @enum {string} */
      readonly state:
        | 'INVITATION_STATE_PENDING'
        | 'INVITATION_STATE_ACCEPTED'
        | 'INVITATION_STATE_DECLINED'
        | 'INVITATION_STATE_REVOKED'
        | 'INVITATION_STATE_EXPIRED';
    };
    readonly ReceivedInvitationInput: {
      readonly createTime: string;
      readonly email: string;
      readonly expireTime: string;
      readonly id: string;
      readonly invitedByEmail: string | null;
      readonly organization: {
        readonly id: string;
        readonly name: string;
        /** @enum {string} */
        readonly type: 'ORGANIZATION_TYPE_PROVIDER' | 'ORGANIZATION_TYPE_CLIENT';
      };
      readonly organizationId: string;
      /** @enum {string} */
      readonly role: 'MEMBER_ROLE_OWNER' | 'MEMBER_ROLE_ADMIN' | 'MEMBER_ROLE_MEMBER';
      /** @enum {string} */
      readonly state:
        | 'INVITATION_STATE_PENDING'
        | 'INVITATION_STATE_ACCEPTED'
        | 'INVITATION_STATE_DECLINED'
        | 'INVITATION_STATE_REVOKED'
        | 'INVITATION_STATE_EXPIRED';
    };
    readonly Region: {
      readonly cityCountry: {
        readonly cityName: string;
        readonly countryName: string;
        readonly id: string;
      };
      readonly createTime: string;
      readonly datacenter: {
        readonly id: string;
        readonly name: string;
      };
      readonly id: string;
      readonly organizationId: string;
    };
    readonly RegionInput: {
      readonly cityCountry: {
        readonly cityName: string;
        readonly countryName: string;
        readonly id: string;
      };
      readonly createTime: string;
      readonly datacenter: {
        readonly id: string;
        readonly name: string;
      };
      readonly id: string;
      readonly organizationId: string;
    };
    readonly Secret: {
      readonly createdBy: string | null;
      readonly createTime: string;
      readonly id: string;
      readonly key: string;
      readonly organizationId: string;
      readonly updateTime: string;
    };
    readonly SecretInput: {
      readonly createdBy: string | null;
      readonly createTime: string;
      readonly id: string;
      readonly key: string;
      readonly organizationId: string;
      readonly updateTime: string;
    };
    readonly ServiceAccount: {
      readonly activeTokenCount: number;
      readonly allowedIps: readonly string[];
      readonly createTime: string;
      readonly description: string;
      readonly id: string;
      readonly isActive: boolean;
      readonly lastUsedAt: string | null;
      readonly name: string;
      readonly organizationId: string;
      /** @enum {string} */
      readonly role: 'MEMBER_ROLE_ADMIN' | 'MEMBER_ROLE_MEMBER';
    };
    readonly ServiceAccountInput: {
      readonly activeTokenCount: number;
      readonly allowedIps: readonly string[];
      readonly createTime: string;
      readonly description: string;
      readonly id: string;
      readonly isActive: boolean;
      readonly lastUsedAt: string | null;
      readonly name: string;
      readonly organizationId: string;
      /** @enum {string} */
      readonly role: 'MEMBER_ROLE_ADMIN' | 'MEMBER_ROLE_MEMBER';
    };
    readonly ServiceAccountToken: {
      readonly createTime: string;
      readonly expiresAt: string;
      readonly lastUsedAt: string | null;
      readonly name: string;
      readonly revoked: boolean;
      readonly tokenId: string;
    };
    readonly ServiceAccountTokenInput: {
      readonly createTime: string;
      readonly expiresAt: string;
      readonly lastUsedAt: string | null;
      readonly name: string;
      readonly revoked: boolean;
      readonly tokenId: string;
    };
    readonly Session: {
      /** @description The device client of a device sign-in (`nr-cli`); null for a sign-in. */
      readonly clientId: string | null;
      readonly createTime: string;
      /** @description The session of this request. */
      readonly current: boolean;
      readonly expireTime: string;
      readonly id: string;
      readonly lastUseTime: string | null;
    };
    readonly SessionInput: {
      /** @description The device client of a device sign-in (`nr-cli`); null for a sign-in. */
      readonly clientId: string | null;
      readonly createTime: string;
      /** @description The session of this request. */
      readonly current: boolean;
      readonly expireTime: string;
      readonly id: string;
      readonly lastUseTime: string | null;
    };
    readonly SmtpOutboundPolicy: {
      /** @description Drop outbound TCP 25, 465 and 587 of VMs that inherit. */
      readonly blockByDefault: boolean;
    };
    readonly SmtpOutboundPolicyInput: {
      /** @description Drop outbound TCP 25, 465 and 587 of VMs that inherit. */
      readonly blockByDefault: boolean;
    };
    readonly SmtpOutboundVmPolicy: {
      /** @enum {string} */
      readonly action:
        'SMTP_OUTBOUND_VM_ACTION_INHERIT' | 'SMTP_OUTBOUND_VM_ACTION_ALLOW' | 'SMTP_OUTBOUND_VM_ACTION_BLOCK';
      readonly clientOrganizationId: string;
      /** @description What the VM gets: its action, or the default when it inherits. */
      readonly effectiveBlocked: boolean;
      readonly hostname: string;
      readonly vmId: string;
    };
    readonly SmtpOutboundVmPolicyInput: {
      /** @enum {string} */
      readonly action:
        'SMTP_OUTBOUND_VM_ACTION_INHERIT' | 'SMTP_OUTBOUND_VM_ACTION_ALLOW' | 'SMTP_OUTBOUND_VM_ACTION_BLOCK';
      readonly clientOrganizationId: string;
      /** @description What the VM gets: its action, or the default when it inherits. */
      readonly effectiveBlocked: boolean;
      readonly hostname: string;
      readonly vmId: string;
    };
    readonly Snapshot: {
      /** Format: date-time */
      readonly createdAt: string;
      readonly description: string;
      readonly id: string;
      /** @description The latest rollback served, as requested. */
      readonly lastRestore: string | null;
      /** @description The Proxmox snapshot's name. */
      readonly name: string;
      /** @enum {string} */
      readonly operationStatus:
        | 'SNAPSHOT_OPERATION_STATUS_PENDING'
        | 'SNAPSHOT_OPERATION_STATUS_PROCESSING'
        | 'SNAPSHOT_OPERATION_STATUS_COMPLETED'
        | 'SNAPSHOT_OPERATION_STATUS_FAILED';
      /** @enum {string} */
      readonly restoreStatus:
        | 'RESTORE_STATUS_NONE'
        | 'RESTORE_STATUS_REQUESTED'
        | 'RESTORE_STATUS_RESTORING'
        | 'RESTORE_STATUS_COMPLETED'
        | 'RESTORE_STATUS_FAILED';
      readonly snapshotId: string;
      /** @enum {string} */
      readonly snapshotStatus:
        | 'SNAPSHOT_STATUS_ACTIVE'
        | 'SNAPSHOT_STATUS_DELETED'
        | 'SNAPSHOT_STATUS_EXPIRED'
        | 'SNAPSHOT_STATUS_UNKNOWN';
      /** @description Why it waits or failed, in the agent's or Proxmox's own words. */
      readonly statusMessage: string;
      readonly virtualMachineId: string;
    };
    readonly SnapshotInput: {
      /** Format: date-time */
      readonly createdAt: string;
      readonly description: string;
      readonly id: string;
      /** @description The latest rollback served, as requested. */
      readonly lastRestore: string | null;
      /** @description The Proxmox snapshot's name. */
      readonly name: string;
      /** @enum {string} */
      readonly operationStatus:
        | 'SNAPSHOT_OPERATION_STATUS_PENDING'
        | 'SNAPSHOT_OPERATION_STATUS_PROCESSING'
        | 'SNAPSHOT_OPERATION_STATUS_COMPLETED'
        | 'SNAPSHOT_OPERATION_STATUS_FAILED';
      /** @enum {string} */
      readonly restoreStatus:
        | 'RESTORE_STATUS_NONE'
        | 'RESTORE_STATUS_REQUESTED'
        | 'RESTORE_STATUS_RESTORING'
        | 'RESTORE_STATUS_COMPLETED'
        | 'RESTORE_STATUS_FAILED';
      readonly snapshotId: string;
      /** @enum {string} */
      readonly snapshotStatus:
        | 'SNAPSHOT_STATUS_ACTIVE'
        | 'SNAPSHOT_STATUS_DELETED'
        | 'SNAPSHOT_STATUS_EXPIRED'
        | 'SNAPSHOT_STATUS_UNKNOWN';
      /** @description Why it waits or failed, in the agent's or Proxmox's own words. */
      readonly statusMessage: string;
      readonly virtualMachineId: string;
    };
    readonly SshKey: {
      readonly createTime: string;
      readonly fingerprint: string;
      readonly id: string;
      /** @enum {string} */
      readonly keyType: 'SSH_KEY_TYPE_RSA' | 'SSH_KEY_TYPE_ED25519' | 'SSH_KEY_TYPE_ECDSA';
      readonly name: string;
      readonly organizationId: string;
      readonly publicKey: string;
    };
    readonly SshKeyInput: {
      readonly createTime: string;
      readonly fingerprint: string;
      readonly id: string;
      /** @enum {string} */
      readonly keyType: 'SSH_KEY_TYPE_RSA' | 'SSH_KEY_TYPE_ED25519' | 'SSH_KEY_TYPE_ECDSA';
      readonly name: string;
      readonly organizationId: string;
      readonly publicKey: string;
    };
    readonly Status: {
      readonly code: string;
      readonly details: readonly {
        readonly '@type': string;
        readonly fieldViolations: readonly {
          readonly description: string;
          readonly field: string;
        }[];
      }[];
      readonly message: string;
    };
    readonly StatusInput: {
      readonly code: string;
      readonly details: readonly {
        readonly '@type': string;
        readonly fieldViolations: readonly {
          readonly description: string;
          readonly field: string;
        }[];
      }[];
      readonly message: string;
    };
    readonly Success: {
      readonly success: boolean;
    };
    readonly SuccessInput: {
      readonly success: boolean;
    };
    readonly User: {
      readonly createTime: string;
      readonly email: string;
      readonly id: string;
      readonly isStaff: boolean;
    };
    readonly UserInput: {
      readonly createTime: string;
      readonly email: string;
      readonly id: string;
      readonly isStaff: boolean;
    };
    readonly VirtualMachine: {
      readonly cpu: number;
      /** Format: date-time */
      readonly createTime: string;
      readonly distro: string;
      readonly hostname: string;
      readonly id: string;
      readonly ipv4: string | null;
      readonly ipv6: string | null;
      /** @description MiB. */
      readonly memory: number;
      /** @enum {string} */
      readonly operationStatus:
        | 'OPERATION_STATUS_CREATED'
        | 'OPERATION_STATUS_STARTED'
        | 'OPERATION_STATUS_STOPPED'
        | 'OPERATION_STATUS_DELETED';
      readonly planBillingType: string;
      readonly planCode: string;
      /**
       * @description The guest's power as the hypervisor last reported it: the operator's reading after each power action or the agent's metrics, whichever is newer (UNKNOWN before any report).
       * @enum {string}
       */
      readonly powerState: 'POWER_STATE_RUNNING' | 'POWER_STATE_STOPPED' | 'POWER_STATE_UNKNOWN';
      /** @description When that report was made. */
      readonly powerStateTime: string | null;
      readonly providerName: string;
      /**
       * @description Where the VM is on its way: WAITING_FOR_AGENT while the agent cluster cannot be reached.
       * @enum {string}
       */
      readonly provisioningState:
        | 'PENDING'
        | 'WAITING_FOR_AGENT'
        | 'PROVISIONING'
        | 'RUNNING'
        | 'STOPPED'
        | 'FAILED'
        | 'DELETING'
        | 'DELETED';
      readonly regionCity: string;
      readonly regionCountry: string;
      /** @description Why the VM waits or failed. Customers get a plain sentence for a failure; providers, the agent's or Proxmox's own words. */
      readonly statusMessage: string;
      /** @description GiB. */
      readonly storage: number;
      readonly tags: readonly string[];
    };
    readonly VirtualMachineBandwidthUsage: {
      /** @description Egress included per period, in GiB; 0 is unlimited. */
      readonly allowanceGb: number;
      /** @description The plan's bandwidthPeriod: the allowance applies to each. */
      readonly period: string;
      /** @description The current period first. */
      readonly periods: readonly {
        readonly egressBytes: number;
        /** @description egressBytes in GiB (1024³ bytes). */
        readonly egressGb: number;
        /** Format: date-time */
        readonly end: string;
        readonly ingressBytes: number;
        /** @description ingressBytes in GiB. */
        readonly ingressGb: number;
        /** Format: date-time */
        readonly start: string;
      }[];
    };
    readonly VirtualMachineBandwidthUsageInput: {
      /** @description Egress included per period, in GiB; 0 is unlimited. */
      readonly allowanceGb: number;
      /** @description The plan's bandwidthPeriod: the allowance applies to each. */
      readonly period: string;
      /** @description The current period first. */
      readonly periods: readonly {
        readonly egressBytes: number;
        /** @description egressBytes in GiB (1024³ bytes). */
        readonly egressGb: number;
        /** Format: date-time */
        readonly end: string;
        readonly ingressBytes: number;
        /** @description ingressBytes in GiB. */
        readonly ingressGb: number;
        /** Format: date-time */
        readonly start: string;
      }[];
    };
    readonly VirtualMachineInput: {
      readonly cpu: number;
      /** Format: date-time */
      readonly createTime: string;
      readonly distro: string;
      readonly hostname: string;
      readonly id: string;
      readonly ipv4: string | null;
      readonly ipv6: string | null;
      /** @description MiB. */
      readonly memory: number;
      /** @enum {string} */
      readonly operationStatus:
        | 'OPERATION_STATUS_CREATED'
        | 'OPERATION_STATUS_STARTED'
        | 'OPERATION_STATUS_STOPPED'
        | 'OPERATION_STATUS_DELETED';
      readonly planBillingType: string;
      readonly planCode: string;
      /**
       * @description The guest's power as the hypervisor last reported it: the operator's reading after each power action or the agent's metrics, whichever is newer (UNKNOWN before any report).
       * @enum {string}
       */
      readonly powerState: 'POWER_STATE_RUNNING' | 'POWER_STATE_STOPPED' | 'POWER_STATE_UNKNOWN';
      /** @description When that report was made. */
      readonly powerStateTime: string | null;
      readonly providerName: string;
      /**
       * @description Where the VM is on its way: WAITING_FOR_AGENT while the agent cluster cannot be reached.
       * @enum {string}
       */
      readonly provisioningState:
        | 'PENDING'
        | 'WAITING_FOR_AGENT'
        | 'PROVISIONING'
        | 'RUNNING'
        | 'STOPPED'
        | 'FAILED'
        | 'DELETING'
        | 'DELETED';
      readonly regionCity: string;
      readonly regionCountry: string;
      /** @description Why the VM waits or failed. Customers get a plain sentence for a failure; providers, the agent's or Proxmox's own words. */
      readonly statusMessage: string;
      /** @description GiB. */
      readonly storage: number;
      readonly tags: readonly string[];
    };
    readonly VirtualMachineMetrics: {
      /** Format: date-time */
      readonly from: string;
      readonly points: readonly {
        /** @description Average share of the vCPUs in use, 0–1. */
        readonly cpuUsageRatio?: number;
        readonly cpuUsageRatioMax?: number;
        readonly diskReadBytesPerSecond?: number;
        readonly diskWriteBytesPerSecond?: number;
        readonly memoryUsedBytes?: number;
        readonly memoryUsedBytesMax?: number;
        readonly networkReceiveBytesPerSecond?: number;
        readonly networkTransmitBytesPerSecond?: number;
        /**
         * Format: date-time
         * @description Start of the bucket.
         */
        readonly time: string;
      }[];
      /** @description Seconds per point: the step asked for, or the rollups' own. */
      readonly resolutionSeconds: number;
      /** @enum {string} */
      readonly series:
        'CHART_SERIES_CPU' | 'CHART_SERIES_MEMORY' | 'CHART_SERIES_NETWORK' | 'CHART_SERIES_DISK';
      /** Format: date-time */
      readonly to: string;
    };
    readonly VirtualMachineMetricsInput: {
      /** Format: date-time */
      readonly from: string;
      readonly points: readonly {
        /** @description Average share of the vCPUs in use, 0–1. */
        readonly cpuUsageRatio?: number;
        readonly cpuUsageRatioMax?: number;
        readonly diskReadBytesPerSecond?: number;
        readonly diskWriteBytesPerSecond?: number;
        readonly memoryUsedBytes?: number;
        readonly memoryUsedBytesMax?: number;
        readonly networkReceiveBytesPerSecond?: number;
        readonly networkTransmitBytesPerSecond?: number;
        /**
         * Format: date-time
         * @description Start of the bucket.
         */
        readonly time: string;
      }[];
      /** @description Seconds per point: the step asked for, or the rollups' own. */
      readonly resolutionSeconds: number;
      /** @enum {string} */
      readonly series:
        'CHART_SERIES_CPU' | 'CHART_SERIES_MEMORY' | 'CHART_SERIES_NETWORK' | 'CHART_SERIES_DISK';
      /** Format: date-time */
      readonly to: string;
    };
    readonly VmBackupPolicy: {
      readonly addonId: string;
      /** @enum {string} */
      readonly compression:
        | 'BACKUP_STORAGE_COMPRESSION_NONE'
        | 'BACKUP_STORAGE_COMPRESSION_LZO'
        | 'BACKUP_STORAGE_COMPRESSION_GZIP'
        | 'BACKUP_STORAGE_COMPRESSION_ZSTD';
      /** @description How many scheduled backups are kept. */
      readonly retention: number;
      /** @description Five-field cron (UTC), the addon's. */
      readonly schedule: string;
      /** @description The node's backup storage. */
      readonly storage: string;
    };
    readonly VmBackupPolicyInput: {
      readonly addonId: string;
      /** @enum {string} */
      readonly compression:
        | 'BACKUP_STORAGE_COMPRESSION_NONE'
        | 'BACKUP_STORAGE_COMPRESSION_LZO'
        | 'BACKUP_STORAGE_COMPRESSION_GZIP'
        | 'BACKUP_STORAGE_COMPRESSION_ZSTD';
      /** @description How many scheduled backups are kept. */
      readonly retention: number;
      /** @description Five-field cron (UTC), the addon's. */
      readonly schedule: string;
      /** @description The node's backup storage. */
      readonly storage: string;
    };
    readonly VmConsole: {
      /**
       * Format: date-time
       * @description The session must be opened before then.
       */
      readonly expiresAt: string;
      /** @description The RFB (VNC) password the console asks for. */
      readonly password: string;
      readonly sessionId: string;
      /** @description Opens the session at the relay; shown once, only its hash is kept. */
      readonly token: string;
      /** @description The console relay's path on this API, with the session; the relay itself comes with the vnc-gateway (not served yet). */
      readonly websocketUrl: string;
    };
    readonly VmConsoleInput: {
      /**
       * Format: date-time
       * @description The session must be opened before then.
       */
      readonly expiresAt: string;
      /** @description The RFB (VNC) password the console asks for. */
      readonly password: string;
      readonly sessionId: string;
      /** @description Opens the session at the relay; shown once, only its hash is kept. */
      readonly token: string;
      /** @description The console relay's path on this API, with the session; the relay itself comes with the vnc-gateway (not served yet). */
      readonly websocketUrl: string;
    };
    readonly VMTemplate: {
      readonly cloudInitTemplateId: string;
      readonly createTime: string;
      /** @enum {string} */
      readonly distro:
        | 'DISTRO_UBUNTU_22_04'
        | 'DISTRO_UBUNTU_24_04'
        | 'DISTRO_UBUNTU_26_04'
        | 'DISTRO_FEDORA_43'
        | 'DISTRO_FEDORA_44'
        | 'DISTRO_DEBIAN_12'
        | 'DISTRO_DEBIAN_13'
        | 'DISTRO_CENTOS_9'
        | 'DISTRO_CENTOS_10'
        | 'DISTRO_ROCKY_9'
        | 'DISTRO_ROCKY_10'
        | 'DISTRO_ALMALINUX_9'
        | 'DISTRO_ALMALINUX_10';
      readonly id: string;
      readonly name: string;
      readonly nodeId: string;
      readonly nodeName: string;
      readonly organizationId: string;
      readonly platformId: string;
      readonly platformName: string;
      readonly proxmoxCpuType: string;
      readonly templateId: number;
      readonly updateTime: string;
    };
    readonly VMTemplateInput: {
      readonly cloudInitTemplateId: string;
      readonly createTime: string;
      /** @enum {string} */
      readonly distro:
        | 'DISTRO_UBUNTU_22_04'
        | 'DISTRO_UBUNTU_24_04'
        | 'DISTRO_UBUNTU_26_04'
        | 'DISTRO_FEDORA_43'
        | 'DISTRO_FEDORA_44'
        | 'DISTRO_DEBIAN_12'
        | 'DISTRO_DEBIAN_13'
        | 'DISTRO_CENTOS_9'
        | 'DISTRO_CENTOS_10'
        | 'DISTRO_ROCKY_9'
        | 'DISTRO_ROCKY_10'
        | 'DISTRO_ALMALINUX_9'
        | 'DISTRO_ALMALINUX_10';
      readonly id: string;
      readonly name: string;
      readonly nodeId: string;
      readonly nodeName: string;
      readonly organizationId: string;
      readonly platformId: string;
      readonly platformName: string;
      readonly proxmoxCpuType: string;
      readonly templateId: number;
      readonly updateTime: string;
    };
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
