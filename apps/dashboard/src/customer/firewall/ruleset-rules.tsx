import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type SubmitEvent } from 'react';

import { apiPath } from '../../api/api-client.js';
import { errorAt, fieldErrorsOf } from '../../api/api-error.js';
import type { FirewallRule } from '../../api/api-resources.js';
import { useApi } from '../../auth/session-context.js';
import { useAnnouncer } from '../../ui/announcer.js';
import { ConfirmButton } from '../../ui/confirm-button.js';
import { focusFirstInvalid } from '../../ui/focus-first-invalid.js';
import { FormError } from '../../ui/form-error.js';
import { SelectField, TextField } from '../../ui/form-field.js';
import { hasErrors, type FieldErrors } from '../../ui/form-validation.js';
import { EmptyState, QueryState } from '../../ui/query-state.js';
import { TableScroll } from '../../ui/table-scroll.js';
import { useRules, rulesetsQueryKey, rulesQueryKey } from './firewall-queries.js';
import {
  COMMON_PROTOCOLS,
  endpointLabel,
  NEW_RULE,
  protocolName,
  protocolTakesPorts,
  ruleRequest,
  RULE_FIELD_PATHS,
  ruleSummary,
  validateRule,
  type RuleValues,
} from './firewall-rule-form.js';

/** A ruleset's rules in order (the first that matches decides), with adding and deleting. */
export function RulesetRules({
  rulesetId,
  rulesetName,
}: {
  readonly rulesetId: string;
  readonly rulesetName: string;
}) {
  const rules = useRules(rulesetId);
  return (
    <>
      <QueryState query={rules} loadingLabel="Loading rules…">
        {(data) =>
          data.rules.length === 0 ? (
            <EmptyState>
              <p>This ruleset has no rules yet: all traffic is allowed.</p>
            </EmptyState>
          ) : (
            <RulesTable
              rules={[...data.rules].sort((a, b) => a.position - b.position)}
              rulesetId={rulesetId}
              rulesetName={rulesetName}
            />
          )
        }
      </QueryState>
      <AddRuleForm rulesetId={rulesetId} />
    </>
  );
}

function RulesTable({
  rules,
  rulesetId,
  rulesetName,
}: {
  readonly rules: readonly FirewallRule[];
  readonly rulesetId: string;
  readonly rulesetName: string;
}) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { announce } = useAnnouncer();
  const remove = async (rule: FirewallRule, number: number) => {
    await api.delete(apiPath`/v1/firewall/rules/${rule.id}`);
    announce(`Rule ${number} deleted.`);
    await queryClient.invalidateQueries({ queryKey: rulesQueryKey(rulesetId) });
    await queryClient.invalidateQueries({ queryKey: rulesetsQueryKey, exact: true });
  };
  return (
    <TableScroll label="Firewall rules">
      <table>
        <caption>Firewall rules of {rulesetName}, in the order they apply</caption>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Direction</th>
            <th scope="col">Action</th>
            <th scope="col">Protocol</th>
            <th scope="col">Source</th>
            <th scope="col">Destination</th>
            <th scope="col">Ports</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rules.map((rule, i) => (
            <tr key={rule.id}>
              <th scope="row">{i + 1}</th>
              <td>{rule.rule.direction === 'FIREWALL_DIRECTION_INGRESS' ? 'Inbound' : 'Outbound'}</td>
              <td>{rule.rule.action === 'FIREWALL_ACTION_ACCEPT' ? 'Accept' : 'Drop'}</td>
              <td>{protocolName(rule.rule.protocol)}</td>
              <td>{endpointLabel(rule.rule.source)}</td>
              <td>{endpointLabel(rule.rule.destination)}</td>
              <td>
                {rule.rule.destinationPorts ?? 'Any'}
                {rule.rule.sourcePorts !== undefined && ` (from port ${rule.rule.sourcePorts})`}
              </td>
              <td>
                <ConfirmButton
                  className="button-danger button-small"
                  label={`Delete rule ${i + 1}`}
                  title={`Delete rule ${i + 1}?`}
                  body={<p>{ruleSummary(rule.rule)}.</p>}
                  confirmLabel="Delete rule"
                  onConfirm={() => remove(rule, i + 1)}
                >
                  Delete
                </ConfirmButton>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

const FIELDS = Object.values(RULE_FIELD_PATHS);

function AddRuleForm({ rulesetId }: { readonly rulesetId: string }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { announce } = useAnnouncer();
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<RuleValues>(NEW_RULE);
  const [errors, setErrors] = useState<FieldErrors>({});
  const add = useMutation({
    mutationFn: (body: ReturnType<typeof ruleRequest>) =>
      api.post<{ rule: FirewallRule }>(apiPath`/v1/firewall/rulesets/${rulesetId}/rules`, body),
    onSuccess: async ({ rule }) => {
      announce(`Rule added: ${ruleSummary(rule.rule)}.`);
      setValues(NEW_RULE);
      await queryClient.invalidateQueries({ queryKey: rulesQueryKey(rulesetId) });
      await queryClient.invalidateQueries({ queryKey: rulesetsQueryKey, exact: true });
    },
  });
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const found = validateRule(values);
    setErrors(found);
    if (hasErrors(found)) focusFirstInvalid(formRef.current);
    else add.mutate(ruleRequest(values));
  };
  const apiErrors = fieldErrorsOf(add.error, 'rule');
  const errorOf = (field: keyof RuleValues) => errors[field] ?? errorAt(apiErrors, RULE_FIELD_PATHS[field]);
  const set = <K extends keyof RuleValues>(key: K, value: RuleValues[K]) => {
    setValues({ ...values, [key]: value });
  };
  const ports = protocolTakesPorts(values.protocol);
  return (
    <form ref={formRef} onSubmit={submit} noValidate aria-label="Add firewall rule" className="subform">
      <h3>Add a rule</h3>
      <FormError error={add.error} fields={FIELDS} within="rule" />
      <div className="filter-grid">
        <SelectField
          label="Direction"
          value={values.direction}
          options={[
            { value: 'FIREWALL_DIRECTION_INGRESS', label: 'Inbound' },
            { value: 'FIREWALL_DIRECTION_EGRESS', label: 'Outbound' },
          ]}
          onChange={(e) => {
            set(
              'direction',
              e.target.value === 'FIREWALL_DIRECTION_EGRESS'
                ? 'FIREWALL_DIRECTION_EGRESS'
                : 'FIREWALL_DIRECTION_INGRESS',
            );
          }}
          error={errorOf('direction')}
        />
        <SelectField
          label="Action"
          value={values.action}
          options={[
            { value: 'FIREWALL_ACTION_ACCEPT', label: 'Accept' },
            { value: 'FIREWALL_ACTION_DROP', label: 'Drop' },
          ]}
          onChange={(e) => {
            set(
              'action',
              e.target.value === 'FIREWALL_ACTION_DROP' ? 'FIREWALL_ACTION_DROP' : 'FIREWALL_ACTION_ACCEPT',
            );
          }}
          error={errorOf('action')}
        />
        <SelectField
          label="Protocol"
          value={values.protocol}
          options={COMMON_PROTOCOLS}
          onChange={(e) => {
            const protocol = e.target.value;
            // Ports mean nothing to other protocols; keeping them would only earn a refusal.
            setValues(
              protocolTakesPorts(protocol)
                ? { ...values, protocol }
                : { ...values, protocol, sourcePorts: '', destinationPorts: '' },
            );
          }}
          error={errorOf('protocol')}
        />
        <TextField
          label="Source addresses"
          hint="Addresses or prefixes, separated by commas. Empty: any."
          spellCheck={false}
          value={values.sourceIps}
          onChange={(e) => {
            set('sourceIps', e.target.value);
          }}
          error={errorOf('sourceIps')}
        />
        <TextField
          label="Destination addresses"
          hint="Empty: any."
          spellCheck={false}
          value={values.destinationIps}
          onChange={(e) => {
            set('destinationIps', e.target.value);
          }}
          error={errorOf('destinationIps')}
        />
        <TextField
          label="Destination port"
          hint={
            ports
              ? 'A port like 22 or a range like 8000-9000. Empty: any.'
              : 'Only for TCP, UDP, SCTP, DCCP and UDP-Lite.'
          }
          inputMode="numeric"
          disabled={!ports}
          value={values.destinationPorts}
          onChange={(e) => {
            set('destinationPorts', e.target.value);
          }}
          error={errorOf('destinationPorts')}
        />
        <TextField
          label="Source port"
          hint="Rarely needed. Empty: any."
          inputMode="numeric"
          disabled={!ports}
          value={values.sourcePorts}
          onChange={(e) => {
            set('sourcePorts', e.target.value);
          }}
          error={errorOf('sourcePorts')}
        />
      </div>
      <button type="submit" disabled={add.isPending}>
        {add.isPending ? 'Adding…' : 'Add rule'}
      </button>
    </form>
  );
}
