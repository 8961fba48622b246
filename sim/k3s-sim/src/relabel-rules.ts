import type { RelabelRule } from './alloy-config.js';

/**
 * Prometheus' relabelling of one series, for the actions a rule of the stack can use (`keep`, `drop`,
 * `replace`, `labeldrop`, `labelkeep`), regexes anchored at both ends as RE2's are there. Undefined when
 * the series is dropped. A replacement that comes out empty removes the label, as Prometheus does.
 */
export function relabel(
  rules: readonly RelabelRule[],
  input: Readonly<Record<string, string>>,
): Record<string, string> | undefined {
  let labels: Record<string, string> = { ...input };
  for (const rule of rules) {
    const re = new RegExp(`^(?:${rule.regex})$`);
    const value = rule.sourceLabels.map((l) => labels[l] ?? '').join(rule.separator);
    switch (rule.action) {
      case 'keep':
        if (!re.test(value)) return undefined;
        break;
      case 'drop':
        if (re.test(value)) return undefined;
        break;
      case 'replace': {
        if (rule.targetLabel === undefined || !re.test(value)) break;
        // RE2's `${1}` is JavaScript's `$1`.
        const replaced = value.replace(re, rule.replacement.replace(/\$\{(\w+)\}/g, '$$$1'));
        if (replaced === '') labels = without(labels, (k) => k === rule.targetLabel);
        else labels[rule.targetLabel] = replaced;
        break;
      }
      case 'labeldrop':
        labels = without(labels, (k) => re.test(k));
        break;
      case 'labelkeep':
        labels = without(labels, (k) => !re.test(k));
        break;
      default:
        throw new Error(`relabel action ${rule.action} is not one the stand-in knows`);
    }
  }
  return labels;
}

function without(labels: Record<string, string>, drop: (name: string) => boolean): Record<string, string> {
  return Object.fromEntries(Object.entries(labels).filter(([k]) => !drop(k)));
}
