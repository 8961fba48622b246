import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type SubmitEvent } from 'react';
import { Link, useParams } from 'react-router';

import { apiPath } from '../../api/api-client.js';
import { fieldErrorsOf } from '../../api/api-error.js';
import type { CloudInitRender, CloudInitTemplate } from '../../api/api-resources.js';
import { useApi } from '../../auth/session-context.js';
import { paths } from '../../shell/navigation.js';
import { useAnnouncer } from '../../ui/announcer.js';
import { FormError } from '../../ui/form-error.js';
import { TextField } from '../../ui/form-field.js';
import { Page, Section } from '../../ui/page.js';
import { QueryState } from '../../ui/query-state.js';
import { providerKeys } from '../provider-queries.js';
import {
  CLOUD_INIT_DOCUMENTS,
  DOCUMENT_LABELS,
  documentProblems,
  type CloudInitDocument,
  type DocumentProblem,
} from './cloud-init-problems.js';
import { DocumentEditor } from './document-editor.js';

const HINTS: Readonly<Record<CloudInitDocument, string>> = {
  userData:
    'Starts with #cloud-config. Substitutions like {{ hostname }} and {{ ssh_authorized_keys }} are filled per VM.',
  vendorData: 'Optional.',
  networkData: 'Optional; empty lets NodeRings write the network configuration for the VM’s addresses.',
};

export function CloudInitTemplatePage() {
  const api = useApi();
  const { templateId = '' } = useParams();
  const template = useQuery({
    queryKey: [...providerKeys.cloudInitTemplates, templateId],
    queryFn: () =>
      api.get<{ cloudInitTemplate: CloudInitTemplate }>(apiPath`/v1/cloudinittemplate/${templateId}`),
  });
  return (
    <QueryState query={template} loadingLabel="Loading the template…">
      {({ cloudInitTemplate }) => <TemplateEditor key={cloudInitTemplate.id} template={cloudInitTemplate} />}
    </QueryState>
  );
}

function TemplateEditor({ template }: { readonly template: CloudInitTemplate }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { announce } = useAnnouncer();
  const [values, setValues] = useState({
    name: template.name,
    userData: template.userData,
    vendorData: template.vendorData,
    networkData: template.networkData,
    storage: template.storage,
  });
  const save = useMutation({
    mutationFn: () =>
      api.patch<{ cloudInitTemplate: CloudInitTemplate }>(apiPath`/v1/cloudinittemplate/${template.id}`, {
        ...values,
        name: values.name.trim(),
      }),
    onSuccess: async ({ cloudInitTemplate }) => {
      announce(`Template ${cloudInitTemplate.name} saved.`);
      await queryClient.invalidateQueries({ queryKey: providerKeys.cloudInitTemplates });
      await queryClient.invalidateQueries({ queryKey: providerKeys.preflight });
    },
  });
  const preview = useMutation({
    mutationFn: () =>
      api.post<CloudInitRender>(apiPath`/v1/cloudinittemplate/${template.id}:render`, {
        hostname: 'preview-1',
      }),
  });
  const readOnly = template.isTemplate;
  const problems = documentProblems(save.error).concat(documentProblems(preview.error));
  const problemsOf = (document: CloudInitDocument): DocumentProblem[] =>
    problems.filter((p) => p.document === document);
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const apiErrors = fieldErrorsOf(save.error);

  return (
    <Page
      title={readOnly ? `Seed: ${template.name}` : `Edit ${template.name}`}
      description={
        readOnly ? 'Seeds belong to NodeRings and cannot be edited: copy one to make it yours.' : undefined
      }
      actions={<Link to={paths.cloudInitTemplates}>All cloud-init templates</Link>}
    >
      {readOnly ? (
        <Section title="User data" id="seed-user-data">
          <pre className="code-block" tabIndex={0} aria-label="Seed user data">
            <code>{template.userData}</code>
          </pre>
        </Section>
      ) : (
        <form onSubmit={submit} noValidate aria-label="Edit cloud-init template">
          <FormError error={save.error} fields={['name', 'storage', ...CLOUD_INIT_DOCUMENTS]} />
          <TextField
            label="Template name"
            value={values.name}
            onChange={(e) => {
              setValues({ ...values, name: e.target.value });
            }}
            error={apiErrors.name}
            required
          />
          {CLOUD_INIT_DOCUMENTS.map((document) => (
            <DocumentEditor
              key={document}
              label={DOCUMENT_LABELS[document]}
              hint={HINTS[document]}
              rows={document === 'userData' ? 20 : 6}
              value={values[document]}
              onChange={(text) => {
                setValues({ ...values, [document]: text });
              }}
              problems={problemsOf(document)}
            />
          ))}
          <TextField
            label="Seed image storage"
            hint="The Proxmox storage the VM's NoCloud seed image is uploaded to, like local."
            value={values.storage}
            onChange={(e) => {
              setValues({ ...values, storage: e.target.value });
            }}
            error={apiErrors.storage}
          />
          <div className="button-row">
            <button type="submit" disabled={save.isPending}>
              {save.isPending ? 'Saving…' : 'Save template'}
            </button>
            <button
              type="button"
              className="button-secondary"
              disabled={preview.isPending}
              onClick={() => {
                preview.mutate();
              }}
            >
              Preview saved template
            </button>
          </div>
        </form>
      )}
      {!readOnly && (preview.data !== undefined || preview.error !== null) && (
        <Section title="Preview" id="preview">
          <FormError error={preview.error} fields={[...CLOUD_INIT_DOCUMENTS]} />
          {preview.data !== undefined && (
            <>
              <p role="status">Compiled for a sample VM named preview-1.</p>
              {preview.data.warnings.length > 0 && (
                <ul className="warnings">
                  {preview.data.warnings.map((w, i) => (
                    <li key={i}>
                      Line {w.line}
                      {w.key === '' ? '' : ` (${w.key})`}: {w.message}
                    </li>
                  ))}
                </ul>
              )}
              <pre className="code-block" tabIndex={0} aria-label="Compiled user data">
                <code>{preview.data.userData}</code>
              </pre>
            </>
          )}
        </Section>
      )}
    </Page>
  );
}
