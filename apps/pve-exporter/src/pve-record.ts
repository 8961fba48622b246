import { ExporterError } from './exporter-error.js';

/** One JSON object of a Proxmox answer, read field by field: Proxmox adds fields between releases. */
export type PveRecord = Readonly<Record<string, unknown>>;

export function expectRecord(value: unknown, where: string): PveRecord {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw malformed(`${where}: expected an object, got ${excerpt(value)}`);
  }
  return value as PveRecord;
}

export function requireString(record: PveRecord, key: string, where: string): string {
  const value = record[key];
  if (typeof value !== 'string') throw malformed(`${where}: "${key}" is not a string: ${excerpt(value)}`);
  return value;
}

/** A field that is absent, or a string; the empty string counts as absent. */
export function optionalString(record: PveRecord, key: string): string | undefined {
  const value = record[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The entries of a list answer, each of which must be an object. */
export function readRecords(data: readonly unknown[], where: string): PveRecord[] {
  return data.map((entry, index) => expectRecord(entry, `${where}[${index}]`));
}

/** A guest's VMID: an integer (or, from older Perl serialisation, a string of digits). */
export function vmidOf(record: PveRecord, where: string): number {
  const vmid = record.vmid;
  if (typeof vmid === 'number' && Number.isInteger(vmid)) return vmid;
  if (typeof vmid === 'string' && /^\d+$/.test(vmid)) return Number(vmid);
  throw malformed(`${where}: "vmid" is not a VMID: ${excerpt(vmid)}`);
}

/** A sample value from a JSON field, as Python's `float()` reads it: numbers, booleans, numeric strings. */
export function sampleValue(raw: unknown, where: string): number {
  if (typeof raw === 'number' && Number.isFinite(raw)) return raw;
  if (typeof raw === 'boolean') return raw ? 1 : 0;
  if (typeof raw === 'string' && raw.trim() !== '' && Number.isFinite(Number(raw))) return Number(raw);
  throw malformed(`${where}: not a number: ${excerpt(raw)}`);
}

/** A label value from a JSON field, as Python's `str()` writes it (the label values upstream shows). */
export function labelText(raw: unknown): string {
  if (raw === undefined) return '';
  if (raw === null) return 'None';
  if (typeof raw === 'boolean') return raw ? 'True' : 'False';
  if (typeof raw === 'string') return raw;
  if (typeof raw === 'number') return String(raw);
  return JSON.stringify(raw);
}

export function malformed(message: string): ExporterError {
  return new ExporterError('MALFORMED_ANSWER', `malformed answer from Proxmox: ${message}`);
}

const EXCERPT_CHARS = 80;

function excerpt(value: unknown): string {
  const text = value === undefined ? 'missing' : JSON.stringify(value);
  return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text;
}
