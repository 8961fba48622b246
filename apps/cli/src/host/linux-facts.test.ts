import { describe, expect, it } from 'vitest';

import { parseIpAddresses, parseMeminfo, parseOsRelease } from './linux-facts.js';

// /etc/os-release of Ubuntu 24.04.1 LTS.
const UBUNTU_2404 = `PRETTY_NAME="Ubuntu 24.04.1 LTS"
NAME="Ubuntu"
VERSION_ID="24.04"
VERSION="24.04.1 LTS (Noble Numbat)"
VERSION_CODENAME=noble
ID=ubuntu
ID_LIKE=debian
HOME_URL="https://www.ubuntu.com/"
SUPPORT_URL="https://help.ubuntu.com/"
BUG_REPORT_URL="https://bugs.launchpad.net/ubuntu/"
PRIVACY_POLICY_URL="https://www.ubuntu.com/legal/terms-and-policies/privacy-policy"
UBUNTU_CODENAME=noble
LOGO=ubuntu-logo
`;

// /proc/meminfo of a 4 GiB Ubuntu 24.04 VM (the kernel keeps some for itself), first lines.
const MEMINFO = `MemTotal:        4005380 kB
MemFree:          256448 kB
MemAvailable:    3115712 kB
Buffers:           63724 kB
Cached:          2876512 kB
SwapCached:            0 kB
Active:          1112380 kB
Inactive:        2151696 kB
HugePages_Total:       0
Hugepagesize:       2048 kB
`;

// `ip -j -4 address show` on an Ubuntu 24.04 VM with Docker installed: the {} is ens19, which has only
// an IPv6 address, and docker0 is down without a carrier.
const IP_ADDRESSES = JSON.stringify([
  {
    ifindex: 1,
    ifname: 'lo',
    flags: ['LOOPBACK', 'UP', 'LOWER_UP'],
    mtu: 65536,
    qdisc: 'noqueue',
    operstate: 'UNKNOWN',
    group: 'default',
    txqlen: 1000,
    addr_info: [
      {
        family: 'inet',
        local: '127.0.0.1',
        prefixlen: 8,
        scope: 'host',
        label: 'lo',
        valid_life_time: 4294967295,
        preferred_life_time: 4294967295,
      },
    ],
  },
  {
    ifindex: 2,
    ifname: 'ens18',
    flags: ['BROADCAST', 'MULTICAST', 'UP', 'LOWER_UP'],
    mtu: 1500,
    qdisc: 'fq_codel',
    operstate: 'UP',
    group: 'default',
    txqlen: 1000,
    altnames: ['enp0s18'],
    addr_info: [
      {
        family: 'inet',
        local: '203.0.113.7',
        prefixlen: 24,
        broadcast: '203.0.113.255',
        scope: 'global',
        dynamic: true,
        label: 'ens18',
        valid_life_time: 85916,
        preferred_life_time: 85916,
      },
      {
        family: 'inet',
        local: '10.0.0.7',
        prefixlen: 24,
        scope: 'global',
        secondary: true,
        label: 'ens18:1',
      },
    ],
  },
  {},
  {
    ifindex: 4,
    ifname: 'docker0',
    flags: ['NO-CARRIER', 'BROADCAST', 'MULTICAST', 'UP'],
    mtu: 1500,
    qdisc: 'noqueue',
    operstate: 'DOWN',
    group: 'default',
    addr_info: [
      { family: 'inet', local: '172.17.0.1', prefixlen: 16, broadcast: '172.17.255.255', scope: 'global' },
    ],
  },
  {
    ifindex: 5,
    ifname: 'wg0',
    flags: ['POINTOPOINT', 'NOARP', 'UP', 'LOWER_UP'],
    mtu: 1420,
    operstate: 'UNKNOWN',
    addr_info: [{ family: 'inet', local: '10.8.0.2', prefixlen: 24, scope: 'global' }],
  },
]);

describe('parseOsRelease', () => {
  it('reads ID, VERSION_ID and PRETTY_NAME of Ubuntu 24.04, unquoted', () => {
    expect(parseOsRelease(UBUNTU_2404)).toEqual({
      id: 'ubuntu',
      versionId: '24.04',
      prettyName: 'Ubuntu 24.04.1 LTS',
    });
  });

  it('undoes single quotes and the shell escapes os-release allows in double quotes', () => {
    const text = `# a comment\n\nID='debian'\nVERSION_ID=12\nPRETTY_NAME="Debian \\"GNU\\" \\$12 \\\\ bookworm"\n`;
    expect(parseOsRelease(text)).toEqual({
      id: 'debian',
      versionId: '12',
      prettyName: 'Debian "GNU" $12 \\ bookworm',
    });
  });

  it('gives the defaults of os-release(5) to missing fields', () => {
    expect(parseOsRelease('NAME="Arch Linux"\n')).toEqual({
      id: 'linux',
      versionId: '',
      prettyName: 'Linux',
    });
  });
});

describe('parseMeminfo', () => {
  it('gives MemTotal and MemAvailable in bytes', () => {
    expect(parseMeminfo(MEMINFO)).toEqual({ totalBytes: 4005380 * 1024, availableBytes: 3115712 * 1024 });
  });

  it('takes MemFree where the kernel has no MemAvailable', () => {
    expect(parseMeminfo('MemTotal:  2048 kB\nMemFree:   1024 kB\n')).toEqual({
      totalBytes: 2048 * 1024,
      availableBytes: 1024 * 1024,
    });
  });

  it('throws on text without MemTotal', () => {
    expect(() => parseMeminfo('Buffers: 12 kB\n')).toThrow(/MemTotal/);
  });
});

describe('parseIpAddresses', () => {
  it('reads each interface, whether it is up or loopback, and its IPv4 addresses', () => {
    expect(parseIpAddresses(IP_ADDRESSES)).toEqual([
      { name: 'lo', up: true, loopback: true, ipv4: ['127.0.0.1'] },
      { name: 'ens18', up: true, loopback: false, ipv4: ['203.0.113.7', '10.0.0.7'] },
      { name: 'docker0', up: false, loopback: false, ipv4: ['172.17.0.1'] },
      { name: 'wg0', up: true, loopback: false, ipv4: ['10.8.0.2'] },
    ]);
  });

  it('counts an interface without the UP flag as down', () => {
    const down = [{ ifname: 'ens19', flags: ['BROADCAST', 'MULTICAST'], operstate: 'DOWN', addr_info: [] }];
    expect(parseIpAddresses(JSON.stringify(down))).toEqual([
      { name: 'ens19', up: false, loopback: false, ipv4: [] },
    ]);
  });

  it('throws on output that is not a JSON array', () => {
    expect(() => parseIpAddresses('{"ifname":"lo"}')).toThrow(/JSON array/);
  });
});
