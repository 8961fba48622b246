// The package ships no types; this is the part of its prom2json-shaped answer the benchmark reads.
declare module 'parse-prometheus-text-format' {
  interface ParsedMetric {
    readonly value?: string;
    readonly labels?: Record<string, string>;
    readonly timestamp_ms?: string;
  }
  interface ParsedFamily {
    readonly name: string;
    readonly help: string;
    readonly type: string;
    readonly metrics: readonly ParsedMetric[];
  }
  export default function parsePrometheusTextFormat(text: string): ParsedFamily[];
}
