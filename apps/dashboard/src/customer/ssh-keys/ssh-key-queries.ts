import { useQuery } from '@tanstack/react-query';

import type { SshKey } from '../../api/api-resources.js';
import { useApi } from '../../auth/session-context.js';

export const SSH_KEYS_QUERY_KEY = ['ssh-keys'] as const;

export function useSshKeys() {
  const api = useApi();
  return useQuery({
    queryKey: SSH_KEYS_QUERY_KEY,
    queryFn: () => api.get<{ sshKeys: SshKey[]; totalCount: number }>('/v1/ssh-keys', { pageSize: 100 }),
  });
}
