import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type SubmitEvent } from 'react';

import { apiPath } from '../../api/api-client.js';
import { fieldErrorsOf } from '../../api/api-error.js';
import type { Agent } from '../../api/api-resources.js';
import { useApi } from '../../auth/session-context.js';
import { useAnnouncer } from '../../ui/announcer.js';
import { FormError } from '../../ui/form-error.js';
import { TextAreaField } from '../../ui/form-field.js';
import { providerKeys } from '../provider-queries.js';
import { kubeconfigAnchor } from './agent-anchors.js';
import { peeringStatus } from './agent-status.js';

/**
 * The agent cluster's kubeconfig for the control plane (what `nr` uploads at inbound peering), pasted or
 * read from a file. The control plane keeps it sealed and checks it at once; the card shows the outcome.
 */
export function AgentKubeconfigForm({ agent }: { readonly agent: Agent }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { announce } = useAnnouncer();
  const anchor = kubeconfigAnchor(agent.id);
  const [kubeconfig, setKubeconfig] = useState('');
  const [error, setError] = useState<string>();
  const upload = useMutation({
    mutationFn: (text: string) =>
      api.post<Pick<Agent, 'inboundPeeringState' | 'inboundPeeringError'>>(
        apiPath`/v1/agents/${agent.id}:uploadInboundPeeringConfig`,
        { kubeconfig: text },
      ),
    onSuccess: async (status) => {
      setKubeconfig('');
      announce(`Kubeconfig of ${agent.name} uploaded: ${peeringStatus(status).label}.`);
      await queryClient.invalidateQueries({ queryKey: providerKeys.agents });
    },
  });
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    if (kubeconfig.trim() === '') {
      setError('Paste the kubeconfig, or choose its file.');
      return;
    }
    setError(undefined);
    upload.mutate(kubeconfig);
  };
  const readFile = async (file: File | undefined) => {
    if (file !== undefined) setKubeconfig(await file.text());
  };
  const formName = `Upload the kubeconfig of ${agent.name}`;
  return (
    <details id={anchor} className="subform" open={window.location.hash === `#${anchor}`}>
      <summary>Upload kubeconfig</summary>
      <form onSubmit={submit} noValidate aria-label={formName}>
        <p className="muted">
          The kubeconfig of the agent cluster&apos;s <code>noderings-control-plane</code> service account, as{' '}
          <code>nr</code> uploads it when it peers. Replacing it is safe: it is checked before orders use it.
        </p>
        <FormError error={upload.error} fields={['kubeconfig']} />
        <TextAreaField
          label="Kubeconfig"
          rows={8}
          spellCheck={false}
          value={kubeconfig}
          onChange={(e) => {
            setKubeconfig(e.target.value);
          }}
          error={error ?? fieldErrorsOf(upload.error).kubeconfig}
          required
        />
        <div className="field">
          <label htmlFor={`${anchor}-file`}>Or read it from a file</label>
          <input
            id={`${anchor}-file`}
            type="file"
            accept=".yaml,.yml,.json,.conf,text/yaml,application/json"
            onChange={(e) => {
              void readFile(e.target.files?.[0]);
            }}
          />
        </div>
        <button type="submit" disabled={upload.isPending}>
          {upload.isPending ? 'Checking…' : 'Upload and check'}
        </button>
      </form>
    </details>
  );
}
