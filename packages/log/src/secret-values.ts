/** Shorter values could mask ordinary words; every secret NodeRings holds is far longer. */
const MIN_SECRET_CHARS = 6;

/**
 * Values (tokens, seeds, JWTs, API token secrets) that must never appear in a log line, whatever field
 * or message carries them. Values can be added at any time; lines written afterwards mask them.
 */
export class SecretValues {
  private readonly values = new Set<string>();

  /** Values too short to mask without garbling ordinary text are ignored. */
  add(value: string): void {
    if (value.length < MIN_SECRET_CHARS) return;
    this.values.add(value);
    // Also as JSON escapes it, should it hold a quote, a backslash or a control character.
    this.values.add(JSON.stringify(value).slice(1, -1));
  }

  /** `text` with every known value replaced by `mask`. */
  mask(text: string, mask: string): string {
    let masked = text;
    for (const value of this.values) masked = masked.split(value).join(mask);
    return masked;
  }
}
