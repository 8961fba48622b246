import { formatPropertyString, parsePropertyString } from './property-string.js';

const NIC_MODELS = [
  'e1000',
  'e1000e',
  'virtio',
  'rtl8139',
  'vmxnet3',
  'ne2k_pci',
  'pcnet',
  'i82551',
] as const;
const MAC_RE = /^[0-9a-f]{2}(:[0-9a-f]{2}){5}$/i;

const KEYS: Record<string, (v: string) => string | undefined> = {
  bridge: (v) => (/^[-_.\w\d]+$/.test(v) ? undefined : 'value does not match the regex pattern'),
  firewall: bool,
  link_down: bool,
  mtu: (v) => intRange(v, 1, 65520),
  queues: (v) => intRange(v, 0, 64),
  rate: (v) => (/^\d+(\.\d+)?$/.test(v) ? undefined : `type check ('number') failed - got '${v}'`),
  tag: (v) => intRange(v, 1, 4094),
  trunks: (v) =>
    /^\d+(-\d+)?(;\d+(-\d+)?)*$/.test(v) ? undefined : 'value does not match the regex pattern',
};

function bool(v: string): string | undefined {
  return v === '0' || v === '1' ? undefined : `type check ('boolean') failed - got '${v}'`;
}

function intRange(v: string, min: number, max: number): string | undefined {
  if (!/^\d+$/.test(v)) return `type check ('integer') failed - got '${v}'`;
  if (Number(v) < min) return `value must have a minimum value of ${min}`;
  if (Number(v) > max) return `value must have a maximum value of ${max}`;
  return undefined;
}

export interface NetDevice {
  model: string;
  mac: string;
  options: Map<string, string>;
}

/**
 * Parses `virtio[=MAC],bridge=…` (or `model=virtio,macaddr=…`). Throws a message in PVE's
 * `format error` shape for the parameter `key`.
 */
export function parseNetDevice(key: string, value: string, newMac: () => string): NetDevice {
  let map: Map<string, string>;
  try {
    map = parsePropertyString(value);
  } catch (e: unknown) {
    // A bare model (`virtio,bridge=vmbr0`) has no `=`: treat the first item as the model.
    const [first = '', ...rest] = value.split(',');
    if (first.includes('=')) throw formatError(key, 'model', (e as Error).message);
    map = parsePropertyString(rest.join(','));
    map.set(first, '');
  }
  let model = map.get('model');
  let mac = map.get('macaddr');
  map.delete('model');
  map.delete('macaddr');
  for (const m of NIC_MODELS) {
    if (map.has(m)) {
      if (model !== undefined) throw formatError(key, 'model', 'model specified twice');
      model = m;
      mac = map.get(m) === '' ? mac : map.get(m);
      map.delete(m);
    }
  }
  if (model === undefined) throw formatError(key, 'model', 'property is missing and it is not optional');
  if (mac !== undefined && (!MAC_RE.test(mac) || (parseInt(mac.slice(0, 2), 16) & 1) === 1)) {
    throw formatError(key, 'macaddr', `value '${mac}' does not look like a valid unicast MAC address`);
  }
  for (const [k, v] of map) {
    const check = KEYS[k];
    if (!check)
      throw formatError(
        key,
        k,
        'property is not defined in schema and the schema does not allow additional properties',
      );
    const bad = check(v);
    if (bad !== undefined) throw formatError(key, k, bad);
  }
  return { model, mac: (mac ?? newMac()).toUpperCase(), options: map };
}

/** Canonical storage: `model=MAC` first, then the keys alphabetically. */
export function formatNetDevice(dev: NetDevice): string {
  const rest = formatPropertyString(dev.options);
  return `${dev.model}=${dev.mac}${rest ? `,${rest}` : ''}`;
}

export function formatError(key: string, sub: string, message: string): Error {
  return new Error(`format error\n${key}.${sub}: ${message}`);
}

/** The same NIC with another MAC, as clone and `unique` restore give every netN. */
export function withNewMac(key: string, value: string, mac: string): string {
  return formatNetDevice({ ...parseNetDevice(key, value, () => mac), mac });
}
