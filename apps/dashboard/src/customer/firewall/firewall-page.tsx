import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type SubmitEvent } from 'react';
import { Link } from 'react-router';

import { fieldErrorsOf } from '../../api/api-error.js';
import type { FirewallRuleset } from '../../api/api-resources.js';
import { useApi } from '../../auth/session-context.js';
import { paths } from '../../shell/navigation.js';
import { useAnnouncer } from '../../ui/announcer.js';
import { FormError } from '../../ui/form-error.js';
import { TextField } from '../../ui/form-field.js';
import { hasErrors, type FieldErrors } from '../../ui/form-validation.js';
import { Page, Section } from '../../ui/page.js';
import { EmptyState, QueryState } from '../../ui/query-state.js';
import { TableScroll } from '../../ui/table-scroll.js';
import { rulesetsQueryKey, useRulesets } from './firewall-queries.js';
import { validateRulesetName } from './ruleset-name.js';

export function FirewallPage() {
  const rulesets = useRulesets();
  return (
    <Page
      title="Firewall"
      description="Rulesets hold ordered rules; attach one to a VM on the VM's page. A VM without a ruleset allows all traffic."
    >
      <Section title="Rulesets" id="rulesets">
        <QueryState query={rulesets} loadingLabel="Loading rulesets…">
          {(data) =>
            data.rulesets.length === 0 ? (
              <EmptyState>
                <p>No rulesets yet.</p>
              </EmptyState>
            ) : (
              <TableScroll label="Rulesets">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col">Rules</th>
                      <th scope="col">Attached to</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.rulesets.map((r) => (
                      <tr key={r.id}>
                        <th scope="row">
                          <Link to={paths.ruleset(r.id)}>{r.name}</Link>
                        </th>
                        <td>{r.ruleCount}</td>
                        <td>
                          {r.attachedVmHostnames.length === 0 ? 'No VM' : r.attachedVmHostnames.join(', ')}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
            )
          }
        </QueryState>
        <CreateRulesetForm />
      </Section>
    </Page>
  );
}

function CreateRulesetForm() {
  const api = useApi();
  const queryClient = useQueryClient();
  const { announce } = useAnnouncer();
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const create = useMutation({
    mutationFn: (rulesetName: string) =>
      api.post<{ ruleset: FirewallRuleset }>('/v1/firewall/rulesets', { ruleset: { name: rulesetName } }),
    onSuccess: async ({ ruleset }) => {
      announce(`Ruleset ${ruleset.name} created.`);
      setName('');
      await queryClient.invalidateQueries({ queryKey: rulesetsQueryKey, exact: true });
    },
  });
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const found = validateRulesetName(name);
    setErrors(found);
    if (!hasErrors(found)) create.mutate(name);
  };
  return (
    <form onSubmit={submit} noValidate aria-label="Create ruleset" className="form-inline subform">
      <FormError error={create.error} fields={['name']} within="ruleset" />
      <TextField
        label="Ruleset name"
        value={name}
        onChange={(e) => {
          setName(e.target.value);
        }}
        error={errors.name ?? fieldErrorsOf(create.error, 'ruleset').name}
      />
      <button type="submit" disabled={create.isPending}>
        Create ruleset
      </button>
    </form>
  );
}
