import { useMutation, useQueryClient } from '@tanstack/react-query';

import { apiPath } from '../../api/api-client.js';
import type { Platform } from '../../api/api-resources.js';
import { useApi } from '../../auth/session-context.js';
import { useAnnouncer } from '../../ui/announcer.js';
import { providerKeys } from '../provider-queries.js';

interface Link {
  readonly platform: Pick<Platform, 'id' | 'name'>;
  readonly agent: { readonly id: string; readonly name: string };
}

/**
 * Linking an agent to a platform and unlinking it; both refresh platforms, agents and preflight, which
 * all show the link.
 */
export function usePlatformAgentLink(action: 'AssignAgent' | 'UnassignAgent') {
  const api = useApi();
  const queryClient = useQueryClient();
  const { announce } = useAnnouncer();
  return useMutation({
    mutationFn: ({ platform, agent }: Link) =>
      api.post(apiPath`/v1/platforms/${platform.id}:${action}`, { agentId: agent.id }),
    onSuccess: async (_, { platform, agent }) => {
      announce(
        action === 'AssignAgent'
          ? `Agent ${agent.name} linked to platform ${platform.name}.`
          : `Agent ${agent.name} unassigned from platform ${platform.name}.`,
      );
      await queryClient.invalidateQueries({ queryKey: providerKeys.platforms });
      await queryClient.invalidateQueries({ queryKey: providerKeys.agents });
      await queryClient.invalidateQueries({ queryKey: providerKeys.preflight });
    },
  });
}
