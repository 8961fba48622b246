import { describe, expect, it } from 'vitest';

import { parseServiceState, renderServiceUnit } from './systemd-unit.js';

const K3S = { name: 'k3s', description: 'k3s', execStart: ['/usr/local/bin/k3s', 'server'] };

function execStartOf(text: string): string | undefined {
  return text.split('\n').find((l) => l.startsWith('ExecStart='));
}

describe('renderServiceUnit', () => {
  it('leaves plain words bare and quotes the others with C escapes', () => {
    const unit = renderServiceUnit({
      ...K3S,
      execStart: [
        '/usr/local/bin/k3s',
        'server',
        '--node-label=a b',
        'say "hi"',
        'back\\slash',
        'two\nlines',
        '',
      ],
    });
    expect(execStartOf(unit)).toBe(
      'ExecStart=/usr/local/bin/k3s server "--node-label=a b" "say \\"hi\\"" "back\\\\slash" "two\\nlines" ""',
    );
  });

  it('doubles % (specifiers) everywhere and $ (expansion) in ExecStart', () => {
    const unit = renderServiceUnit({
      ...K3S,
      description: '100% k3s',
      execStart: ['/bin/echo', '$HOME', '50%'],
      environment: { PRICE: '$5 %n' },
    });
    expect(unit).toContain('Description=100%% k3s\n');
    expect(execStartOf(unit)).toBe('ExecStart=/bin/echo "$$HOME" "50%%"');
    expect(unit).toContain('Environment="PRICE=$5 %%n"\n');
  });

  it('refuses what systemd would read differently', () => {
    expect(() => renderServiceUnit({ ...K3S, name: 'k3s.service' })).toThrow(/unit name/);
    expect(() => renderServiceUnit({ ...K3S, name: '../k3s' })).toThrow(/unit name/);
    expect(() => renderServiceUnit({ ...K3S, description: 'two\nlines' })).toThrow(/one line/);
    expect(() => renderServiceUnit({ ...K3S, execStart: ['k3s', 'server'] })).toThrow(/absolute path/);
    expect(() => renderServiceUnit({ ...K3S, execStart: [] })).toThrow(/absolute path/);
    expect(() => renderServiceUnit({ ...K3S, environment: { 'K3S-TOKEN': 'x' } })).toThrow(/variable name/);
  });
});

describe('parseServiceState', () => {
  it.each([
    ['LoadState=loaded\nActiveState=active\n', 'active'],
    ['ActiveState=active\nLoadState=loaded\n', 'active'],
    ['LoadState=loaded\nActiveState=activating\n', 'activating'],
    ['LoadState=loaded\nActiveState=deactivating\n', 'inactive'],
    ['LoadState=loaded\nActiveState=inactive\n', 'inactive'],
    ['LoadState=loaded\nActiveState=failed\n', 'failed'],
    ['LoadState=bad-setting\nActiveState=inactive\n', 'failed'],
    ['LoadState=not-found\nActiveState=inactive\n', 'not-found'],
    ['LoadState=not-found\nActiveState=failed\n', 'not-found'],
  ] as const)('reads %j as %s', (shown, state) => {
    expect(parseServiceState(shown)).toBe(state);
  });

  it('throws when the properties are missing', () => {
    expect(() => parseServiceState('')).toThrow(/LoadState/);
  });
});
