/**
 * The variables a cloud-init template may use, and where their values come from. Lookups go through
 * Maps and a closed table, never through object properties named by the template, so no name
 * (`constructor`, `__proto__`) reaches anything but a value put there on purpose.
 */

/** A value a variable stands for: text, a YAML boolean, or a YAML list of strings. */
export type TemplateValue = string | boolean | readonly string[];

interface AddressAndGateway {
  /** With its prefix length, like 203.0.113.10/24. */
  readonly address: string;
  readonly gateway: string;
}

/** What one VM's cloud-init data is compiled from. */
export interface CloudInitValues {
  readonly hostname: string;
  readonly sshAuthorizedKeys: readonly string[];
  /** The SHA-512-crypt hash of the VM's password; undefined when it has none. */
  readonly passwordHash: string | undefined;
  readonly ipv4?: AddressAndGateway | undefined;
  readonly ipv6?: AddressAndGateway | undefined;
  readonly nameservers: readonly string[];
  readonly macAddress?: string | undefined;
  /** The organisation's environment variables and secrets, key → value. */
  readonly env: ReadonlyMap<string, string>;
  readonly secrets: ReadonlyMap<string, string>;
}

/** A shadow password field no password matches: what `password_hash` is on a VM without a password. */
const NO_PASSWORD_HASH = '!';

export type Resolution = { readonly value: TemplateValue } | { readonly problem: string };

/** Keys of environment variables and secrets (the control plane enforces the same rule when they are created). */
const VARIABLE_KEY = /^[A-Z_][A-Z0-9_]{0,127}$/;

interface VariableDefinition {
  readonly description: string;
  readonly value: (values: CloudInitValues) => TemplateValue | undefined;
  /** Why the value can be missing, for the error when it is. */
  readonly unset?: string;
}

const VARIABLES: ReadonlyMap<string, VariableDefinition> = new Map<string, VariableDefinition>([
  ['hostname', { description: "the VM's host name", value: (v) => v.hostname }],
  [
    'ssh_authorized_keys',
    { description: 'the public keys the order named, as a YAML list', value: (v) => v.sshAuthorizedKeys },
  ],
  [
    'password_hash',
    {
      description: `the SHA-512-crypt hash of the order's password, or "${NO_PASSWORD_HASH}" (no password matches) without one`,
      value: (v) => v.passwordHash ?? NO_PASSWORD_HASH,
    },
  ],
  [
    'ssh_pwauth',
    { description: 'true when the order set a password', value: (v) => v.passwordHash !== undefined },
  ],
  [
    'lock_passwd',
    { description: 'true when the order set no password', value: (v) => v.passwordHash === undefined },
  ],
  [
    'ipv4.address',
    {
      description: 'the IPv4 address with its prefix length',
      value: (v) => v.ipv4?.address,
      unset: 'the VM has no IPv4 address',
    },
  ],
  [
    'ipv4.gateway',
    { description: 'the IPv4 gateway', value: (v) => v.ipv4?.gateway, unset: 'the VM has no IPv4 address' },
  ],
  [
    'ipv6.address',
    {
      description: 'the IPv6 address with its prefix length',
      value: (v) => v.ipv6?.address,
      unset: 'the VM has no IPv6 address',
    },
  ],
  [
    'ipv6.gateway',
    { description: 'the IPv6 gateway', value: (v) => v.ipv6?.gateway, unset: 'the VM has no IPv6 address' },
  ],
  [
    'addresses',
    {
      description: 'every address of the VM with its prefix length, as a YAML list',
      value: (v) => [v.ipv4?.address, v.ipv6?.address].filter((a) => a !== undefined),
    },
  ],
  ['nameservers', { description: 'the DNS servers, as a YAML list', value: (v) => v.nameservers }],
  [
    'mac_address',
    {
      description: "the primary NIC's MAC address",
      value: (v) => v.macAddress,
      unset: 'the VM has no MAC address yet',
    },
  ],
]);

/** The namespaces whose second part is a key of the organisation's own. */
const NAMESPACES = ['env', 'secrets'] as const;
type Namespace = (typeof NAMESPACES)[number];

/** Every name a template may use, the two namespaces as `env.KEY` and `secrets.KEY`, with what it stands for. */
export const TEMPLATE_VARIABLES: readonly { readonly name: string; readonly description: string }[] = [
  ...[...VARIABLES].map(([name, { description }]) => ({ name, description })),
  { name: 'env.KEY', description: "the value of the organization's environment variable KEY" },
  { name: 'secrets.KEY', description: "the value of the organization's secret KEY" },
];

function namespaceOf(name: string | undefined): Namespace | undefined {
  return NAMESPACES.find((n) => n === name);
}

/** Whether `path` names a variable at all; values are not needed (checking a template as it is saved). */
export function checkVariableName(path: readonly string[]): Resolution {
  const name = path.join('.');
  if (VARIABLES.has(name)) return { value: '' };
  const namespace = namespaceOf(path[0]);
  if (namespace !== undefined) {
    const key = path[1];
    if (path.length !== 2 || key === undefined || !VARIABLE_KEY.test(key))
      return {
        problem: `${name}: ${namespace}. is followed by one key of upper-case letters, digits and underscores, like ${namespace}.API_KEY`,
      };
    return { value: '' };
  }
  return {
    problem: `unknown variable ${name}; the variables are ${TEMPLATE_VARIABLES.map((v) => v.name).join(', ')}`,
  };
}

/** The value of `path` for one VM, or why there is none. */
export function resolveVariable(path: readonly string[], values: CloudInitValues): Resolution {
  const checked = checkVariableName(path);
  if ('problem' in checked) return checked;
  const name = path.join('.');
  const definition = VARIABLES.get(name);
  if (definition !== undefined) {
    const value = definition.value(values);
    return value === undefined ? { problem: `${name}: ${definition.unset ?? 'has no value'}` } : { value };
  }
  const [namespace, key = ''] = path;
  const own = namespace === 'env' ? values.env : values.secrets;
  const value = own.get(key);
  if (value !== undefined) return { value };
  const other = namespace === 'env' ? values.secrets : values.env;
  if (other.has(key))
    return {
      problem: `${name}: ${key} is ${namespace === 'env' ? 'a secret' : 'an environment variable'} of the organization; write ${namespace === 'env' ? 'secrets' : 'env'}.${key}`,
    };
  return {
    problem: `${name}: the organization has no ${namespace === 'env' ? 'environment variable' : 'secret'} ${key}`,
  };
}
