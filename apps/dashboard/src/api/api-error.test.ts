import { describe, expect, it } from 'vitest';

import {
  ApiError,
  apiErrorFromResponse,
  errorAt,
  fieldErrorsOf,
  messageOf,
  networkError,
} from './api-error.js';

const invalid = {
  code: 'INVALID_ARGUMENT',
  message: 'The request is invalid.',
  details: [
    {
      '@type': 'type.googleapis.com/google.rpc.BadRequest',
      fieldViolations: [
        { field: 'email', description: 'Invalid email address' },
        { field: 'query.filterCurrency', description: 'is required with filterMaxMonthlyPrice' },
        { field: 'rule.source.ips.1', description: 'is not an address' },
        { field: 'email', description: 'a second complaint' },
      ],
    },
  ],
};

describe('apiErrorFromResponse', () => {
  it('keeps the message, code and field violations of a google.rpc.Status', () => {
    const error = apiErrorFromResponse(400, invalid);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe('The request is invalid.');
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.fieldViolations).toHaveLength(4);
  });

  it('words an answer without a body by its status, never as a stack trace or raw text', () => {
    expect(apiErrorFromResponse(401, undefined).message).toBe('Your session has ended. Sign in again.');
    expect(apiErrorFromResponse(429, '<html>').message).toMatch(/Too many requests/);
    const server = apiErrorFromResponse(502, undefined);
    expect(server.message).toMatch(/status 502/);
    expect(server.code).toBe('INTERNAL');
  });

  it('ignores malformed details rather than failing', () => {
    const error = apiErrorFromResponse(400, {
      code: 'INVALID_ARGUMENT',
      message: 'No.',
      details: [{ x: 1 }, null],
    });
    expect(error.fieldViolations).toEqual([]);
    expect(error.message).toBe('No.');
  });
});

describe('fieldErrorsOf', () => {
  it('keys violations by field, without the query prefix, first description winning', () => {
    const errors = fieldErrorsOf(apiErrorFromResponse(400, invalid));
    expect(errors.email).toBe('Invalid email address');
    expect(errors.filterCurrency).toBe('is required with filterMaxMonthlyPrice');
  });

  it('strips the request object a form edits', () => {
    expect(fieldErrorsOf(apiErrorFromResponse(400, invalid), 'rule')['source.ips.1']).toBe(
      'is not an address',
    );
  });

  it('finds a list element violation for the input that edits the whole list', () => {
    const errors = fieldErrorsOf(apiErrorFromResponse(400, invalid), 'rule');
    expect(errorAt(errors, 'source')).toBe('is not an address');
    expect(errorAt(errors, 'destination')).toBeUndefined();
    expect(errorAt({ sources: 'x' }, 'source')).toBeUndefined();
  });

  it('is empty for anything but an API error', () => {
    expect(fieldErrorsOf(new Error('boom'))).toEqual({});
    expect(fieldErrorsOf(null)).toEqual({});
  });
});

describe('messageOf', () => {
  it('never shows the text of an unexpected exception', () => {
    expect(messageOf(new TypeError('x is undefined at foo.tsx:12'))).not.toMatch(/foo\.tsx/);
    expect(messageOf(networkError())).toMatch(/cannot be reached/);
  });
});
