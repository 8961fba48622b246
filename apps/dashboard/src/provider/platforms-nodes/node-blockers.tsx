import { useMutation, useQueryClient } from '@tanstack/react-query';

import { apiPath } from '../../api/api-client.js';
import { messageOf } from '../../api/api-error.js';
import type { HypervisorNode, Plan, VmTemplate } from '../../api/api-resources.js';
import { useApi } from '../../auth/session-context.js';
import { useAnnouncer } from '../../ui/announcer.js';
import { providerKeys, usePlans, useVmTemplates } from '../provider-queries.js';

/**
 * What keeps a node from being deleted, each with its remedy: the VM templates registered on it (deleted
 * here) and the plans that place VMs on it (the node is taken out of them here). Shown in the delete
 * dialog, where the refusal names them.
 */
export function NodeBlockers({ node }: { readonly node: Pick<HypervisorNode, 'id' | 'name'> }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { announce } = useAnnouncer();
  const templates = useVmTemplates();
  const plans = usePlans();
  const deleteTemplate = useMutation({
    mutationFn: (template: VmTemplate) => api.delete(apiPath`/v1/vmtemplate/${template.id}`),
    onSuccess: async (_, template) => {
      announce(`VM template ${template.name} deleted.`);
      await queryClient.invalidateQueries({ queryKey: providerKeys.vmTemplates });
      await queryClient.invalidateQueries({ queryKey: providerKeys.preflight });
    },
  });
  const leavePlan = useMutation({
    mutationFn: (plan: Plan) =>
      api.patch(apiPath`/v1/plans/${plan.id}`, { nodeIds: plan.nodeIds.filter((id) => id !== node.id) }),
    onSuccess: async (_, plan) => {
      announce(`${node.name} taken out of plan ${plan.name}.`);
      await queryClient.invalidateQueries({ queryKey: providerKeys.plans });
      await queryClient.invalidateQueries({ queryKey: providerKeys.preflight });
    },
  });
  if (templates.isPending || plans.isPending)
    return <p className="muted">Looking for what uses {node.name}…</p>;
  const onNode = (templates.data ?? []).filter((t) => t.nodeId === node.id);
  const placing = (plans.data ?? []).filter((p) => p.nodeIds.includes(node.id));
  const error = deleteTemplate.error ?? leavePlan.error;
  if (onNode.length === 0 && placing.length === 0)
    return <p>Nothing else uses {node.name}: it can be deleted.</p>;
  return (
    <>
      <p>{node.name} can be deleted once no VM template is registered on it and no plan places VMs on it:</p>
      {onNode.length > 0 && (
        <ul className="inline-list" aria-label={`VM templates on ${node.name}`}>
          {onNode.map((t) => (
            <li key={t.id}>
              {t.name}{' '}
              <button
                type="button"
                className="button-secondary button-small"
                disabled={deleteTemplate.isPending}
                aria-label={`Delete VM template ${t.name}`}
                onClick={() => {
                  deleteTemplate.mutate(t);
                }}
              >
                Delete
              </button>
            </li>
          ))}
        </ul>
      )}
      {placing.length > 0 && (
        <ul className="inline-list" aria-label={`Plans on ${node.name}`}>
          {placing.map((p) => (
            <li key={p.id}>
              {p.name}{' '}
              {p.nodeIds.length > 1 ? (
                <button
                  type="button"
                  className="button-secondary button-small"
                  disabled={leavePlan.isPending}
                  aria-label={`Take ${node.name} out of plan ${p.name}`}
                  onClick={() => {
                    leavePlan.mutate(p);
                  }}
                >
                  Take out
                </button>
              ) : (
                <span className="muted">(its only node: delete the plan on the plans page)</span>
              )}
            </li>
          ))}
        </ul>
      )}
      {error !== null && (
        <p className="form-error" role="alert">
          {messageOf(error)}
        </p>
      )}
    </>
  );
}
