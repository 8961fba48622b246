import { setTimeout as sleep } from 'node:timers/promises';

import type { Caller, ControlPlaneClient } from './control-plane-client.js';
import { SandboxError } from './sandbox-error.js';

interface PreflightResult {
  readonly planId: string;
  readonly planName: string;
  readonly marketplaceReady: boolean;
  readonly summaryIssues: readonly string[];
}

const POLL_MS = 250;
/** Plans a provider has at most in the sandbox; preflight lists them on one page. */
const PAGE_SIZE = 100;

/**
 * Waits until preflight passes every one of `planIds` (the marketplace lists only those), as the
 * provider sees it in `GET /v1/provider/preflight-checks`. Preflight needs the platform online and the
 * nodes' inventory synced, which the agent's metrics bring; past the deadline, throws with what still
 * fails.
 */
export async function waitForMarketplaceReady(
  api: ControlPlaneClient,
  provider: Caller,
  planIds: readonly string[],
  options: { readonly timeoutMs: number; readonly signal?: AbortSignal | undefined },
): Promise<void> {
  const { timeoutMs } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { plans } = await api.call<{ plans: PreflightResult[] }>(
      'GET',
      `/v1/provider/preflight-checks?pageSize=${String(PAGE_SIZE)}`,
      200,
      { as: provider },
    );
    const pending = planIds.map(
      (id) =>
        plans.find((p) => p.planId === id) ?? {
          planId: id,
          planName: id,
          marketplaceReady: false,
          summaryIssues: ['not evaluated yet'],
        },
    );
    const failing = pending.filter((p) => !p.marketplaceReady);
    if (failing.length === 0) return;
    if (Date.now() > deadline)
      throw new SandboxError(
        'NOT_MARKETPLACE_READY',
        `after ${String(timeoutMs / 1000)} s, preflight still fails ${failing
          .map((p) => `${p.planName} (${p.summaryIssues.join('; ')})`)
          .join(', ')}`,
      );
    await sleep(POLL_MS, undefined, { signal: options.signal });
  }
}
