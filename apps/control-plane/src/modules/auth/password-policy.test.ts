import { describe, expect, it } from 'vitest';

import { newPasswordProblem, PASSWORD_LENGTH } from './password-policy.js';

const context = { email: 'alice.smith@example.test', organizationName: 'Acme Hosting' };

describe('new passwords (NIST SP 800-63B)', () => {
  it('refuses what the issue found accepted, each with a reason a person understands', () => {
    const cases: [string, RegExp][] = [
      ['aaaaaaaaaaaaaaa', /repeats a character or a pattern/],
      ['               ', /repeats a character or a pattern/],
      ['123456789012345', /sequence|commonly used/],
      ['password1234567', /commonly used password/],
      ['qwertyuiopasdfgh', /commonly used|keyboard/],
      ['alice.smith@example.test', /your email address, your organisation's name or NodeRings/],
      ['alicesmith12345', /your email address/],
      ['Acme Hosting 2026', /organisation's name/],
      ['noderings-123456', /NodeRings/],
      ['password12', /at least 15 characters/],
    ];
    for (const [password, reason] of cases)
      expect(newPasswordProblem(password, context), password).toMatch(reason);
  });

  it('sets no composition rule: phrases of plain words pass, and so do the repository’s own passwords', () => {
    for (const password of ['purple monkey dishwasher', 'correct horse battery', 'staff password 1234'])
      expect(newPasswordProblem(password, context), password).toBeUndefined();
    expect(
      newPasswordProblem('sandbox-password', {
        email: 'provider@sandbox.local',
        organizationName: 'Sandbox Hosting',
      }),
    ).toBeUndefined();
  });

  it('counts code points and keeps to the length limits', () => {
    expect(newPasswordProblem('🐙'.repeat(PASSWORD_LENGTH.min - 1), context)).toMatch(/at least 15/);
    expect(newPasswordProblem('x'.repeat(PASSWORD_LENGTH.max + 1), context)).toMatch(/at most 256/);
    // The longest password is judged by its start: a weak start stays weak.
    expect(newPasswordProblem('ab'.repeat(PASSWORD_LENGTH.max / 2), context)).toMatch(/repeats/);
  });
});
