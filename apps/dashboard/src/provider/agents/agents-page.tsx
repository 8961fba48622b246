import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type SubmitEvent } from 'react';

import { apiPath } from '../../api/api-client.js';
import { fieldErrorsOf, messageOf } from '../../api/api-error.js';
import type { Agent, InstallCommand } from '../../api/api-resources.js';
import { useApi } from '../../auth/session-context.js';
import { formatDateTime } from '../../format/dates.js';
import { serviceStatusName } from '../../format/display-names.js';
import { useAnnouncer } from '../../ui/announcer.js';
import { ConfirmButton } from '../../ui/confirm-button.js';
import { CopyButton } from '../../ui/copy-button.js';
import { focusFirstInvalid } from '../../ui/focus-first-invalid.js';
import { FormError } from '../../ui/form-error.js';
import { SelectField, TextField } from '../../ui/form-field.js';
import {
  hasErrors,
  isAddressOrPrefix,
  maxLength,
  required,
  validate,
  type FieldErrors,
} from '../../ui/form-validation.js';
import { Page, Section } from '../../ui/page.js';
import { EmptyState, QueryState } from '../../ui/query-state.js';
import { StatusBadge } from '../../ui/status-badge.js';
import { providerKeys, useAgents } from '../provider-queries.js';
import { agentAnchor } from './agent-anchors.js';
import { AgentKubeconfigForm } from './agent-kubeconfig-form.js';
import { AgentPlatforms } from './agent-platforms.js';
import { agentSettling, peeringStatus, serviceStatusTone } from './agent-status.js';

/** What each hypervisor driver the API names is called on the page. */
const HYPERVISORS: Readonly<Record<Agent['hypervisorDriver'], string>> = {
  HYPERVISOR_DRIVER_PROXMOX: 'Proxmox VE',
};

const AGENTS_REFRESH_MS = 10_000;

export function AgentsPage() {
  const agents = useAgents({ refetchInterval: AGENTS_REFRESH_MS });
  return (
    <Page
      title="Agents"
      description="An agent is a small k3s cluster on a VM in your network. NodeRings sends it VM orders over an encrypted peering; it never reaches your hypervisor directly."
    >
      <Section title="Your agents" id="agents">
        <QueryState query={agents} loadingLabel="Loading agents…">
          {(data) =>
            data.length === 0 ? (
              <EmptyState>
                <p>No agents yet. Create one below, then run its install command on an Ubuntu VM.</p>
              </EmptyState>
            ) : (
              <ul className="card-list card-list-wide">
                {data.map((agent) => (
                  <AgentCard key={agent.id} agent={agent} />
                ))}
              </ul>
            )
          }
        </QueryState>
      </Section>
      <CreateAgentForm />
    </Page>
  );
}

function AgentCard({ agent }: { readonly agent: Agent }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { announce } = useAnnouncer();
  const [generated, setGenerated] = useState<InstallCommand>();
  const generate = useMutation({
    mutationFn: () => api.post<InstallCommand>(apiPath`/v1/agents/${agent.id}:generateInstallCommand`),
    onSuccess: (command) => {
      setGenerated(command);
      announce(`Install command for ${agent.name} generated; it is valid for one hour.`);
    },
  });
  const remove = async () => {
    await api.delete(apiPath`/v1/agents/${agent.id}`);
    announce(`Agent ${agent.name} deleted.`);
    await queryClient.invalidateQueries({ queryKey: providerKeys.agents });
  };
  const peering = peeringStatus(agent);
  const headingId = agentAnchor(agent.id);
  return (
    <li className="card" aria-labelledby={headingId}>
      <h3 id={headingId}>{agent.name}</h3>
      {agent.description !== '' && <p className="muted">{agent.description}</p>}
      <dl className="facts">
        <dt>Installed</dt>
        <dd>
          <StatusBadge tone={agent.provisioned ? 'good' : 'neutral'}>
            {agent.provisioned ? 'Provisioned' : 'Not installed yet'}
          </StatusBadge>
        </dd>
        <dt>Peering</dt>
        <dd>
          <StatusBadge tone={peering.tone}>{peering.label}</StatusBadge>
          {agent.inboundPeeringError !== '' && (
            <span className="field-error"> {agent.inboundPeeringError}</span>
          )}
        </dd>
        <dt>Service status</dt>
        <dd>
          <StatusBadge tone={serviceStatusTone(agent)}>{serviceStatusName(agent.serviceStatus)}</StatusBadge>{' '}
          <span className="muted">{agent.serviceStatusReason}</span>
        </dd>
        <dt>Public IP</dt>
        <dd>
          <code>{agent.agentPublicIp}</code>
        </dd>
        <dt>Gateway region</dt>
        <dd>{agent.gatewayRegion.replace('AGENT_GATEWAY_REGION_', '')}</dd>
        <dt>Gateway service port</dt>
        <dd>{agent.gwServerServicePort} (UDP)</dd>
        <dt>Hypervisor</dt>
        <dd>{HYPERVISORS[agent.hypervisorDriver]}</dd>
        <dt>Created</dt>
        <dd>{formatDateTime(agent.createTime)}</dd>
      </dl>
      {agentSettling(agent) && (
        <p className="muted">This page checks the agent every few seconds while it installs and peers.</p>
      )}
      <div className="button-row">
        <button
          type="button"
          className="button-secondary"
          disabled={generate.isPending}
          onClick={() => {
            generate.mutate();
          }}
          aria-label={`Generate install command for ${agent.name}`}
        >
          Generate install command
        </button>
        <ConfirmButton
          label={`Delete agent ${agent.name}`}
          title={`Delete agent ${agent.name}?`}
          body={<AgentPlatforms agent={agent} />}
          confirmLabel="Delete agent"
          onConfirm={remove}
        >
          Delete
        </ConfirmButton>
      </div>
      <AgentKubeconfigForm agent={agent} />
      {generate.error !== null && (
        <p className="form-error" role="alert">
          {messageOf(generate.error)}
        </p>
      )}
      {generated !== undefined && (
        <div className="install-command">
          <p>
            Run this on the agent VM as root. It is valid until{' '}
            <strong>
              {new Date(generated.expiresAt).toLocaleTimeString(undefined, { timeStyle: 'short' })}
            </strong>{' '}
            (one hour) and works once; generate a new one if it lapses.
          </p>
          <pre tabIndex={0} aria-label={`Install command for ${agent.name}`}>
            <code>{generated.command}</code>
          </pre>
          <CopyButton text={generated.command} label="Copy install command" />
        </div>
      )}
    </li>
  );
}

function validateAgent(values: { name: string; description: string; agentPublicIp: string }): FieldErrors {
  return validate(values, {
    name: [required, maxLength(100)],
    description: [maxLength(1000)],
    agentPublicIp: [
      required,
      (v) =>
        isAddressOrPrefix(v.trim()) && !v.includes('/')
          ? undefined
          : 'Enter the public IPv4 address of the agent VM.',
    ],
  });
}

function CreateAgentForm() {
  const api = useApi();
  const queryClient = useQueryClient();
  const { announce } = useAnnouncer();
  const formRef = useRef<HTMLFormElement>(null);
  const empty = { name: '', description: '', agentPublicIp: '', gatewayRegion: 'AGENT_GATEWAY_REGION_AMS01' };
  const [values, setValues] = useState(empty);
  const [errors, setErrors] = useState<FieldErrors>({});
  const create = useMutation({
    mutationFn: (body: typeof values) =>
      api.post<{ agent: Agent }>('/v1/agents', { ...body, hypervisorDriver: 'HYPERVISOR_DRIVER_PROXMOX' }),
    onSuccess: async ({ agent }) => {
      announce(`Agent ${agent.name} created. Generate its install command next.`);
      setValues(empty);
      await queryClient.invalidateQueries({ queryKey: providerKeys.agents });
    },
  });
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const found = validateAgent(values);
    setErrors(found);
    if (hasErrors(found)) focusFirstInvalid(formRef.current);
    else create.mutate({ ...values, name: values.name.trim(), agentPublicIp: values.agentPublicIp.trim() });
  };
  const apiErrors = fieldErrorsOf(create.error);
  return (
    <Section title="Create an agent" id="create-agent">
      <form ref={formRef} onSubmit={submit} noValidate aria-label="Create agent" className="form-narrow">
        <FormError error={create.error} fields={['name', 'description', 'agentPublicIp', 'gatewayRegion']} />
        <TextField
          label="Agent name"
          hint="For example Frankfurt production."
          value={values.name}
          onChange={(e) => {
            setValues({ ...values, name: e.target.value });
          }}
          error={errors.name ?? apiErrors.name}
          required
        />
        <TextField
          label="Description"
          value={values.description}
          onChange={(e) => {
            setValues({ ...values, description: e.target.value });
          }}
          error={errors.description ?? apiErrors.description}
        />
        <TextField
          label="Agent public IP"
          hint="The public IPv4 address of the Ubuntu VM you will install the agent on."
          inputMode="decimal"
          value={values.agentPublicIp}
          onChange={(e) => {
            setValues({ ...values, agentPublicIp: e.target.value });
          }}
          error={errors.agentPublicIp ?? apiErrors.agentPublicIp}
          required
        />
        <SelectField
          label="Gateway region"
          hint="The NodeRings peering gateway closest to you."
          value={values.gatewayRegion}
          options={[{ value: 'AGENT_GATEWAY_REGION_AMS01', label: 'Amsterdam (AMS01)' }]}
          onChange={(e) => {
            setValues({ ...values, gatewayRegion: e.target.value });
          }}
          error={apiErrors.gatewayRegion}
        />
        <button type="submit" disabled={create.isPending}>
          Create agent
        </button>
      </form>
    </Section>
  );
}
