import { isRecord } from './json-value.js';

/**
 * Values as Go's `%#v` prints them, which is how kube's field errors show maps, slices and structs
 * (`Invalid value: map[string]string{"app":"web"}: …`). Map keys are sorted, as fmt sorts them.
 */
export function goStringMap(value: unknown): string {
  if (!isRecord(value)) return 'map[string]string(nil)';
  const entries = Object.keys(value)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${JSON.stringify(String(value[k]))}`);
  return `map[string]string{${entries.join(', ')}}`;
}

export function goStringSlice(value: unknown): string {
  if (!Array.isArray(value)) return '[]string(nil)';
  return `[]string{${value.map((v) => JSON.stringify(String(v))).join(', ')}}`;
}

function goString(value: unknown): string {
  return JSON.stringify(typeof value === 'string' ? value : '');
}

/** A `metav1.LabelSelector` struct. */
export function goLabelSelector(value: unknown): string {
  if (!isRecord(value)) return '(*v1.LabelSelector)(nil)';
  const expressions = Array.isArray(value.matchExpressions)
    ? `[]v1.LabelSelectorRequirement{${value.matchExpressions
        .map((e) => {
          const r = isRecord(e) ? e : {};
          return `v1.LabelSelectorRequirement{Key:${goString(r.key)}, Operator:${goString(r.operator)}, Values:${goStringSlice(r.values)}}`;
        })
        .join(', ')}}`
    : '[]v1.LabelSelectorRequirement(nil)';
  return `v1.LabelSelector{MatchLabels:${goStringMap(value.matchLabels)}, MatchExpressions:${expressions}}`;
}
