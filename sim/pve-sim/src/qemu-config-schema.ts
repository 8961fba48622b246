import type { ParamSpec } from './param-schema.js';
import { canonicalTags, dnsNameFormat, nameserverFormat, sshKeysFormat, tagsFormat } from './pve-formats.js';
import { DRIVE_KEY_RE, UNUSED_KEY_RE, parseDrive } from './drive.js';
import { validateIpConfig } from './ip-config.js';
import { formatError, parseNetDevice } from './net-device.js';
import { parsePropertyString } from './property-string.js';

/** How a config key behaves: its parameter type, the privilege to change it, whether it hot-applies. */
interface ConfigKey {
  spec: ParamSpec;
  privilege: string;
  /** Applied at once on a running VM; otherwise it waits in `[PENDING]` until the next start. */
  hot: boolean;
  /** Rendered as a JSON number by `GET config` (integer and boolean keys). */
  numeric?: boolean;
}

const s = (extra: Partial<ParamSpec> = {}): ParamSpec => ({ type: 'string', optional: true, ...extra });
const i = (minimum?: number, maximum?: number): ParamSpec => ({
  type: 'integer',
  optional: true,
  ...(minimum !== undefined ? { minimum } : {}),
  ...(maximum !== undefined ? { maximum } : {}),
});
const b: ParamSpec = { type: 'boolean', optional: true };

const CPU = 'VM.Config.CPU';
const MEM = 'VM.Config.Memory';
const OPT = 'VM.Config.Options';
const HW = 'VM.Config.HWType';
const CI = 'VM.Config.Cloudinit';

const CONFIG_KEYS: Record<string, ConfigKey> = {
  acpi: { spec: b, privilege: HW, hot: false, numeric: true },
  agent: { spec: s(), privilege: OPT, hot: false },
  balloon: { spec: i(0), privilege: MEM, hot: true, numeric: true },
  bios: { spec: s({ enum: ['seabios', 'ovmf'] }), privilege: HW, hot: false },
  boot: { spec: s(), privilege: OPT, hot: false },
  cicustom: { spec: s({ format: propertyFormat(validateCicustom) }), privilege: CI, hot: true },
  cipassword: { spec: s(), privilege: CI, hot: true },
  citype: { spec: s({ enum: ['configdrive2', 'nocloud', 'opennebula'] }), privilege: CI, hot: true },
  ciupgrade: { spec: b, privilege: CI, hot: true, numeric: true },
  ciuser: { spec: s(), privilege: CI, hot: true },
  cores: { spec: i(1, 1024), privilege: CPU, hot: false, numeric: true },
  cpu: { spec: s(), privilege: CPU, hot: false },
  cpulimit: {
    spec: { type: 'number', optional: true, minimum: 0, maximum: 128 },
    privilege: CPU,
    hot: true,
    numeric: true,
  },
  cpuunits: { spec: i(1, 262144), privilege: CPU, hot: true, numeric: true },
  description: { spec: s({ maxLength: 8192 }), privilege: OPT, hot: true },
  hotplug: { spec: s(), privilege: HW, hot: true },
  kvm: { spec: b, privilege: HW, hot: false, numeric: true },
  machine: { spec: s(), privilege: HW, hot: false },
  memory: { spec: s({ pattern: /^(current=)?\d+$/ }), privilege: MEM, hot: false },
  meta: { spec: s(), privilege: OPT, hot: true },
  name: { spec: s({ format: dnsNameFormat }), privilege: OPT, hot: true },
  nameserver: { spec: s({ format: nameserverFormat }), privilege: CI, hot: true },
  numa: { spec: b, privilege: CPU, hot: false, numeric: true },
  onboot: { spec: b, privilege: OPT, hot: true, numeric: true },
  ostype: {
    spec: s({
      enum: [
        'other',
        'wxp',
        'w2k',
        'w2k3',
        'w2k8',
        'wvista',
        'win7',
        'win8',
        'win10',
        'win11',
        'l24',
        'l26',
        'solaris',
      ],
    }),
    privilege: OPT,
    hot: false,
  },
  protection: { spec: b, privilege: OPT, hot: true, numeric: true },
  scsihw: {
    spec: s({ enum: ['lsi', 'lsi53c810', 'virtio-scsi-pci', 'virtio-scsi-single', 'megasas', 'pvscsi'] }),
    privilege: HW,
    hot: false,
  },
  searchdomain: { spec: s(), privilege: CI, hot: true },
  smbios1: { spec: s(), privilege: HW, hot: false },
  sockets: { spec: i(1, 4), privilege: CPU, hot: false, numeric: true },
  sshkeys: { spec: s({ format: sshKeysFormat }), privilege: CI, hot: true },
  startup: { spec: s(), privilege: OPT, hot: true },
  tablet: { spec: b, privilege: HW, hot: false, numeric: true },
  tags: { spec: s({ format: tagsFormat }), privilege: OPT, hot: true },
  template: { spec: b, privilege: OPT, hot: false, numeric: true },
  vcpus: { spec: i(1, 1024), privilege: CPU, hot: false, numeric: true },
  vga: { spec: s(), privilege: HW, hot: false },
  vmgenid: { spec: s(), privilege: OPT, hot: false },
};

/** `cicustom`: `user=`, `network=`, `meta=`, `vendor=` volume ids of snippet files. */
function validateCicustom(key: string, value: string): void {
  for (const [k, v] of parsePropertyString(value)) {
    if (!['user', 'network', 'meta', 'vendor'].includes(k)) {
      throw formatError(
        key,
        k,
        'property is not defined in schema and the schema does not allow additional properties',
      );
    }
    if (!/^[a-z][a-z0-9\-_.]*[a-z0-9]:.+$/i.test(v))
      throw formatError(key, k, `unable to parse volume ID '${v}'`);
  }
}

/** Property-string keys are checked by the schema, so their errors come with every other one. */
function propertyFormat(
  check: (key: string, value: string) => unknown,
): (value: string, key: string) => string | undefined {
  return (value, key) => {
    try {
      check(key, value);
      return undefined;
    } catch (e: unknown) {
      return e instanceof Error ? e.message : String(e);
    }
  };
}

const FAMILIES: readonly (readonly [RegExp, ConfigKey])[] = [
  [
    /^net\d+$/,
    {
      spec: s({ format: propertyFormat((k, v) => parseNetDevice(k, v, () => '00:00:00:00:00:00')) }),
      privilege: 'VM.Config.Network',
      hot: true,
    },
  ],
  [/^ipconfig\d+$/, { spec: s({ format: propertyFormat(validateIpConfig) }), privilege: CI, hot: true }],
  [/^serial[0-3]$/, { spec: s(), privilege: HW, hot: false }],
  [DRIVE_KEY_RE, { spec: s({ format: propertyFormat(parseDrive) }), privilege: 'VM.Config.Disk', hot: true }],
  [UNUSED_KEY_RE, { spec: s(), privilege: 'VM.Config.Disk', hot: true }],
];

export function configKey(key: string): ConfigKey | undefined {
  if (Object.hasOwn(CONFIG_KEYS, key)) return CONFIG_KEYS[key];
  return FAMILIES.find(([re]) => re.test(key))?.[1];
}

export const CONFIG_PARAM_PROPERTIES: Record<string, ParamSpec> = Object.fromEntries(
  Object.entries(CONFIG_KEYS).map(([k, v]) => [k, v.spec]),
);
export const CONFIG_PARAM_PATTERNS: readonly (readonly [RegExp, ParamSpec])[] = FAMILIES.map(([re, k]) => [
  re,
  k.spec,
]);

/** A config value in the form PVE stores it (validated values only). */
export function canonicalConfigValue(key: string, value: string | number | boolean): string {
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (key === 'tags') return canonicalTags(String(value));
  if (key === 'description') return String(value);
  return String(value);
}

/** `GET config` renders integer and boolean keys as JSON numbers, property strings as strings. */
export function renderConfig(config: Record<string, string>): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(config)) {
    out[k] = configKey(k)?.numeric
      ? Number(v)
      : k === 'description'
        ? `${v}\n`
        : k === 'cipassword'
          ? '**********'
          : v;
  }
  return out;
}
