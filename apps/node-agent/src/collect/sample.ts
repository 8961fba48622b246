/** Label sets are shared by the samples of one node, pod or container within a tick: never mutate one. */
export type Labels = Readonly<Record<string, string>>;

/** One value of one series, ready to publish. */
export interface Sample {
  name: string;
  labels: Labels;
  value: number;
  timestampMs: number;
}
