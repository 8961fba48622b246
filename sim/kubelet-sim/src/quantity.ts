const SUFFIXES: Record<string, number> = {
  '': 1,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  Ki: 1024,
  Mi: 1024 ** 2,
  Gi: 1024 ** 3,
  Ti: 1024 ** 4,
};

/** A Kubernetes resource quantity (`500m`, `2`, `256Mi`, `1.5Gi`) as a plain number of units. */
export function parseQuantity(text: string): number {
  const m = /^(\d+(?:\.\d+)?)(m|k|M|G|T|Ki|Mi|Gi|Ti)?$/.exec(text.trim());
  const factor = m ? SUFFIXES[m[2] ?? ''] : undefined;
  if (!m || factor === undefined) throw new Error(`'${text}' is not a resource quantity`);
  return Number(m[1]) * factor;
}
