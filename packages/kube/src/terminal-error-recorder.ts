import { setCondition } from './condition.js';
import type { CommonStatus } from './crd-types.js';
import type { KubeObject } from './kube-object.js';
import { parseObjectKey } from './object-key.js';
import type { TerminalError } from './reconciler.js';
import type { ResourceClient } from './resource-client.js';
import { updateStatus } from './status-update.js';

/** The condition type a terminal error is recorded under. */
export const READY_CONDITION = 'Ready';

/**
 * Returns an `onTerminalError` for a Controller: it records the error on the object's status (phase
 * Failed, `message`, and a `Ready=False` condition with the error's reason) so that whoever placed the
 * order sees it. An object that is gone needs no record.
 */
export function terminalErrorRecorder<T extends KubeObject & { status?: CommonStatus }>(
  client: ResourceClient<T>,
): (key: string, error: TerminalError) => Promise<void> {
  return async (key, error) => {
    const ref = parseObjectKey(key);
    if ((await client.find(ref)) === undefined) return;
    await updateStatus<CommonStatus, T>(client, ref, (current) => {
      const generation = current.metadata?.generation;
      return {
        ...current.status,
        phase: 'Failed',
        message: error.message,
        observedGeneration: generation,
        conditions: setCondition(
          current.status?.conditions,
          { type: READY_CONDITION, status: 'False', reason: error.reason, message: error.message },
          generation,
        ),
      };
    });
  };
}
