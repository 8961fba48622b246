import { lookup } from 'node:dns';
import { isIP } from 'node:net';

import { parseIpAddress, publicAddressProblem } from '@noderings/domain';
import { KubeClient, type DnsLookup } from '@noderings/kube';

/** The server the control plane was asked to dial is, or resolves to, an address that is not public. */
export class NonPublicDestinationError extends Error {}

function refuseNonPublic(address: string, host: string): void {
  if (publicAddressProblem(parseIpAddress(address, 'address')) !== undefined)
    throw new NonPublicDestinationError(`${host} is not a public address`);
}

/**
 * Resolves a host name and refuses it unless every address is public; the connection then goes to those
 * checked addresses, so a DNS server answering differently the second time (rebinding) changes nothing.
 * An address literal (which KubeClient passes before dialling it) is refused unless it is public.
 */
const publicDestinationLookup: DnsLookup = (origin, _options, callback) => {
  const host = origin.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host) !== 0) {
    try {
      refuseNonPublic(host, host);
    } catch (e: unknown) {
      callback(e as NodeJS.ErrnoException, []);
      return;
    }
    callback(null, [{ address: host, family: isIP(host) === 6 ? 6 : 4, ttl: 0 }]);
    return;
  }
  lookup(origin.hostname, { all: true }, (err, addresses) => {
    if (err !== null) {
      callback(err, []);
      return;
    }
    try {
      for (const a of addresses) refuseNonPublic(a.address, origin.hostname);
    } catch (e: unknown) {
      callback(e as NodeJS.ErrnoException, []);
      return;
    }
    callback(
      null,
      addresses.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4, ttl: 0 })),
    );
  });
};

/**
 * The one way the control plane makes a client for an agent cluster from its stored kubeconfig: unless
 * `allowPrivateDestinations` (development), every request and watch dials only public addresses, checked
 * at each connection (a kubeconfig written past the upload's check, or a name whose DNS answer changed
 * since, reaches nothing private).
 */
export function agentKubeClient(
  kubeconfigYaml: string,
  options: { readonly allowPrivateDestinations: boolean },
): KubeClient {
  return new KubeClient(
    { kubeconfigYaml },
    options.allowPrivateDestinations ? {} : { lookup: publicDestinationLookup },
  );
}
