import { lookup } from 'node:dns';
import { isIP } from 'node:net';

import { parseIpAddress, publicAddressProblem } from '@noderings/domain';
import type { DnsLookup } from '@noderings/kube';

/** The server the control plane was asked to dial is, or resolves to, an address that is not public. */
export class NonPublicDestinationError extends Error {}

function refuseNonPublic(address: string, host: string): void {
  if (publicAddressProblem(parseIpAddress(address, 'address')) !== undefined)
    throw new NonPublicDestinationError(`${host} is not a public address`);
}

/**
 * Refuses a URL whose host is an address literal that is not public (a host name is checked at each
 * connection by `publicDestinationLookup`, which never sees literals).
 */
export function refuseNonPublicLiteral(url: string): void {
  const host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host) !== 0) refuseNonPublic(host, host);
}

/**
 * Resolves a host name and refuses it unless every address is public; the connection then goes to those
 * checked addresses, so a DNS server answering differently the second time (rebinding) changes nothing.
 */
export const publicDestinationLookup: DnsLookup = (origin, _options, callback) => {
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
