import type { MetricFamily } from './metric-family.js';

/** What `/pve` answers with: Prometheus' text format 0.0.4. */
export const TEXT_EXPOSITION_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/**
 * Renders families in the text format 0.0.4 the way Python's prometheus_client does, so that the output
 * matches prometheus-pve-exporter's byte for byte: HELP and TYPE lines even for a family without samples,
 * labels sorted by name, values written as Python writes floats (`1.0`, `1.073741824e+11`).
 */
export function renderTextExposition(families: readonly MetricFamily[]): string {
  const lines: string[] = [];
  for (const family of families) {
    lines.push(`# HELP ${family.name} ${escapeHelp(family.help)}`, `# TYPE ${family.name} ${family.type}`);
    for (const sample of family.samples) {
      const labels = Object.entries(sample.labels)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([name, value]) => `${name}="${escapeLabelValue(value)}"`);
      const labelText = labels.length === 0 ? '' : `{${labels.join(',')}}`;
      lines.push(`${family.name}${labelText} ${formatSampleValue(sample.value)}`);
    }
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

function escapeHelp(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

function escapeLabelValue(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

/** Python prints a float in fixed notation when its decimal exponent is at least MIN and below MAX. */
const FIXED_NOTATION_MIN_EXPONENT = -4;
const FIXED_NOTATION_MAX_EXPONENT = 16;
/** prometheus_client switches positive values with more integer digits than this to e-notation, as Go does. */
const GO_MAX_INTEGER_DIGITS = 6;

/** A sample value as prometheus_client writes it: Python's `repr(float)`, with Go's earlier switch to exponents. */
export function formatSampleValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  const text = pythonFloatRepr(value);
  const dot = text.indexOf('.');
  if (value > 0 && dot > GO_MAX_INTEGER_DIGITS) {
    const mantissa = `${text.slice(0, 1)}.${text.slice(1, dot)}${text.slice(dot + 1)}`.replace(/[0.]+$/, '');
    return `${mantissa}e+${String(dot - 1).padStart(2, '0')}`;
  }
  return text;
}

/** Python's `repr()` of a float: the shortest digits that read back to the same value. */
function pythonFloatRepr(value: number): string {
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const sign = value < 0 ? '-' : '';
  // toExponential() without an argument gives the shortest round-trip digits, as Python's repr does.
  const [mantissa = '', exponentText = '0'] = Math.abs(value).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const exponent = Number(exponentText);
  if (exponent < FIXED_NOTATION_MIN_EXPONENT || exponent >= FIXED_NOTATION_MAX_EXPONENT) {
    const fraction = digits.length > 1 ? `.${digits.slice(1)}` : '';
    const magnitude = String(Math.abs(exponent)).padStart(2, '0');
    return `${sign}${digits.slice(0, 1)}${fraction}e${exponent < 0 ? '-' : '+'}${magnitude}`;
  }
  const integerDigits = exponent + 1;
  if (integerDigits <= 0) return `${sign}0.${'0'.repeat(-integerDigits)}${digits}`;
  if (integerDigits >= digits.length) return `${sign}${digits}${'0'.repeat(integerDigits - digits.length)}.0`;
  return `${sign}${digits.slice(0, integerDigits)}.${digits.slice(integerDigits)}`;
}
