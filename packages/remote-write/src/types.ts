/** One label of a series. Names match `[a-zA-Z_][a-zA-Z0-9_]*`; values are any non-empty UTF-8 text. */
export interface Label {
  readonly name: string;
  readonly value: string;
}

/**
 * One float sample. `timestampMs` is milliseconds since the Unix epoch (negative before 1970).
 * `value` may be NaN, ±Infinity or Prometheus' staleness marker (see `isStaleMarker`).
 */
export interface Sample {
  readonly value: number;
  readonly timestampMs: number;
}

/** A series: its labels (including `__name__`) and its samples, oldest first as senders send them. */
export interface TimeSeries {
  readonly labels: readonly Label[];
  readonly samples: readonly Sample[];
}

/** Prometheus' `prometheus.WriteRequest` (remote-write 1.0), without metadata. */
export interface WriteRequest {
  readonly timeseries: readonly TimeSeries[];
}

/** What the decoder returns: the series, labels sorted by name, plus what it read but does not support. */
export interface DecodedWriteRequest extends WriteRequest {
  /** Native histogram samples, which this decoder does not support and drops. */
  readonly skippedHistograms: number;
}
