import {
  encodeWriteRequest,
  postRemoteWrite,
  type RemoteWriteResponse,
  type TimeSeries,
} from '@noderings/remote-write';

import type { Caller, TestControlPlane } from '../../control-plane.test-support.js';

/** A metrics write credential for `agentId`, created through the API; returns its token. */
export async function createMetricsCredential(
  t: TestControlPlane,
  provider: Caller,
  agentId: string,
): Promise<string> {
  const created = await t.call<{ token: string }>('POST', '/v1/metrics-credentials', {
    as: provider,
    body: { agentId, name: 'alloy' },
  });
  if (created.status !== 201) throw new Error(`metrics credential: ${JSON.stringify(created.body)}`);
  return created.body.token;
}

/** Labels and samples as an agent's forwarder sends them: `agent_id` and `instance` on every series. */
export function pveSeries(
  name: string,
  labels: Readonly<Record<string, string>>,
  ...samples: readonly (readonly [timestampMs: number, value: number])[]
): TimeSeries {
  return {
    labels: Object.entries({ __name__: name, ...labels }).map(([n, value]) => ({ name: n, value })),
    samples: samples.map(([timestampMs, value]) => ({ timestampMs, value })),
  };
}

/** POSTs series to the control plane's remote-write endpoint with `token`. */
export function writeMetrics(
  t: TestControlPlane,
  token: string | undefined,
  timeseries: readonly TimeSeries[],
): Promise<RemoteWriteResponse> {
  return postRemoteWrite(
    `${t.url}/api/v1/write`,
    encodeWriteRequest({ timeseries }),
    token === undefined ? {} : { Authorization: `Bearer ${token}` },
  );
}
