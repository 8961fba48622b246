import { useMutation, useQueries, useQueryClient } from '@tanstack/react-query';
import { useState, type SubmitEvent } from 'react';

import { apiPath } from '../../api/api-client.js';
import { messageOf } from '../../api/api-error.js';
import type { HypervisorNode, IpamNetwork, IpamPrefix, PrefixUtilization } from '../../api/api-resources.js';
import { useApi } from '../../auth/session-context.js';
import { enumName } from '../../format/display-names.js';
import { useAnnouncer } from '../../ui/announcer.js';
import { ConfirmButton } from '../../ui/confirm-button.js';
import { Page, Section } from '../../ui/page.js';
import { EmptyState, QueriesState } from '../../ui/query-state.js';
import { TableScroll } from '../../ui/table-scroll.js';
import { providerKeys, useNetworks, useNodes, usePrefixes } from '../provider-queries.js';
import { CreateNetworkForm, CreatePrefixForm } from './ipam-forms.js';
import { formatPercent, utilizationSentence } from './prefix-utilization.js';

export function IpamPage() {
  const networks = useNetworks();
  const prefixes = usePrefixes();
  const nodes = useNodes();
  return (
    <Page
      title="IPAM"
      description="Networks hold the prefixes VMs get addresses from; assign each network to the nodes it serves. Dual stack: an IPv4 and an IPv6 prefix per network."
    >
      <QueriesState queries={[networks, prefixes, nodes]} loadingLabel="Loading networks…">
        {(networkList, prefixList, nodeList) => (
          <>
            <Section title="Networks" id="networks">
              {networkList.length === 0 ? (
                <EmptyState>
                  <p>No networks yet. Create one below.</p>
                </EmptyState>
              ) : (
                <ul className="card-list card-list-wide">
                  {networkList.map((n) => (
                    <NetworkCard key={n.id} network={n} nodes={nodeList} />
                  ))}
                </ul>
              )}
            </Section>
            <Section title="Prefixes" id="prefixes">
              <PrefixTable prefixes={prefixList} networks={networkList} />
            </Section>
            <div className="two-columns">
              <CreateNetworkForm />
              <CreatePrefixForm networks={networkList} />
            </div>
          </>
        )}
      </QueriesState>
    </Page>
  );
}

function NetworkCard({
  network,
  nodes,
}: {
  readonly network: IpamNetwork;
  readonly nodes: readonly HypervisorNode[];
}) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { announce } = useAnnouncer();
  const [chosen, setChosen] = useState<readonly string[]>([]);
  const assigned = new Set(network.nodes.map((n) => n.id));
  const free = nodes.filter((n) => !assigned.has(n.id));
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: providerKeys.networks });
    await queryClient.invalidateQueries({ queryKey: providerKeys.preflight });
  };
  const assign = useMutation({
    mutationFn: (nodeIds: readonly string[]) =>
      api.post(apiPath`/v1/ipam/networks/${network.id}/assign-node`, { nodeIds }),
    onSuccess: async () => {
      announce(`Nodes assigned to ${network.name}.`);
      setChosen([]);
      await refresh();
    },
  });
  const unassign = useMutation({
    mutationFn: (nodeId: string) => api.post(apiPath`/v1/ipam/nodes/${nodeId}/unassign-network`),
    onSuccess: async () => {
      announce(`Node unassigned from ${network.name}.`);
      await refresh();
    },
  });
  const remove = async () => {
    await api.delete(apiPath`/v1/ipam/networks/${network.id}`);
    announce(`Network ${network.name} deleted.`);
    await refresh();
  };
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    if (chosen.length > 0) assign.mutate(chosen);
  };
  const headingId = `network-${network.id}`;
  const error = assign.error ?? unassign.error;
  return (
    <li className="card" aria-labelledby={headingId}>
      <h3 id={headingId}>Network {network.name}</h3>
      <dl className="facts">
        <dt>DNS servers</dt>
        <dd>{network.dnsServers.length === 0 ? 'None' : network.dnsServers.join(', ')}</dd>
        <dt>MAC prefix</dt>
        <dd>{network.macAddressPrefix === '' ? 'The node’s' : <code>{network.macAddressPrefix}</code>}</dd>
        <dt>Nodes</dt>
        <dd>
          {network.nodes.length === 0 ? (
            'None: assign the nodes this network serves.'
          ) : (
            <ul className="inline-list">
              {network.nodes.map((n) => (
                <li key={n.id}>
                  {n.name}{' '}
                  <button
                    type="button"
                    className="button-secondary button-small"
                    aria-label={`Unassign ${n.name} from ${network.name}`}
                    disabled={unassign.isPending}
                    onClick={() => {
                      unassign.mutate(n.id);
                    }}
                  >
                    Unassign
                  </button>
                </li>
              ))}
            </ul>
          )}
        </dd>
      </dl>
      {error !== null && (
        <p className="form-error" role="alert">
          {messageOf(error)}
        </p>
      )}
      {free.length > 0 && (
        <form onSubmit={submit} aria-label={`Assign nodes to ${network.name}`} className="subform">
          <fieldset className="field choice-group">
            <legend>Assign nodes</legend>
            {free.map((n) => (
              <div className="choice" key={n.id}>
                <input
                  type="checkbox"
                  id={`${network.id}-${n.id}`}
                  checked={chosen.includes(n.id)}
                  onChange={(e) => {
                    setChosen(e.target.checked ? [...chosen, n.id] : chosen.filter((id) => id !== n.id));
                  }}
                />
                <label htmlFor={`${network.id}-${n.id}`}>{n.name}</label>
              </div>
            ))}
          </fieldset>
          <button type="submit" disabled={chosen.length === 0 || assign.isPending}>
            Assign nodes to {network.name}
          </button>
        </form>
      )}
      <ConfirmButton
        className="button-danger button-small"
        label={`Delete network ${network.name}`}
        title={`Delete network ${network.name}?`}
        body={<p>Networks with nodes or prefixes in use cannot be deleted.</p>}
        confirmLabel="Delete network"
        onConfirm={remove}
      >
        Delete network
      </ConfirmButton>
    </li>
  );
}

function PrefixTable({
  prefixes,
  networks,
}: {
  readonly prefixes: readonly IpamPrefix[];
  readonly networks: readonly IpamNetwork[];
}) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { announce } = useAnnouncer();
  const utilization = useQueries({
    queries: prefixes.map((p) => ({
      queryKey: [...providerKeys.prefixes, p.id, 'utilization'],
      queryFn: () => api.get<PrefixUtilization>(apiPath`/v1/ipam/prefixes/${p.id}/utilization`),
    })),
  });
  const remove = async (prefix: IpamPrefix) => {
    await api.delete(apiPath`/v1/ipam/prefixes/${prefix.id}`);
    announce(`Prefix ${prefix.cidr} deleted.`);
    await queryClient.invalidateQueries({ queryKey: providerKeys.prefixes });
  };
  if (prefixes.length === 0)
    return (
      <EmptyState>
        <p>No prefixes yet. Add an IPv4 prefix (and an IPv6 one) to a network below.</p>
      </EmptyState>
    );
  return (
    <TableScroll label="Prefixes">
      <table>
        <thead>
          <tr>
            <th scope="col">Prefix</th>
            <th scope="col">Network</th>
            <th scope="col">Gateway</th>
            <th scope="col">Allocation</th>
            <th scope="col">Utilization</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {prefixes.map((p, i) => {
            const u = utilization[i];
            return (
              <tr key={p.id}>
                <th scope="row">
                  <code>{p.cidr}</code>
                  {p.description !== '' && <div className="muted">{p.description}</div>}
                </th>
                <td>{networks.find((n) => n.id === p.networkId)?.name ?? 'None'}</td>
                <td>
                  <code>{p.gateway}</code>
                </td>
                <td>
                  {enumName(p.allocationStrategy, 'ALLOCATION_STRATEGY_')}
                  {p.family === 'IP_FAMILY_IPV6' && ` · /${p.vmAssignmentPrefixLength} per VM`}
                </td>
                <td>
                  {u?.data !== undefined ? (
                    <>
                      <meter
                        min={0}
                        max={100}
                        value={u.data.utilizationPercent}
                        aria-label={`Utilization of ${p.cidr}`}
                      >
                        {formatPercent(u.data.utilizationPercent)}
                      </meter>{' '}
                      <span>{utilizationSentence(u.data)}</span>
                    </>
                  ) : u?.error !== null && u?.error !== undefined ? (
                    messageOf(u.error)
                  ) : (
                    'Loading…'
                  )}
                </td>
                <td>
                  <ConfirmButton
                    className="button-danger button-small"
                    label={`Delete prefix ${p.cidr}`}
                    title={`Delete prefix ${p.cidr}?`}
                    body={<p>Prefixes with allocated addresses cannot be deleted.</p>}
                    confirmLabel="Delete prefix"
                    onConfirm={() => remove(p)}
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
