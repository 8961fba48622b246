import { useQuery } from '@tanstack/react-query';

import type { Membership } from '../api/api-resources.js';
import { useSession } from './session-context.js';

interface CurrentOrganization {
  readonly organizations: readonly Membership[];
  /** The organisation calls act in: the session's, else the first the user belongs to. */
  readonly current: Membership | undefined;
  readonly isPending: boolean;
  readonly error: unknown;
}

export const ORGANIZATIONS_QUERY_KEY = ['organizations'] as const;

export function useCurrentOrganization(): CurrentOrganization {
  const { session, api } = useSession();
  const query = useQuery({
    queryKey: ORGANIZATIONS_QUERY_KEY,
    queryFn: () => api.get<{ organizations: Membership[] }>('/v1/organizations', { pageSize: 100 }),
    enabled: session !== undefined,
    staleTime: 60_000,
  });
  const organizations = query.data?.organizations ?? [];
  const current = organizations.find((o) => o.id === session?.organizationId) ?? organizations[0];
  return { organizations, current, isPending: query.isPending, error: query.error };
}
