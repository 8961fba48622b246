import { isIP } from 'node:net';

/**
 * The string formats kube-apiserver checks in CRD schemas (the apiextensions format registry). Formats
 * it does not know are accepted without checking, as there.
 */
const FORMAT_CHECKS: Readonly<Record<string, (value: string) => boolean>> = {
  'date-time': isDateTime,
  datetime: isDateTime,
  date: (v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)),
  uuid: (v) => /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i.test(v),
  ipv4: (v) => isIP(v) === 4,
  ipv6: (v) => isIP(v) === 6,
  cidr: isCidr,
  mac: (v) => /^([0-9a-f]{2}[:-]){5}[0-9a-f]{2}$/i.test(v),
  hostname: (v) =>
    v.length <= 255 && /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?(\.[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)*$/i.test(v),
  email: (v) => /^[^\s@]+@[^\s@]+$/.test(v),
  byte: (v) => /^[A-Za-z0-9+/]*={0,2}$/.test(v) && v.length % 4 === 0,
};

/** True when `value` satisfies `format`, or when the format is one kube-apiserver does not check. */
export function matchesStringFormat(format: string, value: string): boolean {
  const check = FORMAT_CHECKS[format];
  return check ? check(value) : true;
}

function isDateTime(value: string): boolean {
  return (
    /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.test(value) &&
    !Number.isNaN(Date.parse(value.replace(' ', 'T')))
  );
}

function isCidr(value: string): boolean {
  const slash = value.indexOf('/');
  if (slash < 0) return false;
  const family = isIP(value.slice(0, slash));
  const bits = value.slice(slash + 1);
  if (family === 0 || !/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}
