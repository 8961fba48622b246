import { describe, expect, test } from 'vitest';

import { ExpositionError, parseExposition, scanExposition } from './exposition-parser.js';
import type { ExpositionSample } from './exposition-parser.js';

function samplesOf(text: string): ExpositionSample[] {
  return parseExposition(text).flatMap((family) => family.samples);
}

function scanAll(text: string, accept: (name: string) => boolean = () => true): ExpositionSample[] {
  const samples: ExpositionSample[] = [];
  scanExposition(text, accept, (name, labels, value, timestampMs) => {
    samples.push({ name, labels, value, timestampMs });
  });
  return samples;
}

function errorOf(text: string): ExpositionError {
  try {
    parseExposition(text);
  } catch (e: unknown) {
    if (e instanceof ExpositionError) return e;
    throw e;
  }
  throw new Error('expected an ExpositionError');
}

describe('parseExposition', () => {
  test('reads families with HELP, TYPE, labels, values and timestamps', () => {
    const families = parseExposition(
      [
        '# HELP http_requests_total The total number of HTTP requests.',
        '# TYPE http_requests_total counter',
        'http_requests_total{method="post",code="200"} 1027 1395066363000',
        'http_requests_total{method="post",code="400"}    3 1395066363000',
        '',
        '# A comment that is neither HELP nor TYPE.',
        'metric_without_timestamp_and_labels 12.47',
      ].join('\n'),
    );
    expect(families).toEqual([
      {
        name: 'http_requests_total',
        type: 'counter',
        help: 'The total number of HTTP requests.',
        samples: [
          {
            name: 'http_requests_total',
            labels: { method: 'post', code: '200' },
            value: 1027,
            timestampMs: 1395066363000,
          },
          {
            name: 'http_requests_total',
            labels: { method: 'post', code: '400' },
            value: 3,
            timestampMs: 1395066363000,
          },
        ],
      },
      {
        name: 'metric_without_timestamp_and_labels',
        type: 'untyped',
        help: undefined,
        samples: [
          { name: 'metric_without_timestamp_and_labels', labels: {}, value: 12.47, timestampMs: undefined },
        ],
      },
    ]);
  });

  test('reads NaN, infinities in every spelling Go accepts, exponents and signs', () => {
    const values = samplesOf(
      ['a NaN', 'b +Inf', 'c -Inf', 'd Inf', 'e -1.5e-3', 'f 1E+6', 'g +7', 'h .5', 'i nan', 'j -inf'].join(
        '\n',
      ),
    ).map((sample) => sample.value);
    expect(values).toEqual([NaN, Infinity, -Infinity, Infinity, -0.0015, 1e6, 7, 0.5, NaN, -Infinity]);
  });

  test('rejects hexadecimal and other non-decimal values', () => {
    for (const value of ['0x1F', '0b101', '0o17', '1_000', 'Infinityx', '', '1e', '--1']) {
      expect(() => parseExposition(`metric ${value}\n`), value).toThrow(ExpositionError);
    }
  });

  test('reads negative and positive timestamps, and a timestamp after extra blanks', () => {
    expect(samplesOf('a 1 -1000\nb 2 \t 1700000000000\t\n').map((sample) => sample.timestampMs)).toEqual([
      -1000, 1700000000000,
    ]);
  });

  test('unescapes label values and HELP text', () => {
    const [family] = parseExposition(
      [
        String.raw`# HELP paths Paths seen, one per line: a\nb, with a backslash \\ kept`,
        String.raw`paths{path="C:\\dir\\file",quote="say \"hi\"",lines="one\ntwo"} 1`,
      ].join('\n'),
    );
    expect(family?.help).toBe('Paths seen, one per line: a\nb, with a backslash \\ kept');
    expect(family?.samples[0]?.labels).toEqual({
      path: 'C:\\dir\\file',
      quote: 'say "hi"',
      lines: 'one\ntwo',
    });
  });

  test('keeps braces, commas, equals signs and hashes inside label values', () => {
    expect(samplesOf('m{a="x{y}",b="1,2",c="k=v # not a comment"} 1\n')[0]?.labels).toEqual({
      a: 'x{y}',
      b: '1,2',
      c: 'k=v # not a comment',
    });
  });

  test('accepts a trailing comma, an empty label set, blanks around label tokens and CRLF line ends', () => {
    const samples = samplesOf('# TYPE m gauge\r\nm{a="1",} 1\r\nm{} 2\r\n\r\nm { b = "2" , } 3 42\r\n');
    expect(samples.map(({ labels, value, timestampMs }) => ({ labels, value, timestampMs }))).toEqual([
      { labels: { a: '1' }, value: 1, timestampMs: undefined },
      { labels: {}, value: 2, timestampMs: undefined },
      { labels: { b: '2' }, value: 3, timestampMs: 42 },
    ]);
    expect(parseExposition('m 1\r\n')[0]?.type).toBe('untyped');
  });

  test('reads a document without a final newline, and an empty one', () => {
    expect(samplesOf('a 1\nb 2')).toHaveLength(2);
    expect(parseExposition('')).toEqual([]);
    expect(parseExposition('\n\n# just a comment\n')).toEqual([]);
  });

  test('groups _bucket, _sum and _count under their histogram or summary family', () => {
    const families = parseExposition(
      [
        '# TYPE rpc_duration_seconds summary',
        'rpc_duration_seconds{quantile="0.5"} 4773',
        'rpc_duration_seconds{quantile="0.99"} 76656',
        'rpc_duration_seconds_sum 1.7560473e+07',
        'rpc_duration_seconds_count 2693',
        '# TYPE request_seconds histogram',
        'request_seconds_bucket{le="0.1"} 33444',
        'request_seconds_bucket{le="+Inf"} 144320',
        'request_seconds_sum 53423',
        'request_seconds_count 144320',
        'request_seconds_created 1',
      ].join('\n'),
    );
    expect(families.map((family) => [family.name, family.type, family.samples.length])).toEqual([
      ['rpc_duration_seconds', 'summary', 4],
      ['request_seconds', 'histogram', 4],
      ['request_seconds_created', 'untyped', 1],
    ]);
  });

  test('lists a family declared without samples', () => {
    expect(parseExposition('# HELP idle Nothing yet.\n# TYPE idle gauge\n')).toEqual([
      { name: 'idle', type: 'gauge', help: 'Nothing yet.', samples: [] },
    ]);
  });

  test.each([
    ['m 1\n# TYPE m counter\n', 2, 'TYPE line for m after its samples'],
    ['# TYPE m counter\n# TYPE m gauge\n', 2, 'second TYPE line for m'],
    ['# HELP m one\n# HELP m two\n', 2, 'second HELP line for m'],
    ['# TYPE m speedometer\n', 1, 'unknown metric type "speedometer" for m'],
    ['# TYPE\n', 1, 'TYPE line without a metric name'],
    ['# HELP 9lives x\n', 1, 'invalid metric name "9lives" in HELP line'],
    ['ok 1\nm 0x1F\n', 2, 'invalid value "0x1F"'],
    ['m{a="b"}\n', 1, 'expected a value'],
    ['m\n', 1, 'no value after m'],
    ['9m 1\n', 1, 'expected a metric name, found "9"'],
    ['m-x 1\n', 1, 'unexpected "-" in metric name m'],
    ['m{a="b} 1\n', 1, 'value of label a is not closed'],
    ['m{a="b"\n', 1, 'expected "," or "}" after the value of label a'],
    ['m{a=b} 1\n', 1, 'expected a quoted value for label a'],
    ['m{a} 1\n', 1, 'expected "=" after label a'],
    ['m{,} 1\n', 1, 'expected a label name, found ","'],
    ['m{a="1",a="2"} 1\n', 1, 'label a appears twice'],
    ['m{__name__="x"} 1\n', 1, 'label name __name__ is reserved'],
    [String.raw`m{a="\t"} 1` + '\n', 1, String.raw`invalid escape "\t" in the value of label a`],
    [String.raw`# HELP m bad \x escape` + '\n', 1, String.raw`invalid escape "\x" in HELP text`],
    ['m 1 12.5\n', 1, 'invalid timestamp "12.5"'],
    ['m 1 12 13\n', 1, 'unexpected text after the timestamp: "13"'],
    ['# TYPE h histogram\nh_bucket 1\n', 2, 'h_bucket has no "le" label'],
    ['# TYPE h histogram\nh_bucket{le="big"} 1\n', 2, '"le" label of h_bucket is not a number: "big"'],
    ['# TYPE h histogram\nh 1\n', 2, 'histogram sample h must end in _bucket, _sum or _count'],
    ['# TYPE s summary\ns 1\n', 2, 's has no "quantile" label'],
  ])('rejects %j at line %i: %s', (text, line, problem) => {
    const error = errorOf(text);
    expect(error.line).toBe(line);
    expect(error.problem).toBe(problem);
    expect(error.message).toBe(`line ${line}: ${problem}`);
  });

  test('counts lines across CRLF and blank lines in errors', () => {
    expect(errorOf('a 1\r\n\r\n# c\r\nb x\r\n').line).toBe(4);
  });
});

describe('scanExposition', () => {
  const text = [
    '# HELP a_total A counter.',
    '# TYPE a_total counter',
    'a_total{x="1"} 1 1395066363000',
    'a_total{x="2"} 2',
    '# TYPE h histogram',
    'h_bucket{le="+Inf"} 3',
    'h_sum 4.5',
    'h_count 3',
    'plain 7',
  ].join('\n');

  test('passes on the same samples as the full parser', () => {
    expect(scanAll(text)).toEqual(samplesOf(text));
  });

  test('passes on only the accepted names, asking once per run of lines with the same name', () => {
    const asked: string[] = [];
    const samples = scanAll(text, (name) => {
      asked.push(name);
      return name === 'h_sum' || name === 'plain';
    });
    expect(samples.map((sample) => `${sample.name} ${sample.value}`)).toEqual(['h_sum 4.5', 'plain 7']);
    expect(asked).toEqual(['a_total', 'h_bucket', 'h_sum', 'h_count', 'plain']);
  });

  test('does not parse the labels of skipped lines, and checks the lines it passes on', () => {
    const broken = 'skipped{a="never closed 1\nkept{a="1"} 2\n';
    expect(scanAll(broken, (name) => name === 'kept')).toEqual([
      { name: 'kept', labels: { a: '1' }, value: 2, timestampMs: undefined },
    ]);
    expect(() => scanAll(broken)).toThrow('line 1: value of label a is not closed');
  });

  test('still rejects a line whose metric name is malformed even when skipping it', () => {
    expect(() => scanAll('ok 1\n{a="b"} 1\n', () => false)).toThrow(
      'line 2: expected a metric name, found "{"',
    );
  });
});
