import { KubeForbiddenError } from '@noderings/kube';
import { describe, expect, it } from 'vitest';

import { describeFailure, StillDeletingError } from './dispatch-failure.js';

const context = { timedOut: false, timeoutMs: 30_000, secrets: ['tok-123'] };

describe('describeFailure', () => {
  it('gives the network’s cause when the cluster cannot be reached', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6443'), { code: 'ECONNREFUSED' });
    expect(describeFailure(new TypeError('fetch failed', { cause: refused }), context)).toBe(
      'waiting for agent cluster: connect ECONNREFUSED 127.0.0.1:6443',
    );
    const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    expect(describeFailure(new TypeError('fetch failed', { cause: reset }), context)).toBe(
      'waiting for agent cluster: ECONNRESET socket hang up',
    );
  });

  it('gives the cluster’s own Status, without a credential', () => {
    const error = new KubeForbiddenError(403, {
      kind: 'Status',
      reason: 'Forbidden',
      message: 'User "tok-123" cannot get resource "proxmoxvms"',
    });
    expect(describeFailure(error, context)).toBe(
      'agent cluster answered 403 Forbidden: User "[redacted]" cannot get resource "proxmoxvms"',
    );
  });

  it('says how long it waited when the cluster did not answer', () => {
    expect(describeFailure(new Error('This operation was aborted'), { ...context, timedOut: true })).toBe(
      'waiting for agent cluster: no answer within 30 s',
    );
  });

  it('keeps its own reasons as they are, and short', () => {
    expect(describeFailure(new StillDeletingError('waiting for the previous one'), context)).toBe(
      'waiting for the previous one',
    );
    expect(describeFailure(new Error('x'.repeat(5_000)), context).length).toBe(500);
  });
});
