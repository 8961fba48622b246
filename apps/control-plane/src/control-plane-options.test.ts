import { describe, expect, it } from 'vitest';

import { parseOptions, UsageError } from './control-plane-options.js';

describe('--trust-proxy / NR_TRUST_PROXY', () => {
  it('takes the proxies to believe, as addresses, CIDR prefixes or named ranges', () => {
    expect(parseOptions(['--trust-proxy', '10.0.0.0/8, 192.0.2.10,loopback'], {}).trustedProxies).toEqual([
      '10.0.0.0/8',
      '192.0.2.10',
      'loopback',
    ]);
    expect(parseOptions(['--trust-proxy=2001:db8::/48'], {}).trustedProxies).toEqual(['2001:db8::/48']);
    expect(parseOptions([], { NR_TRUST_PROXY: '192.0.2.10' }).trustedProxies).toEqual(['192.0.2.10']);
    expect(parseOptions([], {}).trustedProxies).toEqual([]);
  });

  it('refuses the old switch that believed every client, and hop counts, saying what to give instead', () => {
    for (const argv of [
      ['--trust-proxy'],
      ['--trust-proxy', '--listen', '127.0.0.1:8080'],
      ['--trust-proxy', 'true'],
      ['--trust-proxy=1'],
    ]) {
      expect(() => parseOptions(argv, {}), argv.join(' ')).toThrow(UsageError);
      expect(() => parseOptions(argv, {}), argv.join(' ')).toThrow(
        /addresses or CIDR prefixes of the load balancers/,
      );
    }
    expect(() => parseOptions([], { NR_TRUST_PROXY: 'true' })).toThrow(/load balancers/);
    expect(() => parseOptions([], { NR_TRUST_PROXY: '2' })).toThrow(/load balancers/);
  });

  it('names an entry that is not an address', () => {
    expect(() => parseOptions(['--trust-proxy', '10.0.0.0/8,proxy.internal'], {})).toThrow(
      /"proxy.internal" is not an IP address/,
    );
    expect(() => parseOptions(['--trust-proxy', '10.0.0.0/33'], {})).toThrow(/"10.0.0.0\/33"/);
  });
});

describe('NR_ADMIN_PASSWORD', () => {
  const admin = (password: string) => ({ NR_ADMIN_EMAIL: 'ops@example.test', NR_ADMIN_PASSWORD: password });

  it('must follow the same rules as every password', () => {
    expect(() => parseOptions([], admin('aaaaaaaaaaaaaaaa'))).toThrow(
      /NR_ADMIN_PASSWORD is too easy to guess/,
    );
    expect(() => parseOptions([], admin('short one'))).toThrow(/NR_ADMIN_PASSWORD must have at least 15/);
    expect(parseOptions([], admin('staff password 1234')).admin).toEqual({
      email: 'ops@example.test',
      password: 'staff password 1234',
    });
  });
});

describe('--allow-private-destinations / NR_ALLOW_PRIVATE_DESTINATIONS', () => {
  it('is off unless the flag or the variable turns it on', () => {
    expect(parseOptions([], {}).allowPrivateDestinations).toBe(false);
    expect(parseOptions(['--allow-private-destinations'], {}).allowPrivateDestinations).toBe(true);
    expect(parseOptions([], { NR_ALLOW_PRIVATE_DESTINATIONS: 'true' }).allowPrivateDestinations).toBe(true);
    expect(parseOptions([], { NR_ALLOW_PRIVATE_DESTINATIONS: '0' }).allowPrivateDestinations).toBe(false);
    expect(() => parseOptions([], { NR_ALLOW_PRIVATE_DESTINATIONS: 'yes please' })).toThrow(UsageError);
  });
});

describe('--platform-versions-file / NR_PLATFORM_VERSIONS_FILE', () => {
  it('names the file as an absolute path, the flag before the variable', () => {
    expect(parseOptions([], {}).platformVersionsFile).toBeUndefined();
    expect(parseOptions([], { NR_PLATFORM_VERSIONS_FILE: '/etc/nr/pins.json' }).platformVersionsFile).toBe(
      '/etc/nr/pins.json',
    );
    expect(
      parseOptions(['--platform-versions-file', '/srv/pins.json'], {
        NR_PLATFORM_VERSIONS_FILE: '/etc/x.json',
      }).platformVersionsFile,
    ).toBe('/srv/pins.json');
    expect(parseOptions(['--platform-versions-file=pins.json'], {}).platformVersionsFile).toMatch(
      /^\/.*\/pins\.json$/,
    );
  });
});
