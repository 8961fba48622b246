/**
 * - `REMOTE_WRITE_TOO_LARGE`: the body, or what it declares it decompresses to, is over a limit (HTTP 413).
 * - `REMOTE_WRITE_MALFORMED`: not snappy, or not a protobuf `WriteRequest` (HTTP 400).
 * - `REMOTE_WRITE_INVALID`: well-formed but breaks Prometheus' data model, e.g. a bad label name (HTTP 400).
 */
export type RemoteWriteErrorCode =
  'REMOTE_WRITE_TOO_LARGE' | 'REMOTE_WRITE_MALFORMED' | 'REMOTE_WRITE_INVALID';

/**
 * A remote-write body that was refused as a whole. `message` is written for the sender and reads
 * `location: description`, e.g. `timeseries[3].labels[1]: invalid label name "1st"`.
 */
export class RemoteWriteError extends Error {
  readonly code: RemoteWriteErrorCode;
  /** `body`, `request`, `timeseries[3]`, `timeseries[3].samples[0]`… */
  readonly location: string;
  readonly description: string;

  constructor(code: RemoteWriteErrorCode, location: string, description: string, options?: ErrorOptions) {
    super(`${location}: ${description}`, options);
    this.name = 'RemoteWriteError';
    this.code = code;
    this.location = location;
    this.description = description;
  }
}
