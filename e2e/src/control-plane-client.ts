import { SandboxError } from './sandbox-error.js';

export interface Caller {
  readonly token: string;
  readonly organizationId?: string;
}

/** The control plane's public HTTP API, as any client reaches it: the sandbox seeds through nothing else. */
export class ControlPlaneClient {
  constructor(private readonly baseUrl: string) {}

  /**
   * Calls the API and returns its JSON answer, whose shape the route's own schema guarantees. Any other
   * status than `expected` throws with the API's error body.
   */
  async call<T>(
    method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
    path: string,
    expected: number,
    options: { readonly as?: Caller; readonly body?: unknown } = {},
  ): Promise<T> {
    const headers: Record<string, string> = {};
    if (options.as !== undefined) {
      headers.authorization = `Bearer ${options.as.token}`;
      if (options.as.organizationId !== undefined) headers['x-organization-id'] = options.as.organizationId;
    }
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
    });
    const text = await response.text();
    if (response.status !== expected) {
      throw new SandboxError(
        'SEED_REQUEST_FAILED',
        `${method} ${path} answered ${String(response.status)}: ${text}`,
      );
    }
    return JSON.parse(text) as T;
  }
}
