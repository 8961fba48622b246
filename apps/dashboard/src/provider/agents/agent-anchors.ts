/** Where on the agents page an agent's parts are, for links from other pages (preflight's remedies). */
export function agentAnchor(agentId: string): string {
  return `agent-${agentId}`;
}

/** The agent's kubeconfig upload, which opens when the page is reached at this anchor. */
export function kubeconfigAnchor(agentId: string): string {
  return `kubeconfig-${agentId}`;
}
