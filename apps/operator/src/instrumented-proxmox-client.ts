import type { ProxmoxClient } from '@noderings/proxmox';
import { ProxmoxError } from '@noderings/proxmox';

import type { NodeLimiter } from './node-limiter.js';
import type { OperatorMetrics } from './operator-metrics.js';

/** Calls whose first argument is not a node, or that must not hold a node's slot while they wait. */
const UNLIMITED = new Set([
  'close',
  'createTicket',
  'getVersion',
  'getClusterStatus',
  'getClusterResources',
  'getNextVmid',
  'getNodes',
  'waitForTask',
]);

type Method = (...args: unknown[]) => unknown;

/**
 * The one place every Proxmox call passes: it counts calls by method and outcome, and holds a slot of
 * the node's limiter while a node call runs. Task waits poll through the inner client, so they are
 * neither counted per poll nor limited.
 */
export function instrumentProxmoxClient(
  client: ProxmoxClient,
  instance: string,
  limiter: NodeLimiter,
  metrics: OperatorMetrics,
): ProxmoxClient {
  return new Proxy(client, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof property !== 'string' || typeof value !== 'function') return value;
      const method = value as Method;
      return async (...args: unknown[]): Promise<unknown> => {
        const call = (): Promise<unknown> => Promise.resolve(method.apply(target, args));
        const node = args[0];
        try {
          const result =
            UNLIMITED.has(property) || typeof node !== 'string'
              ? await call()
              : await limiter.run(node, call);
          metrics.proxmoxCall(instance, property, 'ok');
          return result;
        } catch (e: unknown) {
          metrics.proxmoxCall(instance, property, outcome(e));
          throw e;
        }
      };
    },
  });
}

function outcome(error: unknown): string {
  if (!(error instanceof ProxmoxError)) return 'error';
  return error.status === undefined ? error.code : String(error.status);
}
