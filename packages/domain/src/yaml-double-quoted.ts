/**
 * A YAML double-quoted scalar for any string, readable alike by YAML 1.1 parsers (PyYAML, which
 * cloud-init uses) and 1.2 ones. Everything but printable ASCII that YAML 1.1 could read as a line
 * break, or not accept at all, is escaped: NEL, LINE/PARAGRAPH SEPARATOR, C0 and C1 controls, DEL, the
 * byte-order mark, non-characters and lone surrogates. JSON's escaping is not enough: it leaves
 * U+2028 and U+0085 as they are, and PyYAML breaks lines at them.
 */
export function yamlDoubleQuoted(value: string): string {
  let out = '"';
  for (const char of value) {
    const code = char.codePointAt(0) ?? 0;
    out += escapeOf(char, code) ?? char;
  }
  return `${out}"`;
}

const NAMED_ESCAPES: ReadonlyMap<string, string> = new Map([
  ['"', '\\"'],
  ['\\', '\\\\'],
  ['\n', '\\n'],
  ['\t', '\\t'],
  ['\r', '\\r'],
  ['\u0085', '\\N'],
  ['\u2028', '\\L'],
  ['\u2029', '\\P'],
]);

function hex(code: number, digits: number): string {
  return code.toString(16).toUpperCase().padStart(digits, '0');
}

function escapeOf(char: string, code: number): string | undefined {
  const named = NAMED_ESCAPES.get(char);
  if (named !== undefined) return named;
  if (code < 0x20 || (code >= 0x7f && code < 0xa0)) return `\\x${hex(code, 2)}`;
  const loneSurrogate = code >= 0xd800 && code <= 0xdfff;
  if (loneSurrogate || code === 0xfeff || code === 0xfffe || code === 0xffff) return `\\u${hex(code, 4)}`;
  return undefined;
}

/** True when a string holds nothing a YAML 1.1 parser could read differently from a 1.2 one. */
export function isPortableYamlText(value: string): boolean {
  for (const char of value) {
    if (char === '\n' || char === '\t') continue;
    const code = char.codePointAt(0) ?? 0;
    if (escapeOf(char, code) !== undefined && char !== '"' && char !== '\\') return false;
  }
  return true;
}
