import type { Agent } from '../../api/api-resources.js';
import { messageOf } from '../../api/api-error.js';
import { usePlatformAgentLink } from '../platforms-nodes/platform-agent-mutations.js';
import { usePlatforms } from '../provider-queries.js';

/**
 * The platforms an agent serves, each with a way to unassign it: what stands between the agent and its
 * deletion, shown where the deletion is refused.
 */
export function AgentPlatforms({ agent }: { readonly agent: Pick<Agent, 'id' | 'name'> }) {
  const platforms = usePlatforms();
  const unassign = usePlatformAgentLink('UnassignAgent');
  const linked = (platforms.data ?? []).filter((p) => p.agentId === agent.id);
  if (platforms.isPending) return <p className="muted">Looking for platforms that use {agent.name}…</p>;
  if (linked.length === 0) return <p>No platform uses {agent.name}; it can be deleted.</p>;
  return (
    <>
      <p>
        These platforms use {agent.name}. Unassign it from each first; their nodes stop taking orders until
        another agent is linked on the Platforms and nodes page.
      </p>
      <ul className="inline-list" aria-label={`Platforms using ${agent.name}`}>
        {linked.map((platform) => (
          <li key={platform.id}>
            {platform.name}{' '}
            <button
              type="button"
              className="button-secondary button-small"
              disabled={unassign.isPending}
              aria-label={`Unassign ${agent.name} from platform ${platform.name}`}
              onClick={() => {
                unassign.mutate({ platform, agent });
              }}
            >
              Unassign
            </button>
          </li>
        ))}
      </ul>
      {unassign.error !== null && (
        <p className="form-error" role="alert">
          {messageOf(unassign.error)}
        </p>
      )}
    </>
  );
}
