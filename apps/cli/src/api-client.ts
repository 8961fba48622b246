import { CliError } from './cli-error.js';

export interface FieldViolation {
  readonly field: string;
  readonly description: string;
}

/** An error answer of the API: its google.rpc.Status body. */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    /** The HTTP status. */
    readonly status: number,
    /** The google.rpc.Code name, like `FAILED_PRECONDITION`. */
    readonly code: string,
    message: string,
    readonly fieldViolations: readonly FieldViolation[],
  ) {
    super(message);
  }
}

export interface ApiClientOptions {
  /** Without a trailing slash. */
  readonly apiUrl: string;
  readonly token: string;
  /** Sent as `X-Organization-ID` when set. */
  readonly organizationId: string | undefined;
  readonly fetch?: typeof fetch;
}

/** JSON calls to the NodeRings API with a bearer token; TLS certificates are always verified. */
export class ApiClient {
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly options: ApiClientOptions) {
    this.fetchImpl = options.fetch ?? fetch;
  }

  get<T>(path: string): Promise<T> {
    return this.call<T>('GET', path, undefined);
  }

  post<T>(path: string, body: unknown): Promise<T> {
    return this.call<T>('POST', path, body);
  }

  patch<T>(path: string, body: unknown): Promise<T> {
    return this.call<T>('PATCH', path, body);
  }

  delete<T>(path: string): Promise<T> {
    return this.call<T>('DELETE', path, undefined);
  }

  private async call<T>(method: string, path: string, body: unknown): Promise<T> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.options.token}`,
      accept: 'application/json',
    };
    if (this.options.organizationId !== undefined) {
      headers['x-organization-id'] = this.options.organizationId;
    }
    if (body !== undefined) headers['content-type'] = 'application/json';
    const url = `${this.options.apiUrl}${path}`;
    let response: Response;
    let text: string;
    try {
      response = await this.fetchImpl(url, {
        method,
        headers,
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      text = await response.text();
    } catch (e: unknown) {
      throw new CliError('API_UNREACHABLE', `Cannot reach the API at ${this.options.apiUrl}: ${causeOf(e)}`, {
        cause: e,
      });
    }
    const parsed = parseJson(text);
    if (!response.ok) throw toApiError(response.status, parsed, url);
    if (parsed === undefined) {
      throw new CliError('API_UNREACHABLE', `${method} ${url} answered ${response.status} without JSON.`);
    }
    return parsed as T;
  }
}

function parseJson(text: string): unknown {
  if (text === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function toApiError(status: number, body: unknown, url: string): ApiError | CliError {
  if (typeof body !== 'object' || body === null) {
    return new CliError('API_UNREACHABLE', `${url} answered ${status} without an API error body.`);
  }
  const { code, message, details } = body as { code?: unknown; message?: unknown; details?: unknown };
  if (typeof code !== 'string' || typeof message !== 'string') {
    return new CliError('API_UNREACHABLE', `${url} answered ${status} without an API error body.`);
  }
  return new ApiError(status, code, message, violationsOf(details));
}

function violationsOf(details: unknown): FieldViolation[] {
  if (!Array.isArray(details)) return [];
  return details.flatMap((detail: unknown) => {
    const violations = (detail as { fieldViolations?: unknown } | null)?.fieldViolations;
    if (!Array.isArray(violations)) return [];
    return violations.filter(
      (v: unknown): v is FieldViolation =>
        typeof (v as FieldViolation | null)?.field === 'string' &&
        typeof (v as FieldViolation | null)?.description === 'string',
    );
  });
}

/** fetch's errors say "fetch failed" and keep the reason (ECONNREFUSED, a certificate error) in `cause`. */
function causeOf(e: unknown): string {
  if (e instanceof Error && e.cause instanceof Error) return e.cause.message;
  return e instanceof Error ? e.message : String(e);
}
