import { ipv4CidrOk, ipv4Ok, ipv6CidrOk, ipv6Ok } from './pve-formats.js';
import { parsePropertyString } from './property-string.js';
import { formatError } from './net-device.js';

/** Validates `ip=<cidr>|dhcp,gw=…,ip6=<cidr>|dhcp|auto,gw6=…`; PVE stores the value verbatim. */
export function validateIpConfig(key: string, value: string): void {
  let map: Map<string, string>;
  try {
    map = parsePropertyString(value);
  } catch (e: unknown) {
    throw formatError(key, 'ip', (e as Error).message);
  }
  for (const [k, v] of map) {
    const ok =
      k === 'ip'
        ? v === 'dhcp' || ipv4CidrOk(v)
        : k === 'gw'
          ? ipv4Ok(v)
          : k === 'ip6'
            ? v === 'dhcp' || v === 'auto' || ipv6CidrOk(v)
            : k === 'gw6'
              ? ipv6Ok(v)
              : undefined;
    if (ok === undefined) {
      throw formatError(
        key,
        k,
        'property is not defined in schema and the schema does not allow additional properties',
      );
    }
    if (!ok) throw formatError(key, k, `value '${v}' does not look like a valid IP configuration`);
  }
  if (map.has('gw') && (!map.has('ip') || map.get('ip') === 'dhcp')) {
    throw new Error('gateway specified without specifying an IP address');
  }
  if (map.has('gw6') && (!map.has('ip6') || map.get('ip6') === 'dhcp' || map.get('ip6') === 'auto')) {
    throw new Error('gateway specified without specifying an IP address');
  }
}
