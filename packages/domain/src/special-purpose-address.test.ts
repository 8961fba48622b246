import { describe, expect, it } from 'vitest';

import { parseIpAddress, parseIpPrefix } from './ip-prefix.js';
import { prefixUse, publicAddressProblem, specialPurposeRangeOf } from './special-purpose-address.js';

const address = (text: string) => parseIpAddress(text, 'address');
const prefix = (text: string) => parseIpPrefix(text, 'prefix');

describe('special-purpose addresses', () => {
  it.each(['8.8.8.8', '1.1.1.1', '185.12.64.1', '2a01:4f8::1', '2606:4700::1111'])('%s is public', (text) => {
    expect(specialPurposeRangeOf(address(text))).toBeUndefined();
    expect(publicAddressProblem(address(text))).toBeUndefined();
  });

  it.each([
    ['10.0.0.5', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.100', 'private'],
    ['100.64.0.1', 'private'],
    ['fd12::1', 'private'],
    ['192.0.2.10', 'documentation'],
    ['203.0.113.10', 'documentation'],
    ['2001:db8::1', 'documentation'],
    ['0.0.0.0', 'reserved'],
    ['127.0.0.1', 'reserved'],
    ['169.254.169.254', 'reserved'],
    ['224.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['::', 'reserved'],
    ['::1', 'reserved'],
    ['::ffff:10.0.0.5', 'reserved'],
    ['::ffff:8.8.8.8', 'reserved'],
    ['fe80::1', 'reserved'],
    ['ff02::1', 'reserved'],
    ['4000::1', 'reserved'],
  ])('%s is %s', (text, use) => {
    expect(specialPurposeRangeOf(address(text))?.use).toBe(use);
    expect(publicAddressProblem(address(text))).toContain('must be a public address');
  });

  it.each([
    ['185.12.64.0/22', 'public'],
    ['2a01:4f8::/32', 'public'],
    ['10.20.0.0/16', 'private'],
    ['fd00::/8', 'private'],
    ['100.64.0.0/10', 'private'],
    ['198.51.100.0/24', 'documentation'],
    ['0.0.0.0/0', 'reserved'],
    ['::/0', 'reserved'],
    ['127.0.0.0/24', 'reserved'],
    ['224.0.0.0/24', 'reserved'],
    ['fe80::/64', 'reserved'],
    ['::ffff:0.0.0.0/104', 'reserved'],
    ['10.0.0.0/7', 'public'],
    ['192.0.2.0/23', 'public'],
    ['2000::/3', 'reserved'],
    ['c000::/3', 'reserved'],
  ])('the prefix %s is %s', (text, use) => {
    expect(prefixUse(prefix(text)).use).toBe(use);
  });
});
