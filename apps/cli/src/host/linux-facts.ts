import type { MemoryInfo, NetworkInterface, OsRelease } from './host.js';

/** /etc/os-release (os-release(5)): `KEY=value` lines, values optionally quoted with shell escapes. */
export function parseOsRelease(text: string): OsRelease {
  const values = new Map<string, string>();
  for (const line of text.split('\n')) {
    const match = /^\s*([A-Z0-9_]+)=(.*)$/.exec(line);
    if (match?.[1] !== undefined && match[2] !== undefined) values.set(match[1], unquote(match[2].trim()));
  }
  // The defaults os-release(5) gives fields that are left out.
  return {
    id: values.get('ID') ?? 'linux',
    versionId: values.get('VERSION_ID') ?? '',
    prettyName: values.get('PRETTY_NAME') ?? 'Linux',
  };
}

function unquote(value: string): string {
  const quote = value[0];
  if ((quote === '"' || quote === "'") && value.endsWith(quote) && value.length >= 2) {
    const inner = value.slice(1, -1);
    return quote === "'" ? inner : inner.replace(/\\([\\"$`])/g, '$1');
  }
  return value;
}

/** /proc/meminfo, whose sizes are in KiB (it writes `kB`). */
export function parseMeminfo(text: string): MemoryInfo {
  const kib = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = /^(\w+):\s+(\d+) kB$/.exec(line.trim());
    if (match?.[1] !== undefined && match[2] !== undefined) kib.set(match[1], Number(match[2]));
  }
  const total = kib.get('MemTotal');
  const available = kib.get('MemAvailable') ?? kib.get('MemFree');
  if (total === undefined || available === undefined) {
    throw new Error('/proc/meminfo has no MemTotal or MemFree');
  }
  return { totalBytes: total * 1024, availableBytes: available * 1024 };
}

interface IpAddressEntry {
  readonly ifname?: string;
  readonly operstate?: string;
  readonly flags?: readonly string[];
  readonly addr_info?: readonly { readonly family?: string; readonly local?: string }[];
}

/**
 * What `ip -j -4 address show` printed. iproute2 prints `{}` for an interface without an IPv4 address
 * (the -4 filter empties it), and an interface with no link state of its own (loopback, WireGuard)
 * has operstate UNKNOWN: up is the UP flag, unless the link says it is down.
 */
export function parseIpAddresses(json: string): NetworkInterface[] {
  const entries = JSON.parse(json) as unknown;
  if (!Array.isArray(entries)) throw new Error('ip -j address show did not print a JSON array');
  return (entries as IpAddressEntry[]).flatMap((entry) => {
    if (entry.ifname === undefined) return [];
    const flags = entry.flags ?? [];
    return [
      {
        name: entry.ifname,
        up: flags.includes('UP') && entry.operstate !== 'DOWN' && entry.operstate !== 'LOWERLAYERDOWN',
        loopback: flags.includes('LOOPBACK'),
        ipv4: (entry.addr_info ?? []).flatMap((a) =>
          a.family === 'inet' && a.local !== undefined ? [a.local] : [],
        ),
      },
    ];
  });
}
