/** The agent's own failures, each with a stable code; `exitCodeOf` decides what each means for the process. */
export type AgentErrorCode =
  /** Bad flags or environment values. */
  | 'USAGE'
  /** The data directory holds another agent's identity; the agent refuses to adopt it. */
  | 'IDENTITY_CONFLICT'
  /** The state file or the data directory cannot be read or written. */
  | 'STATE_UNUSABLE'
  /** The control plane refused the enrollment for good (bad or expired install token, bad request). */
  | 'ENROLLMENT_REJECTED'
  /** The health server could not listen. */
  | 'HEALTH_LISTEN_FAILED';

export class AgentError extends Error {
  override readonly name = 'AgentError';

  constructor(
    readonly code: AgentErrorCode,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** Exit codes of the process: 2 for bad flags or environment, 1 for any other failure. */
export function exitCodeOf(error: unknown): 1 | 2 {
  return error instanceof AgentError && error.code === 'USAGE' ? 2 : 1;
}

/** An error's message, for logs and output. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
