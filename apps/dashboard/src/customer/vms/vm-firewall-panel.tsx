import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type SubmitEvent } from 'react';
import { Link } from 'react-router';

import { apiPath } from '../../api/api-client.js';
import { fieldErrorsOf, messageOf } from '../../api/api-error.js';
import type { FirewallRuleset, VirtualMachine } from '../../api/api-resources.js';
import { useApi } from '../../auth/session-context.js';
import { paths } from '../../shell/navigation.js';
import { useAnnouncer } from '../../ui/announcer.js';
import { FormError } from '../../ui/form-error.js';
import { SelectField, TextField } from '../../ui/form-field.js';
import { hasErrors, type FieldErrors } from '../../ui/form-validation.js';
import { Section } from '../../ui/page.js';
import { QueryState } from '../../ui/query-state.js';
import { attachedRuleset } from '../firewall/attached-ruleset.js';
import { rulesetsQueryKey, useRulesets } from '../firewall/firewall-queries.js';
import { freeRulesetName, validateRulesetName } from '../firewall/ruleset-name.js';
import { RulesetRules } from '../firewall/ruleset-rules.js';

/**
 * The VM's firewall: the one ruleset attached to it (a VM has at most one) with its rules, or a way to
 * attach one.
 */
export function VmFirewallPanel({ vm }: { readonly vm: VirtualMachine }) {
  const rulesets = useRulesets();
  return (
    <Section title="Firewall" id="firewall">
      <QueryState query={rulesets} loadingLabel="Loading firewall rulesets…">
        {(data) => {
          const attached = attachedRuleset(vm, data.rulesets);
          return attached === undefined ? (
            <AttachRuleset vm={vm} rulesets={data.rulesets} />
          ) : (
            <AttachedRuleset vm={vm} ruleset={attached} />
          );
        }}
      </QueryState>
    </Section>
  );
}

function AttachedRuleset({
  vm,
  ruleset,
}: {
  readonly vm: VirtualMachine;
  readonly ruleset: FirewallRuleset;
}) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { announce } = useAnnouncer();
  const detach = useMutation({
    mutationFn: () =>
      api.post(apiPath`/v1/virtual-machines/${vm.id}:detach-firewall`, { rulesetId: ruleset.id }),
    onSuccess: async () => {
      announce(`Ruleset ${ruleset.name} detached from ${vm.hostname}.`);
      await queryClient.invalidateQueries({ queryKey: rulesetsQueryKey, exact: true });
    },
  });
  return (
    <>
      <p>
        Ruleset <Link to={paths.ruleset(ruleset.id)}>{ruleset.name}</Link> is attached to this VM
        {ruleset.attachedVmCount > 1 && ` and ${ruleset.attachedVmCount - 1} other VMs`}.{' '}
        <button
          type="button"
          className="button-secondary button-small"
          disabled={detach.isPending}
          onClick={() => {
            detach.mutate();
          }}
        >
          Detach ruleset
        </button>
      </p>
      {detach.error !== null && (
        <p className="form-error" role="alert">
          {messageOf(detach.error)}
        </p>
      )}
      <RulesetRules rulesetId={ruleset.id} rulesetName={ruleset.name} />
    </>
  );
}

function AttachRuleset({
  vm,
  rulesets,
}: {
  readonly vm: VirtualMachine;
  readonly rulesets: readonly FirewallRuleset[];
}) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { announce } = useAnnouncer();
  const [chosen, setChosen] = useState('');
  const [name, setName] = useState(() =>
    freeRulesetName(
      `${vm.hostname}-firewall`,
      rulesets.map((r) => r.name),
    ),
  );
  const [errors, setErrors] = useState<FieldErrors>({});

  const attach = useMutation({
    mutationFn: async (target: { rulesetId: string } | { name: string }) => {
      const rulesetId =
        'rulesetId' in target
          ? target.rulesetId
          : (
              await api.post<{ ruleset: FirewallRuleset }>('/v1/firewall/rulesets', {
                ruleset: { name: target.name },
              })
            ).ruleset.id;
      return api.post<{ ruleset: FirewallRuleset }>(apiPath`/v1/virtual-machines/${vm.id}:attach-firewall`, {
        rulesetId,
      });
    },
    onSuccess: ({ ruleset }) => {
      announce(`Ruleset ${ruleset.name} attached to ${vm.hostname}.`);
    },
    // A ruleset created before a refused attach must show up as an existing one.
    onSettled: () => queryClient.invalidateQueries({ queryKey: rulesetsQueryKey, exact: true }),
  });

  const attachExisting = (event: SubmitEvent) => {
    event.preventDefault();
    if (chosen === '') setErrors({ chosen: 'Choose a ruleset.' });
    else {
      setErrors({});
      attach.mutate({ rulesetId: chosen });
    }
  };
  const createAndAttach = (event: SubmitEvent) => {
    event.preventDefault();
    const found = validateRulesetName(name);
    setErrors(found);
    if (!hasErrors(found)) attach.mutate({ name });
  };
  const apiErrors = fieldErrorsOf(attach.error, 'ruleset');

  return (
    <>
      {!rulesets.some((r) => r.attachedVmIds.includes(vm.id)) && (
        <p>No firewall ruleset is attached to this VM: all traffic is allowed.</p>
      )}
      <FormError error={attach.error} fields={['name', 'rulesetId']} within="ruleset" />
      <div className="two-columns">
        {rulesets.length > 0 && (
          <form
            onSubmit={attachExisting}
            noValidate
            aria-label="Attach an existing ruleset"
            className="subform"
          >
            <SelectField
              label="Existing ruleset"
              value={chosen}
              placeholder="Choose a ruleset"
              options={rulesets.map((r) => ({ value: r.id, label: `${r.name} (${r.ruleCount} rules)` }))}
              onChange={(e) => {
                setChosen(e.target.value);
              }}
              error={errors.chosen ?? apiErrors.rulesetId}
            />
            <button type="submit" disabled={attach.isPending}>
              Attach ruleset
            </button>
          </form>
        )}
        <form
          onSubmit={createAndAttach}
          noValidate
          aria-label="Create a ruleset for this VM"
          className="subform"
        >
          <TextField
            label="New ruleset name"
            value={name}
            onChange={(e) => {
              setName(e.target.value);
            }}
            error={errors.name ?? apiErrors.name}
          />
          <button type="submit" disabled={attach.isPending}>
            Create and attach ruleset
          </button>
        </form>
      </div>
    </>
  );
}
