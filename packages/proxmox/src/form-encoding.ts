import { PveInvalidArgumentError } from './errors.js';

/** A parameter value as Proxmox's API schema knows them; `undefined` means "leave the parameter out". */
export type FormValue = string | number | boolean | undefined;

export type FormParams = Readonly<Record<string, FormValue>>;

/**
 * Encodes parameters the way Proxmox reads them: booleans as `1`/`0` (it rejects `true`), numbers in
 * plain decimal, everything percent-encoded (never `+` for a space, which not every decoder agrees on).
 * Lists are joined by the caller, since each parameter has its own separator.
 */
export function encodeForm(params: FormParams): string {
  const pairs: string[] = [];
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(formatValue(name, value))}`);
  }
  return pairs.join('&');
}

function formatValue(name: string, value: string | number | boolean): string {
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (typeof value === 'string') return value;
  if (!Number.isFinite(value)) {
    throw new PveInvalidArgumentError({ pveMessage: `parameter '${name}' is not a finite number: ${value}` });
  }
  // Number#toString switches to exponent notation (1e21, 1e-7), which Proxmox's number checks reject.
  if (Number.isInteger(value)) return BigInt(value).toString();
  const text = value.toString();
  return text.includes('e') ? value.toFixed(20).replace(/\.?0+$/, '') : text;
}
