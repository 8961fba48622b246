/** The CLI's own failures, each with a stable code; `exitCodeOf` decides what each means for the process. */
export type CliErrorCode =
  /** Bad flags, arguments or environment values: exit 2, with the usage text. */
  | 'USAGE'
  /** Nothing to authenticate with: no stored token and no `NR_TOKEN`. */
  | 'NOT_AUTHENTICATED'
  /** A question off a terminal, or answered No. */
  | 'NOT_CONFIRMED'
  /** The config folder or a file in it cannot be read or written. */
  | 'CONFIG_UNUSABLE'
  /** The API could not be reached, or answered with something that is not the API. */
  | 'API_UNREACHABLE'
  /** A device sign-in was denied, expired or refused. */
  | 'SIGN_IN_FAILED'
  /** The machine lacks what `nr cluster register` needs. */
  | 'PRECHECK_FAILED'
  /** Register will not go on as asked (a name, IP or agent that does not match; leftovers). */
  | 'REGISTER_REFUSED'
  /** A register phase failed; `--resume` continues from it. */
  | 'PHASE_FAILED'
  /** `nr cluster verify` or `health` found a failing check. */
  | 'CHECK_FAILED';

export class CliError extends Error {
  override readonly name = 'CliError';

  constructor(
    readonly code: CliErrorCode,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** Exit codes of the process: 2 for a usage error, 1 for any other failure. */
export function exitCodeOf(error: unknown): 1 | 2 {
  return error instanceof CliError && error.code === 'USAGE' ? 2 : 1;
}

export function usageError(message: string): CliError {
  return new CliError('USAGE', message);
}
