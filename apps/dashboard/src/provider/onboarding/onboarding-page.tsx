import { Link } from 'react-router';

import { useCurrentOrganization } from '../../auth/current-organization.js';
import { Page, Section } from '../../ui/page.js';
import { LoadError, Loading } from '../../ui/query-state.js';
import { StatusBadge } from '../../ui/status-badge.js';
import {
  useAgents,
  useCloudInitTemplates,
  useNetworks,
  useNodes,
  usePlans,
  usePlatforms,
  usePreflight,
  usePrefixes,
  useRegions,
  useVmTemplates,
} from '../provider-queries.js';
import { onboardingChecklist } from './onboarding-checklist.js';

/** The onboarding phases of seed 002 as a checklist derived from the API, each step linking to its page. */
export function OnboardingPage() {
  const { current } = useCurrentOrganization();
  const reads = {
    regions: useRegions(),
    agents: useAgents(),
    platforms: usePlatforms(),
    nodes: useNodes(),
    networks: useNetworks(),
    prefixes: usePrefixes(),
    cloudInitTemplates: useCloudInitTemplates(),
    vmTemplates: useVmTemplates(),
    plans: usePlans(),
    preflight: usePreflight(),
  };
  const all = Object.values(reads);
  const failed = all.find((q) => q.error !== null);
  const {
    regions,
    agents,
    platforms,
    nodes,
    networks,
    prefixes,
    cloudInitTemplates,
    vmTemplates,
    plans,
    preflight,
  } = reads;

  let content;
  if (failed !== undefined) content = <LoadError error={failed.error} retry={() => void failed.refetch()} />;
  else if (
    regions.data === undefined ||
    agents.data === undefined ||
    platforms.data === undefined ||
    nodes.data === undefined ||
    networks.data === undefined ||
    prefixes.data === undefined ||
    cloudInitTemplates.data === undefined ||
    vmTemplates.data === undefined ||
    plans.data === undefined ||
    preflight.data === undefined
  )
    content = <Loading label="Checking your setup…" />;
  else {
    const steps = onboardingChecklist({
      organizationVerified: current?.isVerified === true,
      regions: regions.data,
      agents: agents.data,
      platforms: platforms.data,
      nodes: nodes.data,
      networks: networks.data,
      prefixes: prefixes.data,
      cloudInitTemplates: cloudInitTemplates.data,
      vmTemplates: vmTemplates.data,
      plans: plans.data,
      preflight: preflight.data.plans,
    });
    const done = steps.filter((s) => s.done).length;
    content = (
      <>
        <p role="status">
          {done} of {steps.length} steps done.
          {done === steps.length && ' Your plans are listed on the marketplace.'}
        </p>
        <ol className="checklist">
          {steps.map((step) => (
            <li key={step.id} className={step.done ? 'step step-done' : 'step'}>
              <h3>
                {step.title}{' '}
                <StatusBadge tone={step.done ? 'good' : 'neutral'}>
                  {step.done ? 'Done' : 'To do'}
                </StatusBadge>
              </h3>
              <p>{step.detail}</p>
              {step.link !== undefined && <Link to={step.link.to}>{step.link.label}</Link>}
            </li>
          ))}
        </ol>
      </>
    );
  }

  return (
    <Page
      title="Getting started"
      description="Work through these steps in order. When preflight passes for a plan, it appears in marketplace search."
    >
      <Section title="Onboarding checklist" id="checklist">
        {content}
      </Section>
    </Page>
  );
}
