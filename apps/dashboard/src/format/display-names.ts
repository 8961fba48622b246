/** The API's enum values as people read them. */

const DISTRO_FAMILIES: Readonly<Record<string, string>> = {
  UBUNTU: 'Ubuntu',
  DEBIAN: 'Debian',
  FEDORA: 'Fedora',
  CENTOS: 'CentOS Stream',
  ROCKY: 'Rocky Linux',
  ALMALINUX: 'AlmaLinux',
};

/** DISTRO_UBUNTU_24_04 → "Ubuntu 24.04"; an unknown value is shown as it is. */
export function distroName(distro: string): string {
  const match = /^DISTRO_([A-Z]+)_(\d+(?:_\d+)*)$/.exec(distro);
  if (match === null) return distro;
  const family = DISTRO_FAMILIES[match[1] ?? ''] ?? match[1] ?? '';
  return `${family} ${(match[2] ?? '').replaceAll('_', '.')}`;
}

export const DISTROS = [
  'DISTRO_UBUNTU_22_04',
  'DISTRO_UBUNTU_24_04',
  'DISTRO_UBUNTU_26_04',
  'DISTRO_FEDORA_43',
  'DISTRO_FEDORA_44',
  'DISTRO_DEBIAN_12',
  'DISTRO_DEBIAN_13',
  'DISTRO_CENTOS_9',
  'DISTRO_CENTOS_10',
  'DISTRO_ROCKY_9',
  'DISTRO_ROCKY_10',
  'DISTRO_ALMALINUX_9',
  'DISTRO_ALMALINUX_10',
] as const;

/** SERVICE_STATUS_ONLINE → "Online", COMPUTE_TYPE_GENERAL_COMPUTE → "General compute". */
export function enumName(value: string, prefix: string): string {
  const rest = value.startsWith(prefix) ? value.slice(prefix.length) : value;
  const words = rest.toLowerCase().replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export const COMPUTE_TYPES = [
  'COMPUTE_TYPE_GENERAL_COMPUTE',
  'COMPUTE_TYPE_GENERAL_PURPOSE',
  'COMPUTE_TYPE_CPU_OPTIMIZED',
  'COMPUTE_TYPE_MEMORY_OPTIMIZED',
  'COMPUTE_TYPE_STORAGE_OPTIMIZED',
  'COMPUTE_TYPE_HIGH_FREQUENCY',
  'COMPUTE_TYPE_VERY_HIGH_FREQUENCY',
  'COMPUTE_TYPE_HIGH_PERFORMANCE',
  'COMPUTE_TYPE_GAME_SERVER',
] as const;

export function computeTypeName(value: string): string {
  return enumName(value, 'COMPUTE_TYPE_').replace(/\bcpu\b/i, 'CPU');
}

const BILLING_PERIOD_NAMES: Readonly<Record<string, string>> = {
  BILLING_PERIOD_HOUR: 'hour',
  BILLING_PERIOD_DAY: 'day',
  BILLING_PERIOD_WEEK: 'week',
  BILLING_PERIOD_MONTH: 'month',
  BILLING_PERIOD_QUARTER: 'quarter',
  BILLING_PERIOD_YEAR: 'year',
};

export function billingPeriodName(period: string): string {
  return BILLING_PERIOD_NAMES[period] ?? enumName(period, 'BILLING_PERIOD_').toLowerCase();
}

export function serviceStatusName(status: string): string {
  return enumName(status, 'SERVICE_STATUS_');
}

export function organizationTypeName(type: string): string {
  return type === 'ORGANIZATION_TYPE_PROVIDER' ? 'Provider' : 'Customer';
}

/** SSH_KEY_TYPE_ED25519 → "ed25519", as OpenSSH names the type. */
export function sshKeyTypeName(type: string): string {
  return type.startsWith('SSH_KEY_TYPE_') ? type.slice('SSH_KEY_TYPE_'.length).toLowerCase() : type;
}
