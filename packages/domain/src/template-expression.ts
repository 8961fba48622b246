/**
 * The expressions of a cloud-init template: `{{ name }}`, `{{ env.KEY }}`, or a quoted string
 * (`{{ '{{' }}` writes a literal `{{`). Nothing else: no filters, calls, conditions or loops, so a
 * template can only ever be text with values put in.
 */

/** 1-based, in the template as its author wrote it. */
export interface SourcePosition {
  readonly line: number;
  readonly column: number;
}

/** Something wrong with a template, where it is. */
export interface TemplateProblem extends SourcePosition {
  readonly message: string;
}

type Expression =
  | { readonly kind: 'variable'; readonly path: readonly string[] }
  | { readonly kind: 'literal'; readonly text: string }
  /** Read as an expression but not one of ours; an error only if it ends up in the data (not a comment). */
  | { readonly kind: 'invalid'; readonly problem: string };

export interface TemplateExpression {
  /** `{{ … }}` exactly as written. */
  readonly source: string;
  /** Offsets of `{{` and just past `}}` in the template. */
  readonly start: number;
  readonly end: number;
  readonly position: SourcePosition;
  readonly expression: Expression;
}

const OPEN = '{{';
const CLOSE = '}}';
const PATH = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*$/;
const LITERAL = /^(?:'([^']*)'|"([^"]*)")$/;
const HINT = `to write {{ as text, use {{ '{{' }}`;

/** Line and column of every offset of `text`. */
export function positionFinder(text: string): (offset: number) => SourcePosition {
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') lineStarts.push(i + 1);
  return (offset) => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((lineStarts[mid] ?? 0) <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: offset - (lineStarts[low] ?? 0) + 1 };
  };
}

function parseExpression(inner: string): Expression {
  const body = inner.trim();
  if (body === '') return { kind: 'invalid', problem: `empty expression {{ }}: ${HINT}` };
  const literal = LITERAL.exec(body);
  if (literal !== null) return { kind: 'literal', text: literal[1] ?? literal[2] ?? '' };
  if (PATH.test(body)) return { kind: 'variable', path: body.split('.') };
  return {
    kind: 'invalid',
    problem: `{{ ${body} }} is not a variable: only names like hostname or secrets.KEY and quoted strings may stand between {{ and }}; ${HINT}`,
  };
}

/**
 * Every `{{ … }}` of `text`, in order. An expression must close on the line it opens; one that does not
 * is a problem wherever it is, since without its end the rest of the line cannot be read.
 */
export function scanTemplate(text: string): {
  expressions: TemplateExpression[];
  problems: TemplateProblem[];
} {
  const at = positionFinder(text);
  const expressions: TemplateExpression[] = [];
  const problems: TemplateProblem[] = [];
  let from = 0;
  for (;;) {
    const start = text.indexOf(OPEN, from);
    if (start < 0) break;
    const lineEnd = text.indexOf('\n', start);
    const close = text.indexOf(CLOSE, start + OPEN.length);
    if (close < 0 || (lineEnd >= 0 && close > lineEnd)) {
      problems.push({ ...at(start), message: `{{ is not closed by }} on the same line; ${HINT}` });
      from = start + OPEN.length;
      continue;
    }
    const end = close + CLOSE.length;
    expressions.push({
      source: text.slice(start, end),
      start,
      end,
      position: at(start),
      expression: parseExpression(text.slice(start + OPEN.length, close)),
    });
    from = end;
  }
  return { expressions, problems };
}
