import { isIPv4 } from 'node:net';

import { parseIpAddress, publicAddressProblem, specialPurposeRangeOf, type Problem } from '@noderings/domain';

/**
 * Why an IPv4 address cannot be an agent's public address. An agent is reached there from the internet,
 * so only a public address will do; `allowNonPublic` (the development flag the sandbox sets) lets private
 * and documentation addresses through, never ones no network has (loopback, link-local, multicast, …).
 * Undefined for a good address, or for text that is no IPv4 address at all (the schema says so).
 */
export function agentPublicIpProblem(ip: string, options: { readonly allowNonPublic: boolean }): Problem {
  if (!isIPv4(ip)) return undefined;
  const address = parseIpAddress(ip, 'agentPublicIp');
  if (!options.allowNonPublic) return publicAddressProblem(address);
  const range = specialPurposeRangeOf(address);
  return range?.use === 'reserved' ? `must not be in ${range.what}` : undefined;
}
