import type { ApiClient } from '../api-client.js';

interface Credential {
  readonly id: string;
  readonly name: string;
  readonly revoked: boolean;
}

/** The name of the metrics write credential register makes for a cluster's Alloy. */
function credentialName(cluster: string): string {
  return `nr ${cluster}`;
}

/**
 * A token for the agent's Alloy: the credential register made before is rotated (its token was shown
 * once and is gone if the Secret is), else one is created, so a resumed register never leaves a second.
 */
export async function mintMetricsToken(api: ApiClient, agentId: string, cluster: string): Promise<string> {
  const { credentials } = await api.get<{ credentials: Credential[] }>(
    `/v1/metrics-credentials?agentId=${agentId}&pageSize=100`,
  );
  const existing = credentials.find((c) => c.name === credentialName(cluster) && !c.revoked);
  const minted =
    existing === undefined
      ? await api.post<{ token: string }>('/v1/metrics-credentials', {
          agentId,
          name: credentialName(cluster),
        })
      : await api.post<{ token: string }>(`/v1/metrics-credentials/${existing.id}:rotate`, {});
  return minted.token;
}
