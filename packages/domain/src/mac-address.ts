import { InvalidArgumentError } from './domain-error.js';
import { lowestFreeInteger } from './lowest-free-integer.js';
import {
  DEFAULT_MAC_ADDRESS_PREFIX,
  macAddressPrefixProblem,
  normalizeMacAddressPrefix,
} from './node-settings.js';

/**
 * VM MAC addresses: the network's three-octet prefix followed by a 24-bit suffix counted up from zero.
 * Suffixes are handed out lowest-free first, so a deleted VM's MAC is the next one reused and the space
 * (16,777,216 per prefix) is never used up by churn.
 */

/** The highest 24-bit suffix. */
const MAX_SUFFIX = 0xff_ff_ff;
const SUFFIX_HEX_DIGITS = 6;
const PREFIX_LENGTH = DEFAULT_MAC_ADDRESS_PREFIX.length;
const MAC_ADDRESS = /^[0-9A-Fa-f]{2}(?::[0-9A-Fa-f]{2}){5}$/;

/** A full MAC as the API takes it; the result is the upper-case colon form Proxmox writes into `netN`. */
export function parseMacAddress(text: string, field: string): string {
  if (!MAC_ADDRESS.test(text))
    throw InvalidArgumentError.field(field, 'must be six hexadecimal octets like BC:24:11:00:00:2A');
  // The prefix rule already knows a group (multicast) address by its first octet.
  const problem = macAddressPrefixProblem(text.slice(0, PREFIX_LENGTH));
  if (problem !== undefined) throw InvalidArgumentError.field(field, problem);
  return text.toUpperCase();
}

/**
 * The lowest suffix not in use, or undefined when all are. `usedSuffixes` must include every MAC under the
 * prefix on the network, foreign guests' too: Proxmox generates MACs under its own BC:24:11 as well.
 */
export function nextMacAddressSuffix(usedSuffixes: readonly number[]): number | undefined {
  return lowestFreeInteger(0, MAX_SUFFIX, usedSuffixes);
}

export function macAddressOf(prefix: string, suffix: number): string {
  const problem = macAddressPrefixProblem(prefix);
  if (problem !== undefined) throw InvalidArgumentError.field('macAddressPrefix', problem);
  if (!Number.isInteger(suffix) || suffix < 0 || suffix > MAX_SUFFIX)
    throw new RangeError(`A MAC address suffix is a 24-bit integer, not ${suffix}.`);
  const hex = suffix.toString(16).toUpperCase().padStart(SUFFIX_HEX_DIGITS, '0');
  return `${normalizeMacAddressPrefix(prefix)}:${hex.slice(0, 2)}:${hex.slice(2, 4)}:${hex.slice(4)}`;
}

/** The suffix of a MAC under `prefix` (either case), or undefined when the MAC has another prefix. */
export function macAddressSuffix(prefix: string, macAddress: string): number | undefined {
  if (!MAC_ADDRESS.test(macAddress)) return undefined;
  const upper = macAddress.toUpperCase();
  if (upper.slice(0, PREFIX_LENGTH) !== normalizeMacAddressPrefix(prefix)) return undefined;
  return parseInt(upper.slice(PREFIX_LENGTH + 1).replaceAll(':', ''), 16);
}
