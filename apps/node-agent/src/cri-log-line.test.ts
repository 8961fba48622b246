import { describe, expect, test } from 'vitest';

import { parseCriLogLine } from './cri-log-line.js';

describe('parseCriLogLine', () => {
  test.each([
    [
      '2024-05-01T10:00:00.123456789Z stdout F hello world',
      {
        timeMs: Date.UTC(2024, 4, 1, 10, 0, 0, 123),
        stream: 'stdout',
        partial: false,
        message: 'hello world',
      },
    ],
    [
      '2024-05-01T12:00:00+02:00 stderr P part ',
      { timeMs: Date.UTC(2024, 4, 1, 10), stream: 'stderr', partial: true, message: 'part ' },
    ],
    [
      '2024-05-01T10:00:00Z stdout F',
      { timeMs: Date.UTC(2024, 4, 1, 10), stream: 'stdout', partial: false, message: '' },
    ],
  ])('%j', (line, parsed) => {
    expect(parseCriLogLine(line)).toEqual(parsed);
  });

  test.each([
    'plain text',
    '2024-05-01T10:00:00Z stdin F x',
    'not-a-time stdout F x',
    '2024-13-45T99:00:00Z stdout F x',
  ])('%j is not a CRI line', (line) => {
    expect(parseCriLogLine(line)).toBeUndefined();
  });
});
