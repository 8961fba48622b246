import { describe, expect, it } from 'vitest';

import { FakeHost, type FakeHostFacts } from '../host/fake-host.test-support.js';
import { formatPrecheck, runPrechecks, type Precheck, type PrecheckInput } from './prechecks.js';

const GiB = 1024 ** 3;

const INPUT: PrecheckInput = {
  agentIp: '203.0.113.7',
  controlPlaneUrl: new URL('https://api.example.com'),
  apiReachable: () => Promise.resolve(),
};

const ALL = [
  'os',
  'cpu',
  'memory',
  'disk',
  'port 6443/tcp',
  'port 10250/tcp',
  'port 8472/udp',
  'agent ip',
  'privilege',
  'dns',
  'control plane',
];

function byName(prechecks: readonly Precheck[], name: string): Precheck {
  const found = prechecks.find((p) => p.name === name);
  if (found === undefined) throw new Error(`no precheck ${name}`);
  return found;
}

function notPassing(prechecks: readonly Precheck[]): string[] {
  return prechecks.filter((p) => p.status !== 'pass').map((p) => p.name);
}

describe('runPrechecks', () => {
  it('passes every check on a machine that meets every requirement', async () => {
    const prechecks = await runPrechecks(new FakeHost(), INPUT);
    expect(prechecks.map((p) => p.name)).toEqual(ALL);
    expect(notPassing(prechecks)).toEqual([]);
    expect(byName(prechecks, 'memory')).toEqual({
      name: 'memory',
      status: 'pass',
      found: '8 GiB',
      needed: '4 GiB',
      message: '8 GiB found, 4 GiB needed',
    });
  });

  const lacking: [string, Partial<FakeHostFacts>, Partial<PrecheckInput>, string, string, string][] = [
    [
      'os',
      { osRelease: { id: 'debian', versionId: '12', prettyName: 'Debian GNU/Linux 12 (bookworm)' } },
      {},
      'Debian GNU/Linux 12 (bookworm)',
      'Ubuntu 22.04 or newer',
      'Debian GNU/Linux 12 (bookworm) found, Ubuntu 22.04 or newer needed',
    ],
    [
      'os',
      { osRelease: { id: 'ubuntu', versionId: '20.04', prettyName: 'Ubuntu 20.04.6 LTS' } },
      {},
      'Ubuntu 20.04.6 LTS',
      'Ubuntu 22.04 or newer',
      'Ubuntu 20.04.6 LTS found, Ubuntu 22.04 or newer needed',
    ],
    [
      'os',
      { osRelease: undefined },
      {},
      'no /etc/os-release (not Linux?)',
      'Ubuntu 22.04 or newer',
      'no /etc/os-release (not Linux?) found, Ubuntu 22.04 or newer needed',
    ],
    ['cpu', { cpus: 1 }, {}, '1 CPU', '2 CPUs', '1 CPU found, 2 CPUs needed'],
    [
      'memory',
      { memory: { totalBytes: 3.75 * GiB, availableBytes: 3 * GiB } },
      {},
      '3.7 GiB',
      '4 GiB',
      '3.7 GiB found, 4 GiB needed (a 4 GiB VM reports at least 3.8 GiB)',
    ],
    [
      'disk',
      { freeDiskBytes: 6.25 * GiB },
      {},
      '6.2 GiB free on /',
      '10 GiB free on /',
      '6.2 GiB free on / found, 10 GiB needed',
    ],
    [
      'port 6443/tcp',
      { busyPorts: ['6443/tcp'] },
      {},
      'in use',
      'free',
      "6443/tcp is in use, and the Kubernetes API server (k3s's) needs it free: `sudo ss -ltnp 'sport = :6443'` shows what has it",
    ],
    [
      'port 10250/tcp',
      { busyPorts: ['10250/tcp'] },
      {},
      'in use',
      'free',
      "10250/tcp is in use, and the kubelet needs it free: `sudo ss -ltnp 'sport = :10250'` shows what has it",
    ],
    [
      'port 8472/udp',
      { busyPorts: ['8472/udp', '8472/tcp'] },
      {},
      'in use',
      'free',
      "8472/udp is in use, and Calico's VXLAN needs it free: `sudo ss -lunp 'sport = :8472'` shows what has it",
    ],
    [
      'agent ip',
      {},
      { agentIp: '198.51.100.99' },
      'lo 127.0.0.1 (loopback), ens18 203.0.113.7',
      '198.51.100.99 on an interface that is up and not loopback',
      '198.51.100.99 is on no interface of the fake host (interfaces: lo 127.0.0.1 (loopback), ens18 203.0.113.7); 198.51.100.99 on an interface that is up and not loopback needed',
    ],
    [
      'agent ip',
      {
        interfaces: [
          { name: 'ens18', up: true, loopback: false, ipv4: ['10.0.0.7'] },
          { name: 'ens19', up: false, loopback: false, ipv4: ['203.0.113.7'] },
          { name: 'ens20', up: true, loopback: false, ipv4: [] },
        ],
      },
      {},
      'ens18 10.0.0.7, ens19 203.0.113.7 (down), ens20 no IPv4',
      '203.0.113.7 on an interface that is up and not loopback',
      '203.0.113.7 is on ens19, which is down (interfaces: ens18 10.0.0.7, ens19 203.0.113.7 (down), ens20 no IPv4); 203.0.113.7 on an interface that is up and not loopback needed',
    ],
    [
      'agent ip',
      { interfaces: [{ name: 'lo', up: true, loopback: true, ipv4: ['127.0.0.1', '203.0.113.7'] }] },
      {},
      'lo 127.0.0.1 203.0.113.7 (loopback)',
      '203.0.113.7 on an interface that is up and not loopback',
      '203.0.113.7 is on lo, which is loopback (interfaces: lo 127.0.0.1 203.0.113.7 (loopback)); 203.0.113.7 on an interface that is up and not loopback needed',
    ],
    [
      'agent ip',
      {},
      { agentIp: '2001:db8::7' },
      '2001:db8::7',
      '2001:db8::7 on an interface that is up and not loopback',
      '2001:db8::7 is not an IPv4 address',
    ],
    [
      'privilege',
      { privilege: 'sudo-password' },
      {},
      'sudo with a password',
      'root or passwordless sudo',
      'sudo with a password found, root or passwordless sudo needed: run nr as root (`sudo -i`) or allow your user NOPASSWD in sudoers',
    ],
    [
      'privilege',
      { privilege: 'none' },
      {},
      'neither root nor sudo',
      'root or passwordless sudo',
      'neither root nor sudo found, root or passwordless sudo needed: run nr as root',
    ],
    [
      'dns',
      { names: {} },
      {},
      'no address',
      'api.example.com resolves',
      'api.example.com does not resolve with the resolver of the fake host',
    ],
    [
      'control plane',
      {},
      { controlPlaneUrl: new URL('http://api.example.com:8080/v1') },
      'http://api.example.com:8080',
      'HTTPS to http://api.example.com:8080',
      'http://api.example.com:8080 is not HTTPS; HTTPS to http://api.example.com:8080 needed',
    ],
    [
      'control plane',
      {},
      { apiReachable: () => Promise.reject(new Error('connect ECONNREFUSED 198.51.100.10:443')) },
      'unreachable',
      'HTTPS to https://api.example.com',
      'https://api.example.com unreachable: connect ECONNREFUSED 198.51.100.10:443',
    ],
  ];

  it.each(lacking)(
    'fails only %s on a machine lacking it (%j %j)',
    async (name, facts, input, found, needed, message) => {
      const prechecks = await runPrechecks(new FakeHost(facts), { ...INPUT, ...input });
      expect(notPassing(prechecks)).toEqual([name]);
      expect(byName(prechecks, name)).toEqual({ name, status: 'fail', found, needed, message });
    },
  );

  it.each([
    ['Ubuntu 22.04', { osRelease: { id: 'ubuntu', versionId: '22.04', prettyName: 'Ubuntu 22.04.5 LTS' } }],
    ['Ubuntu 25.04', { osRelease: { id: 'ubuntu', versionId: '25.04', prettyName: 'Ubuntu 25.04' } }],
    ['a 4 GiB VM', { memory: { totalBytes: 4005380 * 1024, availableBytes: 3 * GiB } }],
    ['exactly 10 GiB free', { freeDiskBytes: 10 * GiB }],
    ['passwordless sudo', { privilege: 'sudo' as const }],
    ['exactly 2 CPUs', { cpus: 2 }],
    ['a TCP 8472 in use (VXLAN is UDP)', { busyPorts: ['8472/tcp'] }],
  ])('passes %s', async (_what, facts: Partial<FakeHostFacts>) => {
    expect(notPassing(await runPrechecks(new FakeHost(facts), INPUT))).toEqual([]);
  });

  it('passes the ports a running k3s holds (a resumed or repeated register), and fails them otherwise', async () => {
    const host = new FakeHost({ busyPorts: ['6443/tcp', '10250/tcp', '8472/udp'] });
    expect(notPassing(await runPrechecks(host, INPUT))).toEqual([
      'port 6443/tcp',
      'port 10250/tcp',
      'port 8472/udp',
    ]);
    await host.installService({
      name: 'k3s',
      description: 'k3s',
      execStart: ['/usr/local/bin/k3s', 'server'],
    });
    await host.startService('k3s');
    const prechecks = await runPrechecks(host, INPUT);
    expect(notPassing(prechecks)).toEqual([]);
    expect(byName(prechecks, 'port 6443/tcp').message).toBe('6443/tcp is held by the k3s installed here');
  });

  it('needs no DNS for a control plane at an IP address, and takes plain HTTP on loopback', async () => {
    for (const url of [
      'https://198.51.100.10',
      'https://[2001:db8::10]:8443',
      'http://127.0.0.1:8080',
      'http://localhost:8080',
    ]) {
      const prechecks = await runPrechecks(new FakeHost({ names: {} }), {
        ...INPUT,
        controlPlaneUrl: new URL(url),
      });
      expect(notPassing(prechecks), url).toEqual(url.includes('localhost') ? ['dns'] : []);
    }
    const literal = await runPrechecks(new FakeHost({ names: {} }), {
      ...INPUT,
      controlPlaneUrl: new URL('https://198.51.100.10'),
    });
    expect(byName(literal, 'dns').message).toBe('198.51.100.10 is an IP address: nothing to resolve');
  });

  it('fails a check whose question throws with why, and still runs the others', async () => {
    const host = new FakeHost();
    host.memory = () => Promise.reject(new Error('/proc/meminfo: EACCES'));
    host.networkInterfaces = () => Promise.reject(new Error('ip -j -4 address show exited 1: not found'));
    const prechecks = await runPrechecks(host, INPUT);
    expect(notPassing(prechecks)).toEqual(['memory', 'agent ip']);
    expect(byName(prechecks, 'memory')).toEqual({
      name: 'memory',
      status: 'fail',
      found: 'unknown',
      needed: '4 GiB',
      message: 'could not check: /proc/meminfo: EACCES',
    });
  });
});

describe('formatPrecheck', () => {
  it('writes the name and the message on one line', () => {
    expect(
      formatPrecheck({
        name: 'cpu',
        status: 'fail',
        found: '1 CPU',
        needed: '2 CPUs',
        message: '1 CPU found, 2 CPUs needed',
      }),
    ).toBe('cpu: 1 CPU found, 2 CPUs needed');
  });
});
