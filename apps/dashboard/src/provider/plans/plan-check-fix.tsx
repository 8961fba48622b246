import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type SubmitEvent } from 'react';

import { apiPath } from '../../api/api-client.js';
import { fieldErrorsOf, messageOf } from '../../api/api-error.js';
import type { Plan, PlanChange } from '../../api/api-resources.js';
import { useApi } from '../../auth/session-context.js';
import { billingPeriodName } from '../../format/display-names.js';
import { useAnnouncer } from '../../ui/announcer.js';
import { TextField } from '../../ui/form-field.js';
import { providerKeys, usePlans } from '../provider-queries.js';

/** The plan checks whose remedy is a change to the plan itself, made right where the check fails. */
export const FIXABLE_PLAN_CHECKS = new Set(['PLAN_PRICED', 'PLAN_PUBLIC']);

const AMOUNT = /^\d{1,12}(\.\d{1,6})?$/;

function usePlanUpdate(plan: Plan, done: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { announce } = useAnnouncer();
  return useMutation({
    mutationFn: (change: Pick<PlanChange, 'isPublic' | 'planPrices'>) =>
      api.patch(apiPath`/v1/plans/${plan.id}`, change),
    onSuccess: async () => {
      announce(done);
      await queryClient.invalidateQueries({ queryKey: providerKeys.plans });
      await queryClient.invalidateQueries({ queryKey: providerKeys.preflight });
    },
  });
}

function ListPublicly({ plan }: { readonly plan: Plan }) {
  const update = usePlanUpdate(
    plan,
    `${plan.name} is public: the marketplace lists it once preflight passes.`,
  );
  return (
    <div className="button-row">
      <button
        type="button"
        className="button-small"
        disabled={update.isPending}
        onClick={() => {
          update.mutate({ isPublic: true });
        }}
      >
        List {plan.name} on the marketplace
      </button>
      {update.error !== null && (
        <p className="form-error" role="alert">
          {messageOf(update.error)}
        </p>
      )}
    </div>
  );
}

function SetPrice({ plan }: { readonly plan: Plan }) {
  const [first, ...others] = plan.planPrices;
  const [amount, setAmount] = useState('');
  const [error, setError] = useState<string>();
  const update = usePlanUpdate(plan, `${plan.name} has a price.`);
  if (first === undefined) return null;
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const text = amount.trim();
    if (!AMOUNT.test(text) || Number(text) <= 0) {
      setError(`Enter a price above zero in ${first.currency}, like 4.50.`);
      return;
    }
    setError(undefined);
    // The prices as PATCH takes them: without the ids the answer gave them.
    const price = (p: Plan['planPrices'][number], unitAmount: string) => ({
      billingPeriod: p.billingPeriod,
      currency: p.currency,
      unitAmount,
    });
    update.mutate({ planPrices: [price(first, text), ...others.map((p) => price(p, p.unitAmount))] });
  };
  const apiError =
    update.error === null
      ? undefined
      : (fieldErrorsOf(update.error)['planPrices.0.unitAmount'] ?? messageOf(update.error));
  return (
    <form onSubmit={submit} noValidate aria-label={`Price ${plan.name}`} className="button-row">
      <TextField
        label={`Price a ${billingPeriodName(first.billingPeriod)} (${first.currency})`}
        inputMode="decimal"
        value={amount}
        onChange={(e) => {
          setAmount(e.target.value);
        }}
        error={error ?? apiError}
      />
      <button type="submit" className="button-small" disabled={update.isPending}>
        Set the price
      </button>
    </form>
  );
}

/** What fixes a failed plan check, beside it: list the plan publicly, or give it a price. */
export function PlanCheckFix({ code, planId }: { readonly code: string; readonly planId: string }) {
  const plans = usePlans();
  const plan = plans.data?.find((p) => p.id === planId);
  if (plan === undefined) return null;
  if (code === 'PLAN_PUBLIC') return <ListPublicly plan={plan} />;
  if (code === 'PLAN_PRICED') return <SetPrice plan={plan} />;
  return null;
}
