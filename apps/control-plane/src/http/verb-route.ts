/**
 * A grpc-gateway action path (`/v1/agents/{id}:generateInstallCommand`) in Fastify's syntax. The id is
 * matched up to the colon, and `::` is a literal colon.
 */
export function verbRoute(resourcePath: `${string}/:id`, verb: string): string {
  return `${resourcePath}(^[^:/]+)::${verb}`;
}
