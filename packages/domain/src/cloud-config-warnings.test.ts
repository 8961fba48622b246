import { describe, expect, it } from 'vitest';

import { cloudConfigWarnings, templateWarnings } from './cloud-config-warnings.js';

describe('cloud-config warnings', () => {
  it('has nothing to say about plain cloud-config', () => {
    expect(cloudConfigWarnings('#cloud-config\npackages: [nginx]\nruncmd:\n  - echo hi\n')).toEqual([]);
    expect(cloudConfigWarnings('#cloud-config\n')).toEqual([]);
  });

  it('names unknown top-level keys with their lines', () => {
    expect(
      cloudConfigWarnings('#cloud-config\npackages: [nginx]\npackage: [vim]\nnetwork: {version: 2}\n'),
    ).toEqual([
      {
        code: 'UNKNOWN_KEY',
        message: expect.stringContaining('package') as unknown,
        line: 3,
        key: 'package',
      },
      {
        code: 'UNKNOWN_KEY',
        message: expect.stringContaining('network') as unknown,
        line: 4,
        key: 'network',
      },
    ]);
  });

  it('warns about a missing header, and says a script is run as it is', () => {
    expect(cloudConfigWarnings('packages: [nginx]\n')).toEqual([
      {
        code: 'NOT_CLOUD_CONFIG',
        message: expect.stringContaining('#cloud-config') as unknown,
        line: 1,
        key: '',
      },
    ]);
    expect(cloudConfigWarnings('#!/bin/sh\necho hi\n').map((w) => w.code)).toEqual(['NOT_CLOUD_CONFIG']);
  });

  it('reports YAML errors and a document that is not a mapping, with lines', () => {
    expect(cloudConfigWarnings('#cloud-config\npackages: [nginx\nruncmd: x\n')[0]).toMatchObject({
      code: 'INVALID_YAML',
      line: expect.any(Number) as unknown,
    });
    expect(cloudConfigWarnings('#cloud-config\n- a\n')).toEqual([
      { code: 'NOT_A_MAPPING', message: expect.any(String) as unknown, line: 2, key: '' },
    ]);
  });

  it("leaves cloud-init's own Jinja templates to be checked on the VM", () => {
    expect(
      cloudConfigWarnings('## template: jinja\n#cloud-config\nhostname: {{ v1.local_hostname }}\n'),
    ).toEqual([]);
  });
});

describe('template warnings', () => {
  it('warns when a template would drop the keys or the password of an order', () => {
    expect(templateWarnings('#cloud-config\nhostname: {{ hostname }}\n').map((w) => w.code)).toEqual([
      'SSH_KEYS_NOT_USED',
      'PASSWORD_NOT_USED',
    ]);
    expect(
      templateWarnings(
        '#cloud-config\nusers: [{name: u, ssh_authorized_keys: {{ ssh_authorized_keys }}, hashed_passwd: {{ password_hash }}}]\n',
      ),
    ).toEqual([]);
  });

  it("names unknown keys at the template's own lines, whatever the values expand to", () => {
    const template =
      '#cloud-config\nssh_authorized_keys: {{ ssh_authorized_keys }}\nusers: [{name: u, hashed_passwd: {{ password_hash }}}]\nhostnam: {{ hostname }}\n';
    expect(templateWarnings(template)).toEqual([
      {
        code: 'UNKNOWN_KEY',
        message: expect.stringContaining('hostnam') as unknown,
        line: 4,
        key: 'hostnam',
      },
    ]);
  });
});
