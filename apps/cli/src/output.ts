import type { CliIo } from './cli-io.js';
import { CliError } from './cli-error.js';

export const OUTPUT_FORMATS = ['text', 'json'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

type Mark = 'ok' | 'fail' | 'warn';
const GLYPHS: Readonly<Record<Mark, string>> = { ok: '✓', fail: '✗', warn: '⚠' };
const WORDS: Readonly<Record<Mark, string>> = { ok: '[OK]', fail: '[FAIL]', warn: '[WARN]' };

/** The one way commands write: results to stdout (one JSON document, or text), progress to stderr. */
export class Output {
  constructor(
    private readonly io: CliIo,
    readonly format: OutputFormat,
  ) {}

  /** The command's result: `json` as one document in JSON mode, `text()` otherwise. */
  result(json: unknown, text: () => string): void {
    if (this.format === 'json') this.io.stdout(`${JSON.stringify(json, null, 2)}\n`);
    else this.io.stdout(text());
  }

  ok(message: string): void {
    this.mark('ok', message);
  }

  warn(message: string): void {
    this.mark('warn', message);
  }

  fail(message: string): void {
    this.mark('fail', message);
  }

  /** Defaults to No; off a terminal it fails unless `yes` was given. */
  async confirm(question: string, yes: boolean): Promise<void> {
    if (yes) return;
    if (this.io.prompt === undefined) {
      throw new CliError('NOT_CONFIRMED', `${question} Not on a terminal: re-run with --yes.`);
    }
    const answer = (await this.io.prompt(`${question} [y/N] `)).trim().toLowerCase();
    if (answer !== 'y' && answer !== 'yes') throw new CliError('NOT_CONFIRMED', 'Cancelled.');
  }

  private mark(mark: Mark, message: string): void {
    this.io.stderr(`${(this.io.stderrIsTty ? GLYPHS : WORDS)[mark]} ${message}\n`);
  }
}

/** Columns padded to their widest cell, two spaces apart. */
export function renderTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return `${[header, ...rows].map(line).join('\n')}\n`;
}

/** `key: value` lines, keys aligned. */
export function renderFields(fields: readonly (readonly [string, string])[]): string {
  const width = Math.max(...fields.map(([k]) => k.length)) + 1;
  return fields.map(([k, v]) => `${`${k}:`.padEnd(width)} ${v}\n`).join('');
}
