/** The exporter's own failures, each with a stable code; `error-mapping.ts` decides what each means. */
export type ExporterErrorCode =
  /** Bad command-line flags. */
  | 'USAGE'
  /** The config file (or the environment standing in for it) cannot be used. */
  | 'CONFIG_INVALID'
  /** `module=` names no module of the config. */
  | 'UNKNOWN_MODULE'
  /** `target=` is not `host`, `host:port` or an IP address. */
  | 'BAD_TARGET'
  /** The scrape did not finish before its deadline. */
  | 'SCRAPE_TIMEOUT'
  /** Proxmox answered, but not in the shape it documents. */
  | 'MALFORMED_ANSWER'
  /** `/cluster/status` names no local node, so the node families have no node to read. */
  | 'NO_LOCAL_NODE'
  /** The exporter was closed while the scrape ran. */
  | 'SHUTTING_DOWN';

export class ExporterError extends Error {
  override readonly name = 'ExporterError';

  constructor(
    readonly code: ExporterErrorCode,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
