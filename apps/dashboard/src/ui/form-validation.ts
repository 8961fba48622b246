/**
 * Checks a form makes before it calls the API, mirroring the API's own rules so a person hears about a
 * mistake beside the field at once. The API stays the authority: its field violations show the same way.
 */

/** A message per field name; a field without a message is valid. */
export type FieldErrors = Readonly<Record<string, string>>;

/** A check of one value: a message when it fails, undefined when it passes. */
export type Check = (value: string) => string | undefined;

export const required: Check = (value) => (value.trim() === '' ? 'Enter a value.' : undefined);

export function minLength(min: number): Check {
  return (value) => (value.length < min ? `Use at least ${min} characters.` : undefined);
}

export function maxLength(max: number): Check {
  return (value) => (value.length > max ? `Use at most ${max} characters.` : undefined);
}

/** Deliberately loose: the API decides; this catches what is plainly not an address. */
export const email: Check = (value) =>
  /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/.test(value.trim())
    ? undefined
    : 'Enter an email address like name@example.com.';

export function integerBetween(min: number, max: number): Check {
  return (value) => {
    if (!/^-?\d+$/.test(value.trim())) return 'Enter a whole number.';
    const n = Number(value);
    return n < min || n > max ? `Enter a number from ${min} to ${max}.` : undefined;
  };
}

/** RFC 1123, as the API checks host names: labels of letters, digits and inner hyphens. */
const HOSTNAME_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const MAX_HOSTNAME_LENGTH = 253;

export const hostname: Check = (value) => {
  if (value.length > MAX_HOSTNAME_LENGTH) return `Use at most ${MAX_HOSTNAME_LENGTH} characters.`;
  if (!value.split('.').every((label) => HOSTNAME_LABEL.test(label)))
    return 'Use letters, digits and hyphens (not at the start or end), with dots between parts, like web-1.';
  return undefined;
};

/** Up to 6 decimals, as the API keeps money. */
export const moneyAmount: Check = (value) =>
  /^\d{1,12}(\.\d{1,6})?$/.test(value.trim()) ? undefined : 'Enter an amount like 12.50.';

export const currencyCode: Check = (value) =>
  /^[A-Z]{3}$/.test(value.trim()) ? undefined : 'Enter a three-letter currency code like USD.';

const MAX_PORT = 65_535;

/** One port (443) or a range (8000-9000), as firewall rules take them. */
export const portOrRange: Check = (value) => {
  const match = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(value.trim());
  if (match === null) return 'Enter a port like 443 or a range like 8000-9000.';
  const from = Number(match[1]);
  const to = match[2] === undefined ? from : Number(match[2]);
  if (from < 1 || to > MAX_PORT || from > to) return `Ports go from 1 to ${MAX_PORT}, the lower first.`;
  return undefined;
};

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** The 16-bit groups of one side of an IPv6 `::`, an IPv4 tail counting as two; undefined when malformed. */
function ipv6Groups(part: string, mayEndInIpv4: boolean): number | undefined {
  if (part === '') return 0;
  const groups = part.split(':');
  let count = 0;
  for (const [i, group] of groups.entries()) {
    if (mayEndInIpv4 && i === groups.length - 1 && IPV4.test(group)) count += 2;
    else if (/^[0-9A-Fa-f]{1,4}$/.test(group)) count += 1;
    else return undefined;
  }
  return count;
}

function isIpv6(text: string): boolean {
  const halves = text.split('::');
  if (halves.length > 2) return false;
  const [head = '', tail] = halves;
  const headGroups = ipv6Groups(head, tail === undefined);
  const tailGroups = tail === undefined ? 0 : ipv6Groups(tail, true);
  if (headGroups === undefined || tailGroups === undefined) return false;
  return tail === undefined ? headGroups === 8 : headGroups + tailGroups < 8;
}

/** An address (192.0.2.10, 2001:db8::1) or a prefix (192.0.2.0/24, 2001:db8::/48). */
export function isAddressOrPrefix(text: string): boolean {
  const [address = '', length, extra] = text.split('/');
  if (extra !== undefined) return false;
  const v4 = IPV4.test(address);
  if (!v4 && !isIpv6(address)) return false;
  if (length === undefined) return true;
  if (!/^\d{1,3}$/.test(length)) return false;
  return Number(length) <= (v4 ? 32 : 128);
}

/** A comma- or space-separated list as its items, empty ones left out. */
export function listItems(value: string): string[] {
  return value
    .split(/[\s,]+/)
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

export const addressList: Check = (value) => {
  const wrong = listItems(value).filter((item) => !isAddressOrPrefix(item));
  return wrong.length === 0 ? undefined : `Not an address or prefix: ${wrong.join(', ')}.`;
};

/** The first failing check's message for each field; values missing from `values` read as empty. */
export function validate(
  values: Readonly<Record<string, string>>,
  checks: Readonly<Record<string, readonly Check[]>>,
): FieldErrors {
  const errors: Record<string, string> = {};
  for (const [field, fieldChecks] of Object.entries(checks)) {
    const value = values[field] ?? '';
    for (const check of fieldChecks) {
      const message = check(value);
      if (message !== undefined) {
        errors[field] = message;
        break;
      }
    }
  }
  return errors;
}

/** A check that applies only when the value is not empty. */
export function optional(...checks: readonly Check[]): Check {
  return (value) => {
    if (value.trim() === '') return undefined;
    for (const check of checks) {
      const message = check(value);
      if (message !== undefined) return message;
    }
    return undefined;
  };
}

export function hasErrors(errors: FieldErrors): boolean {
  return Object.keys(errors).length > 0;
}
