import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';

import { apiPath } from '../../api/api-client.js';
import type { FirewallRuleset } from '../../api/api-resources.js';
import { useApi } from '../../auth/session-context.js';
import { paths } from '../../shell/navigation.js';
import { useAnnouncer } from '../../ui/announcer.js';
import { ConfirmButton } from '../../ui/confirm-button.js';
import { Page, Section } from '../../ui/page.js';
import { QueryState } from '../../ui/query-state.js';
import { rulesetsQueryKey } from './firewall-queries.js';
import { RulesetRules } from './ruleset-rules.js';

export function RulesetPage() {
  const api = useApi();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { announce } = useAnnouncer();
  const { rulesetId = '' } = useParams();
  const ruleset = useQuery({
    queryKey: ['firewall-rulesets', rulesetId],
    queryFn: () => api.get<{ ruleset: FirewallRuleset }>(apiPath`/v1/firewall/rulesets/${rulesetId}`),
  });
  const remove = async (r: FirewallRuleset) => {
    // Attached rulesets are detached from their VMs first (force), as the dialog says.
    await api.delete(`${apiPath`/v1/firewall/rulesets/${r.id}`}?force=true`);
    announce(`Ruleset ${r.name} deleted.`);
    await queryClient.invalidateQueries({ queryKey: rulesetsQueryKey, exact: true });
    void navigate(paths.firewall);
  };
  return (
    <QueryState query={ruleset} loadingLabel="Loading the ruleset…">
      {({ ruleset: r }) => (
        <Page
          title={`Ruleset ${r.name}`}
          description={
            r.attachedVmHostnames.length === 0
              ? 'Attached to no VM.'
              : `Attached to ${r.attachedVmHostnames.join(', ')}.`
          }
          actions={
            <>
              <Link to={paths.firewall}>All rulesets</Link>
              <ConfirmButton
                title={`Delete ruleset ${r.name}?`}
                body={
                  <p>
                    {r.attachedVmCount > 0
                      ? `It is detached from ${r.attachedVmCount} VMs first, which then allow all traffic.`
                      : 'Its rules are deleted with it.'}
                  </p>
                }
                confirmLabel="Delete ruleset"
                onConfirm={() => remove(r)}
              >
                Delete ruleset
              </ConfirmButton>
            </>
          }
        >
          <Section title="Rules" id="rules">
            <RulesetRules rulesetId={r.id} rulesetName={r.name} />
          </Section>
        </Page>
      )}
    </QueryState>
  );
}
