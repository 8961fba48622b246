import { apiErrorFromResponse, networkError, type ApiError } from './api-error.js';

/** Who calls: the session token and the organisation the call acts in. */
interface Credentials {
  readonly token: string;
  readonly organizationId: string;
}

type QueryValue = string | number | boolean | undefined;
export type QueryParams = Readonly<Record<string, QueryValue>>;

export interface ApiClient {
  readonly get: <T>(path: string, query?: QueryParams) => Promise<T>;
  readonly post: <T>(path: string, body?: unknown) => Promise<T>;
  readonly patch: <T>(path: string, body: unknown) => Promise<T>;
  readonly put: <T>(path: string, body: unknown) => Promise<T>;
  readonly delete: <T>(path: string, body?: unknown) => Promise<T>;
}

export interface ApiClientOptions {
  /** Read at every call, so a sign-in or an organisation switch applies to the next request. */
  readonly credentials: () => Credentials | undefined;
  /** Called when a signed-in call is refused with 401: the session is over. */
  readonly onUnauthenticated: () => void;
  readonly fetch?: typeof fetch;
}

/**
 * A path with every interpolated value percent-encoded, so an id can never add a segment:
 * apiPath`/v1/virtual-machines/${id}:start`.
 */
export function apiPath(strings: TemplateStringsArray, ...values: readonly (string | number)[]): string {
  return strings.reduce(
    (path, part, i) => path + part + (i < values.length ? encodeURIComponent(String(values[i])) : ''),
    '',
  );
}

/** The path with its query string; undefined and empty values are left out. */
export function withQuery(path: string, query: QueryParams | undefined): string {
  if (query === undefined) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === '') continue;
    params.append(key, String(value));
  }
  const text = params.toString();
  return text === '' ? path : `${path}?${text}`;
}

async function parsedBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Calls the API on this origin with relative URLs, as the control plane serves the dashboard. */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);

  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const credentials = options.credentials();
    const headers: Record<string, string> = { accept: 'application/json' };
    if (credentials !== undefined) {
      headers.authorization = `Bearer ${credentials.token}`;
      if (credentials.organizationId !== '') headers['x-organization-id'] = credentials.organizationId;
    }
    // Actions (`:start`) take an empty object; a body is sent whenever a method may carry one.
    const payload = body === undefined && method === 'POST' ? {} : body;
    if (payload !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await doFetch(path, {
        method,
        headers,
        ...(payload !== undefined && { body: JSON.stringify(payload) }),
      });
    } catch {
      throw networkError();
    }
    const parsed = await parsedBody(response);
    if (!response.ok) {
      const error: ApiError = apiErrorFromResponse(response.status, parsed);
      if (response.status === 401 && credentials !== undefined) options.onUnauthenticated();
      throw error;
    }
    return parsed as T;
  }

  return {
    get: (path, query) => call('GET', withQuery(path, query)),
    post: (path, body) => call('POST', path, body),
    patch: (path, body) => call('PATCH', path, body),
    put: (path, body) => call('PUT', path, body),
    delete: (path, body) => call('DELETE', path, body),
  };
}
