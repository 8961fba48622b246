import { readFile } from 'node:fs/promises';
import { isIP } from 'node:net';

import { serviceEndpointsPath, type ServiceEndpoints } from './layout.js';

/** A Service has no serving process behind it (yet): a connection to it would be refused. */
export class NoEndpointsError extends Error {}

/**
 * `name.namespace.svc[.cluster.local]:port` (or `name:port` in `namespace`) as the loopback address the
 * pod runner published for that Service port. An IP address is returned as it is.
 */
export async function resolveServiceAddress(
  address: string,
  endpointsDir: string,
  namespace: string,
): Promise<string> {
  const colon = address.lastIndexOf(':');
  const host = address.slice(0, colon);
  const port = address.slice(colon + 1);
  if (colon < 0 || isIP(host.replace(/^\[|\]$/g, '')) !== 0) return address;
  const [service = '', ns = namespace] = host.split('.');
  const path = serviceEndpointsPath(endpointsDir, ns, service);
  let endpoints: ServiceEndpoints;
  try {
    endpoints = JSON.parse(await readFile(path, 'utf8')) as ServiceEndpoints;
  } catch (e: unknown) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT')
      throw new NoEndpointsError(`service ${ns}/${service} has no endpoints`);
    throw e;
  }
  const resolved = endpoints.ports[port];
  if (resolved === undefined) throw new NoEndpointsError(`service ${ns}/${service} has no port ${port}`);
  return resolved;
}
