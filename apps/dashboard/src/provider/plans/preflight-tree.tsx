import { Link } from 'react-router';

import type { PlanPreflight, PreflightChain, PreflightCheck } from '../../api/api-resources.js';
import { formatDateTime } from '../../format/dates.js';
import { StatusBadge } from '../../ui/status-badge.js';
import { FIXABLE_PLAN_CHECKS, PlanCheckFix } from './plan-check-fix.js';
import { remedyOf } from './preflight-remedy.js';
import { chainLabel, checkTitle, partitionChecks, passingChains } from './preflight-view.js';

type Chain = PreflightChain['agent'];

function CheckItem({
  check,
  chain,
  planId,
}: {
  readonly check: PreflightCheck;
  readonly chain?: Chain;
  /** Set for the plan's own checks, some of which are fixed here. */
  readonly planId?: string;
}) {
  // A failed check links to the page that fixes it; its sub-checks share the parent's link.
  const remedy = check.passed || chain === undefined ? undefined : remedyOf(check.code, chain);
  return (
    <li className={check.passed ? 'check check-passed' : 'check check-failed'}>
      <StatusBadge tone={check.passed ? 'good' : 'bad'}>{check.passed ? 'Passed' : 'Failed'}</StatusBadge>{' '}
      <strong>{checkTitle(check.code)}</strong>: {check.note}
      {remedy !== undefined && (
        <>
          {' '}
          <Link to={remedy.to}>{remedy.label}</Link>
        </>
      )}
      {!check.passed && planId !== undefined && FIXABLE_PLAN_CHECKS.has(check.code) && (
        <PlanCheckFix code={check.code} planId={planId} />
      )}
      {check.subChecks.length > 0 && !check.passed && (
        <ul className="check-list">
          {check.subChecks.map((s) => (
            <CheckItem key={s.code} check={s} />
          ))}
        </ul>
      )}
    </li>
  );
}

/** Failing checks in full; passing ones folded under a count, there if wanted. */
function CheckList({
  checks,
  subject,
  chain,
  planId,
}: {
  readonly checks: readonly PreflightCheck[];
  readonly subject: string;
  readonly planId?: string;
  /** The agent → platform → node path the checks are about; none for the plan's own. */
  readonly chain?: Chain;
}) {
  const { failed, passed } = partitionChecks(checks);
  return (
    <>
      {failed.length > 0 && (
        <ul className="check-list" aria-label={`Failed ${subject} checks`}>
          {failed.map((c) => (
            <CheckItem
              key={c.code}
              check={c}
              {...(chain !== undefined && { chain })}
              {...(planId !== undefined && { planId })}
            />
          ))}
        </ul>
      )}
      {passed.length > 0 && (
        <details>
          <summary>
            {passed.length} {subject} {passed.length === 1 ? 'check' : 'checks'} passed
          </summary>
          <ul className="check-list">
            {passed.map((c) => (
              <CheckItem key={c.code} check={c} />
            ))}
          </ul>
        </details>
      )}
    </>
  );
}

/** A plan's preflight: its own checks, then each agent → platform → node chain an order could take. */
export function PreflightTree({ preflight }: { readonly preflight: PlanPreflight }) {
  const headingId = `preflight-${preflight.planId}`;
  const ready = preflight.marketplaceReady;
  return (
    <section className="preflight" aria-labelledby={headingId}>
      <h3 id={headingId}>Preflight: {preflight.planName}</h3>
      <p>
        <span role="status" aria-label={`Preflight of ${preflight.planName}`}>
          <StatusBadge tone={ready ? 'good' : 'bad'}>
            {ready ? 'Marketplace ready' : 'Not marketplace ready'}
          </StatusBadge>
        </span>{' '}
        {preflight.summaryNote}
      </p>
      {preflight.summaryIssues.length > 0 && (
        <ul className="issues">
          {preflight.summaryIssues.map((issue) => (
            <li key={issue}>{issue}</li>
          ))}
        </ul>
      )}
      {preflight.summaryWarnings.length > 0 && (
        <ul className="warnings" aria-label={`Warnings for ${preflight.planName}`}>
          {preflight.summaryWarnings.map((warning) => (
            <li key={warning}>
              <StatusBadge tone="busy">Warning</StatusBadge> {warning}
            </li>
          ))}
        </ul>
      )}
      <p className="muted">
        <code>{preflight.planCode}</code> · {preflight.regionLabels.join('; ')} ·{' '}
        {passingChains(preflight.infrastructure)} of {preflight.infrastructure.length} nodes pass · evaluated{' '}
        {formatDateTime(preflight.evaluatedAt)}
      </p>
      <h4>Plan</h4>
      <CheckList checks={preflight.planChecks} subject="plan" planId={preflight.planId} />
      {preflight.infrastructure.map((chain) => (
        <div key={chain.agent.platform.node.id} className="chain">
          <h4>
            {chainLabel(chain)}{' '}
            <StatusBadge tone={chain.passed ? 'good' : 'bad'}>
              {chain.passed ? 'Passes' : 'Fails'}
            </StatusBadge>
          </h4>
          <CheckList checks={chain.agent.checks} subject="agent" chain={chain.agent} />
          <CheckList checks={chain.agent.platform.checks} subject="platform" chain={chain.agent} />
          <CheckList checks={chain.agent.platform.node.checks} subject="node" chain={chain.agent} />
        </div>
      ))}
    </section>
  );
}
