import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type SubmitEvent } from 'react';

import { errorAt, fieldErrorsOf } from '../../api/api-error.js';
import type { AssignableNode, Plan, Region } from '../../api/api-resources.js';
import { useApi } from '../../auth/session-context.js';
import { SIZE_UNIT } from '../../format/bytes.js';
import { COMPUTE_TYPES, computeTypeName } from '../../format/display-names.js';
import { useAnnouncer } from '../../ui/announcer.js';
import { focusFirstInvalid } from '../../ui/focus-first-invalid.js';
import { FormError } from '../../ui/form-error.js';
import { CheckboxField, SelectField, TextField } from '../../ui/form-field.js';
import { hasErrors, type FieldErrors } from '../../ui/form-validation.js';
import { Section } from '../../ui/page.js';
import { providerKeys } from '../provider-queries.js';
import { NEW_PLAN, planRequest, validatePlan, type PlanValues } from './plan-form.js';

const FIELDS = [
  'name',
  'computeType',
  'computeCategory',
  'vcpus',
  'ramGb',
  'diskGb',
  'bandwidthAllowanceGb',
  'planPrices',
  'regionIds',
  'nodeIds',
  'isPublic',
];

export function CreatePlanForm({
  regions,
  currency,
}: {
  readonly regions: readonly Region[];
  /** The currency the provider already prices in, as the first guess. */
  readonly currency: string | undefined;
}) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { announce } = useAnnouncer();
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<PlanValues>({ ...NEW_PLAN, currency: currency ?? NEW_PLAN.currency });
  const [errors, setErrors] = useState<FieldErrors>({});
  // The assignable nodes of every chosen region, each with the region it sells in.
  const nodes = useQuery({
    queryKey: ['assignable-nodes', ...values.regionIds],
    queryFn: async () =>
      (
        await Promise.all(
          values.regionIds.map((regionId) =>
            api.get<{ nodes: AssignableNode[] }>('/v1/provider/plans/assignable-nodes', { regionId }),
          ),
        )
      ).flatMap((answer) => answer.nodes),
    enabled: values.regionIds.length > 0,
  });
  const regionName = (id: string) => {
    const region = regions.find((r) => r.id === id);
    return region === undefined ? id : region.cityCountry.cityName;
  };
  const create = useMutation({
    mutationFn: (body: ReturnType<typeof planRequest>) => api.post<{ plan: Plan }>('/v1/plans', body),
    onSuccess: async ({ plan }) => {
      announce(`Plan ${plan.name} created as ${plan.code}. Preflight runs now.`);
      setValues({
        ...NEW_PLAN,
        currency: values.currency,
        regionIds: values.regionIds,
        nodeIds: values.nodeIds,
      });
      await queryClient.invalidateQueries({ queryKey: providerKeys.plans });
      await queryClient.invalidateQueries({ queryKey: providerKeys.preflight });
    },
  });
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const found = validatePlan(
      values,
      new Map((nodes.data ?? []).map((n) => [n.id, n.regionId])),
      regionName,
    );
    setErrors(found);
    if (hasErrors(found)) focusFirstInvalid(formRef.current);
    else create.mutate(planRequest(values));
  };
  const apiErrors = fieldErrorsOf(create.error);
  const text = (
    key: 'name' | 'vcpus' | 'ramGb' | 'diskGb' | 'bandwidthAllowanceGb' | 'monthlyPrice' | 'currency',
    label: string,
    hint?: string,
  ) => (
    <TextField
      label={label}
      hint={hint}
      inputMode={
        key === 'name' || key === 'currency' ? undefined : key === 'monthlyPrice' ? 'decimal' : 'numeric'
      }
      value={values[key]}
      onChange={(e) => {
        setValues({ ...values, [key]: e.target.value });
      }}
      error={
        errors[key] ??
        (key === 'monthlyPrice' || key === 'currency' ? errorAt(apiErrors, 'planPrices') : apiErrors[key])
      }
      required
    />
  );
  const dedicated = values.computeCategory === 'COMPUTE_CATEGORY_DEDICATED_COMPUTE';
  return (
    <Section title="Create a plan" id="create-plan">
      <form ref={formRef} onSubmit={submit} noValidate aria-label="Create plan">
        <FormError error={create.error} fields={FIELDS} />
        <div className="filter-grid">
          {text('name', 'Plan name')}
          <SelectField
            label="Compute type"
            value={values.computeType}
            options={COMPUTE_TYPES.map((t) => ({ value: t, label: computeTypeName(t) }))}
            onChange={(e) => {
              setValues({ ...values, computeType: e.target.value });
            }}
            error={apiErrors.computeType}
          />
          <SelectField
            label="Compute category"
            value={values.computeCategory}
            options={[
              { value: 'COMPUTE_CATEGORY_SHARED_COMPUTE', label: 'Shared vCPUs' },
              {
                value: 'COMPUTE_CATEGORY_DEDICATED_COMPUTE',
                label: 'Dedicated vCPUs (dedicated nodes only)',
              },
            ]}
            onChange={(e) => {
              setValues({ ...values, computeCategory: e.target.value, nodeIds: [] });
            }}
            error={apiErrors.computeCategory}
          />
          {text('vcpus', 'vCPUs')}
          {text('ramGb', `Memory (${SIZE_UNIT})`)}
          {text('diskGb', `Disk (${SIZE_UNIT})`)}
          {text('bandwidthAllowanceGb', `Traffic allowance per month (${SIZE_UNIT})`, '0 for unlimited.')}
          {text('monthlyPrice', 'Monthly price')}
          {text('currency', 'Currency')}
        </div>
        <fieldset
          className="field choice-group"
          aria-invalid={
            (errors.regionIds ?? errorAt(apiErrors, 'regionIds')) === undefined ? undefined : true
          }
        >
          <legend>Regions</legend>
          {regions.length === 0 ? (
            <p>Create a region first.</p>
          ) : (
            regions.map((r) => (
              <div className="choice" key={r.id}>
                <input
                  type="checkbox"
                  id={`plan-region-${r.id}`}
                  checked={values.regionIds.includes(r.id)}
                  onChange={(e) => {
                    const regionIds = e.target.checked
                      ? [...values.regionIds, r.id]
                      : values.regionIds.filter((id) => id !== r.id);
                    // Nodes of a region left out go with it.
                    const kept = new Set(
                      (nodes.data ?? []).filter((n) => regionIds.includes(n.regionId)).map((n) => n.id),
                    );
                    setValues({ ...values, regionIds, nodeIds: values.nodeIds.filter((id) => kept.has(id)) });
                  }}
                />
                <label htmlFor={`plan-region-${r.id}`}>
                  {`${r.cityCountry.cityName}, ${r.cityCountry.countryName} (${r.datacenter.name})`}
                </label>
              </div>
            ))
          )}
          <p className="field-hint">The plan sells in every region chosen, on that region’s nodes.</p>
          {(errors.regionIds ?? errorAt(apiErrors, 'regionIds')) !== undefined && (
            <p className="field-error">{errors.regionIds ?? errorAt(apiErrors, 'regionIds')}</p>
          )}
        </fieldset>
        {values.regionIds.length > 0 && (
          <fieldset
            className="field choice-group"
            aria-invalid={(errors.nodeIds ?? errorAt(apiErrors, 'nodeIds')) === undefined ? undefined : true}
          >
            <legend>Nodes</legend>
            {nodes.data === undefined ? (
              <p>
                {nodes.error === null
                  ? 'Loading the regions’ nodes…'
                  : 'The regions’ nodes could not be read.'}
              </p>
            ) : nodes.data.length === 0 ? (
              <p>No node is in these regions yet.</p>
            ) : (
              nodes.data.map((n) => {
                const wrongType = dedicated !== (n.computeType === 'NODE_COMPUTE_TYPE_DEDICATED');
                return (
                  <div className="choice" key={n.id}>
                    <input
                      type="checkbox"
                      id={`plan-node-${n.id}`}
                      checked={values.nodeIds.includes(n.id)}
                      onChange={(e) => {
                        setValues({
                          ...values,
                          nodeIds: e.target.checked
                            ? [...values.nodeIds, n.id]
                            : values.nodeIds.filter((id) => id !== n.id),
                        });
                      }}
                    />
                    <label htmlFor={`plan-node-${n.id}`}>
                      {n.name}
                      {values.regionIds.length > 1 && ` (${regionName(n.regionId)})`}
                      {wrongType && ` (a ${dedicated ? 'shared' : 'dedicated'} node: preflight will fail)`}
                    </label>
                  </div>
                );
              })
            )}
            {(errors.nodeIds ?? errorAt(apiErrors, 'nodeIds')) !== undefined && (
              <p className="field-error">{errors.nodeIds ?? errorAt(apiErrors, 'nodeIds')}</p>
            )}
          </fieldset>
        )}
        <CheckboxField
          label="List on the marketplace (public)"
          checked={values.isPublic}
          onChange={(e) => {
            setValues({ ...values, isPublic: e.target.checked });
          }}
        />
        <button type="submit" disabled={create.isPending}>
          Create plan
        </button>
      </form>
    </Section>
  );
}
