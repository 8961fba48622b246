import { useQuery } from '@tanstack/react-query';

import { apiPath } from '../../api/api-client.js';
import type { FirewallRule, FirewallRuleset } from '../../api/api-resources.js';
import { useApi } from '../../auth/session-context.js';

export const rulesetsQueryKey = ['firewall-rulesets'] as const;
export const rulesQueryKey = (rulesetId: string) => ['firewall-rulesets', rulesetId, 'rules'] as const;

export function useRulesets() {
  const api = useApi();
  return useQuery({
    queryKey: rulesetsQueryKey,
    queryFn: () =>
      api.get<{ rulesets: FirewallRuleset[]; totalCount: number }>('/v1/firewall/rulesets', {
        pageSize: 100,
      }),
  });
}

export function useRules(rulesetId: string) {
  const api = useApi();
  return useQuery({
    queryKey: rulesQueryKey(rulesetId),
    queryFn: () =>
      api.get<{ rules: FirewallRule[]; totalCount: number }>(
        apiPath`/v1/firewall/rulesets/${rulesetId}/rules`,
        {
          pageSize: 100,
        },
      ),
  });
}
