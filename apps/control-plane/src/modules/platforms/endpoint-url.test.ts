import { describe, expect, it } from 'vitest';

import { parseEndpointUrl } from './endpoint-url.js';

describe('parseEndpointUrl', () => {
  it.each([
    ['https://pve.example.test:8006', 'https://pve.example.test:8006'],
    ['https://PVE.Example.TEST:8006/', 'https://pve.example.test:8006'],
    ['HTTPS://pve.example.test:443', 'https://pve.example.test'],
    ['https://192.0.2.10:8006', 'https://192.0.2.10:8006'],
    ['https://[2001:DB8::1]:8006', 'https://[2001:db8::1]:8006'],
  ])('normalises %s to %s', (text, url) => {
    expect(parseEndpointUrl(text)).toEqual({ url });
  });

  it.each([
    ['', 'must be a URL'],
    ['pve.example.test:8006', 'must be an https:// URL'],
    ['http://pve.example.test', 'must be an https:// URL'],
    ['https://user:pass@pve.example.test', 'must not carry credentials'],
    ['https://pve.example.test/api2/json', 'without a path'],
    ['https://pve.example.test/?', 'without a path'],
    ['https://pve.example.test#x', 'without a path'],
  ])('refuses %j', (text, problem) => {
    const parsed = parseEndpointUrl(text);
    expect('problem' in parsed && parsed.problem).toContain(problem);
  });
});
