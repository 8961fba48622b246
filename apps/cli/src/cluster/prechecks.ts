import { isIP, isIPv4 } from 'node:net';

import type { Host, NetworkInterface, Privilege } from '../host/host.js';

/** One requirement of the agent VM, checked: what the machine has against what it needs. */
export interface Precheck {
  readonly name: string;
  readonly status: 'pass' | 'fail' | 'warn';
  readonly found: string;
  readonly needed: string;
  readonly message: string;
}

export interface PrecheckInput {
  /** The public IPv4 the agent is registered with. */
  readonly agentIp: string;
  readonly controlPlaneUrl: URL;
  /** Resolves when the control plane's API answers over the URL; rejects with why it did not. */
  readonly apiReachable: () => Promise<void>;
}

const GiB = 1024 ** 3;
const MINIMUM_UBUNTU = [22, 4] as const;
const MINIMUM_CPUS = 2;
const MINIMUM_MEMORY_BYTES = 4 * GiB;
// The kernel keeps part of a VM's memory for itself: a 4 GiB VM reports about 3.8 GiB.
const MEMORY_SLACK = 0.05;
const MINIMUM_FREE_DISK_BYTES = 10 * GiB;
const DISK_PATH = '/';

/** The ports k3s and Calico listen on, and who needs each. */
const PORTS = [
  { port: 6443, protocol: 'tcp', user: "the Kubernetes API server (k3s's)" },
  { port: 10250, protocol: 'tcp', user: 'the kubelet' },
  { port: 8472, protocol: 'udp', user: "Calico's VXLAN" },
] as const;

type Verdict = Pick<Precheck, 'status' | 'found'> & { readonly message?: string };

interface Requirement {
  readonly name: string;
  readonly needed: (input: PrecheckInput) => string;
  readonly check: (host: Host, input: PrecheckInput, needed: string) => Promise<Verdict>;
}

const REQUIREMENTS: readonly Requirement[] = [
  {
    name: 'os',
    needed: () => `Ubuntu ${MINIMUM_UBUNTU[0]}.${String(MINIMUM_UBUNTU[1]).padStart(2, '0')} or newer`,
    async check(host) {
      const release = await host.osRelease();
      if (release === undefined) return { status: 'fail', found: 'no /etc/os-release (not Linux?)' };
      const found = release.prettyName === '' ? `${release.id} ${release.versionId}` : release.prettyName;
      const ubuntu = release.id === 'ubuntu' && atLeast(release.versionId, MINIMUM_UBUNTU);
      return { status: ubuntu ? 'pass' : 'fail', found };
    },
  },
  {
    name: 'cpu',
    needed: () => `${MINIMUM_CPUS} CPUs`,
    async check(host) {
      const cpus = await host.cpuCount();
      return {
        status: cpus >= MINIMUM_CPUS ? 'pass' : 'fail',
        found: `${cpus} ${cpus === 1 ? 'CPU' : 'CPUs'}`,
      };
    },
  },
  {
    name: 'memory',
    needed: () => gib(MINIMUM_MEMORY_BYTES),
    async check(host, _input, needed) {
      const { totalBytes } = await host.memory();
      const found = gib(totalBytes);
      if (totalBytes >= MINIMUM_MEMORY_BYTES * (1 - MEMORY_SLACK)) return { status: 'pass', found };
      const accepted = gib(MINIMUM_MEMORY_BYTES * (1 - MEMORY_SLACK));
      return {
        status: 'fail',
        found,
        message: `${found} found, ${needed} needed (a ${needed} VM reports at least ${accepted})`,
      };
    },
  },
  {
    name: 'disk',
    needed: () => `${gib(MINIMUM_FREE_DISK_BYTES)} free on ${DISK_PATH}`,
    async check(host) {
      const free = await host.freeDiskBytes(DISK_PATH);
      const found = `${gib(free)} free on ${DISK_PATH}`;
      return {
        status: free >= MINIMUM_FREE_DISK_BYTES ? 'pass' : 'fail',
        found,
        message: `${found} found, ${gib(MINIMUM_FREE_DISK_BYTES)} needed`,
      };
    },
  },
  ...PORTS.map(({ port, protocol, user }): Requirement => ({
    name: `port ${port}/${protocol}`,
    needed: () => 'free',
    async check(host) {
      if (await host.portFree(port, protocol)) {
        return { status: 'pass', found: 'free', message: `${port}/${protocol} is free` };
      }
      // A k3s that register installed holds it; the agent phase decides whether that k3s may be reused.
      if ((await host.serviceState('k3s')) === 'active') {
        return {
          status: 'pass',
          found: 'held by k3s',
          message: `${port}/${protocol} is held by the k3s installed here`,
        };
      }
      const ss = protocol === 'tcp' ? 'ss -ltnp' : 'ss -lunp';
      return {
        status: 'fail',
        found: 'in use',
        message: `${port}/${protocol} is in use, and ${user} needs it free: \`sudo ${ss} 'sport = :${port}'\` shows what has it`,
      };
    },
  })),
  {
    name: 'agent ip',
    needed: ({ agentIp }) => `${agentIp} on an interface that is up and not loopback`,
    async check(host, { agentIp }, needed) {
      if (!isIPv4(agentIp)) {
        return { status: 'fail', found: agentIp, message: `${agentIp} is not an IPv4 address` };
      }
      const interfaces = await host.networkInterfaces();
      const found = interfaces.length === 0 ? 'no interfaces' : interfaces.map(describeInterface).join(', ');
      const holder = interfaces.find((i) => i.ipv4.includes(agentIp));
      if (holder?.up === true && !holder.loopback) {
        return { status: 'pass', found, message: `${agentIp} is on ${holder.name}` };
      }
      const where =
        holder === undefined
          ? `${agentIp} is on no interface of ${host.description}`
          : `${agentIp} is on ${holder.name}, which is ${holder.loopback ? 'loopback' : 'down'}`;
      return { status: 'fail', found, message: `${where} (interfaces: ${found}); ${needed} needed` };
    },
  },
  {
    name: 'privilege',
    needed: () => 'root or passwordless sudo',
    async check(host, _input, needed) {
      const privilege = await host.privilege();
      const found = PRIVILEGES[privilege];
      if (privilege === 'root' || privilege === 'sudo') return { status: 'pass', found };
      const fix =
        privilege === 'sudo-password'
          ? 'run nr as root (`sudo -i`) or allow your user NOPASSWD in sudoers'
          : 'run nr as root';
      return { status: 'fail', found, message: `${found} found, ${needed} needed: ${fix}` };
    },
  },
  {
    name: 'dns',
    needed: ({ controlPlaneUrl }) => `${bareHostname(controlPlaneUrl)} resolves`,
    async check(host, { controlPlaneUrl }) {
      const name = bareHostname(controlPlaneUrl);
      if (isIP(name) !== 0) {
        return {
          status: 'pass',
          found: 'an IP address',
          message: `${name} is an IP address: nothing to resolve`,
        };
      }
      const addresses = await host.resolve(name);
      if (addresses === undefined || addresses.length === 0) {
        return {
          status: 'fail',
          found: 'no address',
          message: `${name} does not resolve with the resolver of ${host.description}`,
        };
      }
      return {
        status: 'pass',
        found: addresses.join(', '),
        message: `${name} resolves to ${addresses.join(', ')}`,
      };
    },
  },
  {
    name: 'control plane',
    needed: ({ controlPlaneUrl }) => `HTTPS to ${controlPlaneUrl.origin}`,
    async check(_host, { controlPlaneUrl, apiReachable }, needed) {
      if (controlPlaneUrl.protocol !== 'https:' && !isLoopback(bareHostname(controlPlaneUrl))) {
        return {
          status: 'fail',
          found: controlPlaneUrl.origin,
          message: `${controlPlaneUrl.origin} is not HTTPS; ${needed} needed`,
        };
      }
      try {
        await apiReachable();
      } catch (e: unknown) {
        const why = e instanceof Error ? e.message : String(e);
        return {
          status: 'fail',
          found: 'unreachable',
          message: `${controlPlaneUrl.origin} unreachable: ${why}`,
        };
      }
      return { status: 'pass', found: 'reachable', message: `${controlPlaneUrl.origin} answers` };
    },
  },
];

const PRIVILEGES: Readonly<Record<Privilege, string>> = {
  root: 'root',
  sudo: 'passwordless sudo',
  'sudo-password': 'sudo with a password',
  none: 'neither root nor sudo',
};

/**
 * Checks the machine against each requirement of the agent, all of them: one that cannot be checked
 * (the host threw) fails with why, and the others still run.
 */
export function runPrechecks(host: Host, input: PrecheckInput): Promise<Precheck[]> {
  return Promise.all(
    REQUIREMENTS.map(async ({ name, needed: neededFor, check }): Promise<Precheck> => {
      const needed = neededFor(input);
      try {
        const verdict = await check(host, input, needed);
        return {
          name,
          ...verdict,
          needed,
          message: verdict.message ?? `${verdict.found} found, ${needed} needed`,
        };
      } catch (e: unknown) {
        const why = e instanceof Error ? e.message : String(e);
        return { name, status: 'fail', found: 'unknown', needed, message: `could not check: ${why}` };
      }
    }),
  );
}

/** One line for text output; the caller marks it by its status. */
export function formatPrecheck(precheck: Precheck): string {
  return `${precheck.name}: ${precheck.message}`;
}

/** One decimal, rounded down: 3.79 GiB is not shown as the 3.8 GiB it falls short of. */
function gib(bytes: number): string {
  const tenths = Math.floor((bytes / GiB) * 10) / 10;
  return `${Number.isInteger(tenths) ? tenths.toFixed(0) : tenths.toFixed(1)} GiB`;
}

function atLeast(version: string, minimum: readonly [number, number]): boolean {
  const [major = Number.NaN, minor = 0] = version.split('.').map(Number);
  return major > minimum[0] || (major === minimum[0] && minor >= minimum[1]);
}

function describeInterface(i: NetworkInterface): string {
  const addresses = i.ipv4.length === 0 ? 'no IPv4' : i.ipv4.join(' ');
  const state = i.loopback ? ' (loopback)' : i.up ? '' : ' (down)';
  return `${i.name} ${addresses}${state}`;
}

/** URL.hostname keeps an IPv6 address in brackets. */
function bareHostname(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '::1' || (isIPv4(hostname) && hostname.startsWith('127.'));
}
