/**
 * A sample value as the Prometheus Go client writes it: `strconv.FormatFloat(v, 'g', -1, 64)`, so the
 * shortest digits, in exponent form (`4.294967296e+09`) from 1e6 up and below 1e-4.
 */
export function formatGoFloat(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  if (value === 0) return '0';
  const abs = Math.abs(value);
  if (abs >= 1e-4 && abs < 1e6) return String(value);
  if (Number.isInteger(value) && abs < 1e21) {
    // Below 1e21 JavaScript prints an integer as its shortest digits padded with zeros.
    const text = String(abs);
    const digits = text.replace(/0+$/, '');
    const mantissa = digits.length > 1 ? `${digits.charAt(0)}.${digits.slice(1)}` : digits;
    return `${value < 0 ? '-' : ''}${mantissa}e+${String(text.length - 1).padStart(2, '0')}`;
  }
  const [mantissa = '', exponent = '0'] = value.toExponential().split('e');
  const exp = Number(exponent);
  return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
}
