import { useState } from 'react';

import { messageOf } from '../../api/api-error.js';
import type { Agent, Platform } from '../../api/api-resources.js';
import { SelectField } from '../../ui/form-field.js';
import { usePlatformAgentLink } from './platform-agent-mutations.js';

/** The agent a platform's orders go through: unassign it, or (when none) link one. */
export function PlatformAgentLink({
  platform,
  agents,
}: {
  readonly platform: Platform;
  readonly agents: readonly Agent[];
}) {
  const linked = agents.find((a) => a.id === platform.agentId);
  const assign = usePlatformAgentLink('AssignAgent');
  const unassign = usePlatformAgentLink('UnassignAgent');
  const [chosen, setChosen] = useState('');
  const error = assign.error ?? unassign.error;
  const errorText = error === null ? undefined : messageOf(error);
  if (linked !== undefined)
    return (
      <div className="button-row">
        <button
          type="button"
          className="button-secondary button-small"
          disabled={unassign.isPending}
          aria-label={`Unassign ${linked.name} from platform ${platform.name}`}
          onClick={() => {
            unassign.mutate({ platform, agent: linked });
          }}
        >
          Unassign agent
        </button>
        {errorText !== undefined && (
          <p className="form-error" role="alert">
            {errorText}
          </p>
        )}
      </div>
    );
  const agentId = chosen || (agents[0]?.id ?? '');
  const agent = agents.find((a) => a.id === agentId);
  if (agents.length === 0) return <p className="muted">Create an agent on the Agents page to link one.</p>;
  return (
    <div className="button-row">
      <SelectField
        label={`Agent for ${platform.name}`}
        value={agentId}
        options={agents.map((a) => ({ value: a.id, label: a.name }))}
        onChange={(e) => {
          setChosen(e.target.value);
        }}
        error={errorText}
      />
      <button
        type="button"
        className="button-small"
        disabled={assign.isPending || agent === undefined}
        aria-label={`Link agent to ${platform.name}`}
        onClick={() => {
          if (agent !== undefined) assign.mutate({ platform, agent });
        }}
      >
        Link agent
      </button>
    </div>
  );
}
