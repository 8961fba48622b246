import { badRequest } from './status-error.js';

type Operator = 'exists' | '!' | '=' | '!=' | 'in' | 'notin' | 'gt' | 'lt';

interface Requirement {
  key: string;
  operator: Operator;
  values: string[];
}

/** A parsed `labelSelector`; the empty selector matches everything. */
export class LabelSelector {
  private constructor(private readonly requirements: Requirement[]) {}

  /** Parses kube's selector syntax: `a=b`, `a==b`, `a!=b`, `a in (x,y)`, `a notin (x)`, `a`, `!a`, `a>1`, `a<1`. */
  static parse(text: string | null | undefined): LabelSelector {
    return new LabelSelector(text ? splitTopLevel(text).map(parseRequirement) : []);
  }

  get empty(): boolean {
    return this.requirements.length === 0;
  }

  matches(labels: Record<string, string> | undefined): boolean {
    return this.requirements.every((r) => matchesRequirement(r, labels ?? {}));
  }
}

/** Splits at commas outside parentheses. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '(') depth += 1;
    if (ch === ')') depth -= 1;
    if (ch === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  parts.push(current);
  return parts.map((p) => p.trim());
}

const KEY = String.raw`(?:[a-z0-9A-Z.-]+/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?`;
const VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const SET_FORM = new RegExp(`^(${KEY})\\s+(in|notin)\\s*\\((.*)\\)$`);
const EQUALITY_FORM = new RegExp(`^(${KEY})\\s*(==|=|!=|>|<)\\s*(.*)$`);
const EXISTS_FORM = new RegExp(`^(!?)\\s*(${KEY})$`);

function parseRequirement(text: string): Requirement {
  const set = SET_FORM.exec(text);
  if (set) {
    const values = (set[4] ?? '').split(',').map((v) => v.trim());
    return checked({ key: set[1] ?? '', operator: set[3] as 'in' | 'notin', values });
  }
  const eq = EQUALITY_FORM.exec(text);
  if (eq) {
    const op = eq[3] ?? '=';
    const operator: Operator = op === '==' ? '=' : op === '>' ? 'gt' : op === '<' ? 'lt' : (op as Operator);
    return checked({ key: eq[1] ?? '', operator, values: [(eq[4] ?? '').trim()] });
  }
  const exists = EXISTS_FORM.exec(text);
  if (exists) return { key: exists[2] ?? '', operator: exists[1] ? '!' : 'exists', values: [] };
  throw badRequest(
    `unable to parse requirement: found '${text}', expected: key, !key, key=value or key in (values)`,
  );
}

function checked(r: Requirement): Requirement {
  for (const v of r.values) {
    const numeric = r.operator === 'gt' || r.operator === 'lt';
    if (numeric ? !/^-?\d+$/.test(v) : !VALUE.test(v) || v.length > 63) {
      throw badRequest(`unable to parse requirement: invalid label value: "${v}" for key "${r.key}"`);
    }
  }
  return r;
}

function matchesRequirement(r: Requirement, labels: Record<string, string>): boolean {
  const has = Object.hasOwn(labels, r.key);
  const value = labels[r.key];
  switch (r.operator) {
    case 'exists':
      return has;
    case '!':
      return !has;
    case '=':
    case 'in':
      return has && r.values.includes(value ?? '');
    case '!=':
    case 'notin':
      return !has || !r.values.includes(value ?? '');
    case 'gt':
      return has && Number(value) > Number(r.values[0]);
    case 'lt':
      return has && Number(value) < Number(r.values[0]);
  }
}
