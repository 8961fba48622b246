import { describe, expect, it } from 'vitest';

import { apiErrorFromResponse } from '../../api/api-error.js';
import { documentProblems, lineRange } from './cloud-init-problems.js';

describe('documentProblems', () => {
  it('places each compile problem at its document, line and column', () => {
    const error = apiErrorFromResponse(400, {
      code: 'INVALID_ARGUMENT',
      message: 'The template is invalid: …',
      details: [
        {
          '@type': 'type.googleapis.com/google.rpc.BadRequest',
          fieldViolations: [
            { field: 'userData', description: 'line 4, column 1: Flow sequence must end with a ]' },
            { field: 'networkData', description: 'must be a single YAML document' },
            { field: 'name', description: 'is taken' },
          ],
        },
      ],
    });
    expect(documentProblems(error)).toEqual([
      { document: 'userData', line: 4, column: 1, message: 'Flow sequence must end with a ]' },
      {
        document: 'networkData',
        line: undefined,
        column: undefined,
        message: 'must be a single YAML document',
      },
    ]);
  });

  it('finds none in anything else', () => {
    expect(documentProblems(new Error('x'))).toEqual([]);
  });
});

describe('lineRange', () => {
  it('selects a whole line, and the end for a line past the last', () => {
    const text = '#cloud-config\nhostname: x\nfoo: [';
    expect(text.slice(...lineRange(text, 2))).toBe('hostname: x');
    expect(text.slice(...lineRange(text, 3))).toBe('foo: [');
    expect(lineRange(text, 9)).toEqual([text.length, text.length]);
  });
});
