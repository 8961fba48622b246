/**
 * Builds an API path with every interpolated value percent-encoded as one segment, so that a volume id
 * (`local:iso/seed.iso`) or a UPID stays one segment: `apiPath\`/nodes/${node}/qemu/${vmid}\``.
 */
export function apiPath(strings: TemplateStringsArray, ...values: readonly (string | number)[]): string {
  return strings.reduce((path, literal, index) => {
    const value = values[index - 1];
    return `${path}${value === undefined ? '' : encodeURIComponent(String(value))}${literal}`;
  });
}
