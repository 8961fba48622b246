/**
 * A grpc-gateway action path (`/v1/agents/{id}:generateInstallCommand`) in Fastify's syntax. The id is
 * matched up to the colon, and `::` is a literal colon.
 */
export function verbRoute(resourcePath: `${string}/:id`, verb: string): string {
  return `${resourcePath}(^[^:/]+)::${verb}`;
}

/** A Fastify route path as the OpenAPI document spells it: `/v1/invitations/{id}:accept`. */
export function documentedPath(routePath: string): string {
  return routePath
    .replace(/\(\^\[\^:\/\]\+\)/g, '')
    .replace(/\/:(\w+)/g, '/{$1}')
    .replace(/::/g, ':');
}
