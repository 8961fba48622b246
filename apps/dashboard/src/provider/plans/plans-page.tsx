import { useQueryClient } from '@tanstack/react-query';

import { apiPath } from '../../api/api-client.js';
import type { Plan, PlanPreflight, Region } from '../../api/api-resources.js';
import { useApi } from '../../auth/session-context.js';
import { billingPeriodName } from '../../format/display-names.js';
import { formatMoney } from '../../format/money.js';
import { useAnnouncer } from '../../ui/announcer.js';
import { ConfirmButton } from '../../ui/confirm-button.js';
import { Page, Section } from '../../ui/page.js';
import { EmptyState, QueriesState } from '../../ui/query-state.js';
import { StatusBadge } from '../../ui/status-badge.js';
import { TableScroll } from '../../ui/table-scroll.js';
import { specsLabel } from '../../customer/marketplace/marketplace-search.js';
import { providerKeys, usePlans, usePreflight, useRegions } from '../provider-queries.js';
import { CreatePlanForm } from './create-plan-form.js';
import { PreflightTree } from './preflight-tree.js';

export function PlansPage() {
  const plans = usePlans();
  const preflight = usePreflight();
  const regions = useRegions();
  return (
    <Page
      title="Plans and preflight"
      description="A plan is a VM size with its price, sold in the regions you choose on their nodes you choose. It is listed on the marketplace in each region where preflight passes on at least one node."
    >
      <QueriesState queries={[plans, preflight, regions]} loadingLabel="Loading plans…">
        {(planList, checks, regionList) => (
          <>
            <Section title="Plans" id="plans">
              <PlansTable plans={planList} preflight={checks.plans} regions={regionList} />
            </Section>
            <Section title="Preflight" id="preflight">
              <p className="muted">
                {checks.marketplaceReadyCheckEnabled
                  ? `Checks run after every change and every ${checks.marketplaceReadyCheckIntervalSeconds} s; this page reads them again every 30 s.`
                  : 'Checks run after every change.'}
              </p>
              {checks.plans.length === 0 ? (
                <EmptyState>
                  <p>Preflight runs once you have a plan.</p>
                </EmptyState>
              ) : (
                checks.plans.map((p) => <PreflightTree key={p.planId} preflight={p} />)
              )}
            </Section>
            <CreatePlanForm regions={regionList} currency={planList[0]?.planPrices[0]?.currency} />
          </>
        )}
      </QueriesState>
    </Page>
  );
}

function PlansTable({
  plans,
  preflight,
  regions,
}: {
  readonly plans: readonly Plan[];
  readonly preflight: readonly PlanPreflight[];
  readonly regions: readonly Region[];
}) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { announce } = useAnnouncer();
  const remove = async (plan: Plan) => {
    await api.delete(apiPath`/v1/plans/${plan.id}`);
    announce(`Plan ${plan.name} deleted.`);
    await queryClient.invalidateQueries({ queryKey: providerKeys.plans });
    await queryClient.invalidateQueries({ queryKey: providerKeys.preflight });
  };
  if (plans.length === 0)
    return (
      <EmptyState>
        <p>No plans yet. Create one below.</p>
      </EmptyState>
    );
  return (
    <TableScroll label="Plans">
      <table>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Code</th>
            <th scope="col">Size</th>
            <th scope="col">Price</th>
            <th scope="col">Region</th>
            <th scope="col">Nodes</th>
            <th scope="col">Listed</th>
            <th scope="col">Preflight</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {plans.map((plan) => {
            const check = preflight.find((p) => p.planId === plan.id);
            const planRegions = plan.regionIds.flatMap((id) => regions.find((r) => r.id === id) ?? []);
            return (
              <tr key={plan.id}>
                <th scope="row">{plan.name}</th>
                <td>
                  <code>{plan.code}</code>
                </td>
                <td>{specsLabel(plan)}</td>
                <td>
                  {plan.planPrices
                    .map(
                      (p) =>
                        `${formatMoney(p.unitAmount, p.currency)} a ${billingPeriodName(p.billingPeriod)}`,
                    )
                    .join(', ')}
                </td>
                <td>
                  {planRegions.length === 0 ? '—' : planRegions.map((r) => r.cityCountry.cityName).join(', ')}
                </td>
                <td>{plan.nodeIds.length}</td>
                <td>{plan.isPublic ? 'Public' : 'Private'}</td>
                <td>
                  {check === undefined ? (
                    'Not evaluated yet'
                  ) : (
                    <StatusBadge tone={check.marketplaceReady ? 'good' : 'bad'}>
                      {check.marketplaceReady ? 'Passed' : 'Failed'}
                    </StatusBadge>
                  )}
                </td>
                <td>
                  <ConfirmButton
                    className="button-danger button-small"
                    label={`Delete plan ${plan.name}`}
                    title={`Delete plan ${plan.name}?`}
                    body={<p>The plan leaves the marketplace. VMs already sold keep running.</p>}
                    confirmLabel="Delete plan"
                    onConfirm={() => remove(plan)}
                  >
                    Delete
                  </ConfirmButton>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableScroll>
  );
}
