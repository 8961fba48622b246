import { randomBytes, randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';

import { startControlPlane, type ControlPlane, type ControlPlaneOptions } from './control-plane.js';
import { createTestDatabase, type DatabaseKind } from './db/test-database.test-support.js';

export const ADMIN = { email: 'staff@noderings.test', password: 'staff password 1234' } as const;

const UNLIMITED_REGISTRATIONS = {
  perAddress: { kind: 'window', limit: 1_000_000, windowMs: 60_000 },
  overall: { kind: 'window', limit: 1_000_000, windowMs: 60_000 },
} as const;

export interface ApiResponse<T = Record<string, unknown>> {
  readonly status: number;
  readonly body: T;
}

export interface Caller {
  readonly token: string;
  readonly organizationId?: string;
}

export interface TestControlPlane {
  readonly cp: ControlPlane;
  readonly url: string;
  /** Every JSON log line written so far. */
  readonly logLines: string[];
  /** Calls the API over real HTTP. */
  call<T = Record<string, unknown>>(
    method: string,
    path: string,
    options?: { as?: Caller; body?: unknown; headers?: Record<string, string> },
  ): Promise<ApiResponse<T>>;
  /** A new user with a new organisation of that type. */
  register(
    type?: 'ORGANIZATION_TYPE_PROVIDER' | 'ORGANIZATION_TYPE_CLIENT',
  ): Promise<Caller & { organizationId: string; userId: string; email: string }>;
  /**
   * Makes `user` a member of the admin's organisation with `role`, as people do: the admin invites the
   * user's email and the user accepts.
   */
  addMember(
    admin: Caller & { organizationId: string },
    user: Caller & { email: string },
    role: 'owner' | 'admin' | 'member',
  ): Promise<void>;
  /** A provider organisation reviewed by staff, ready to create agents. */
  verifiedProvider(): Promise<Caller & { organizationId: string; userId: string; email: string }>;
  staff(): Promise<Caller>;
  close(): Promise<void>;
}

export async function startTestControlPlane(
  kind: DatabaseKind,
  /** A secretKey of the test's own lets it open what the control plane sealed; random otherwise. */
  options: Partial<Omit<ControlPlaneOptions, 'database'>> = {},
): Promise<TestControlPlane> {
  const database = await createTestDatabase(kind);
  const logLines: string[] = [];
  const logDestination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logLines.push(
        ...chunk
          .toString('utf8')
          .split('\n')
          .filter((l) => l !== ''),
      );
      callback();
    },
  });
  let cp: ControlPlane;
  try {
    cp = await startControlPlane({
      database: database.location,
      secretKey: randomBytes(32),
      logDestination,
      admin: ADMIN,
      // Every test registers its users from 127.0.0.1; the tests of the limit itself pass their own.
      registrationLimits: UNLIMITED_REGISTRATIONS,
      // kube-sim listens on 127.0.0.1 and fixtures use documentation addresses; the tests of the rule pass false.
      allowPrivateDestinations: true,
      ...options,
    });
  } catch (e: unknown) {
    await database.drop();
    throw e;
  }
  const call: TestControlPlane['call'] = async (method, path, opts = {}) => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.as !== undefined) {
      headers.authorization = `Bearer ${opts.as.token}`;
      if (opts.as.organizationId !== undefined) headers['x-organization-id'] = opts.as.organizationId;
    }
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${cp.url}${path}`, {
      method,
      headers,
      ...(opts.body !== undefined && { body: JSON.stringify(opts.body) }),
    });
    const text = await response.text();
    return { status: response.status, body: (text === '' ? {} : JSON.parse(text)) as never };
  };
  const register: TestControlPlane['register'] = async (type = 'ORGANIZATION_TYPE_PROVIDER') => {
    const email = `user-${randomUUID()}@example.test`;
    const response = await call<{ token: string; user: { id: string }; organization: { id: string } }>(
      'POST',
      '/v1/auth/register',
      {
        body: {
          email,
          password: 'correct horse battery',
          organizationName: `Org ${email}`,
          organizationType: type,
        },
      },
    );
    if (response.status !== 201) throw new Error(`register failed: ${JSON.stringify(response.body)}`);
    return {
      token: response.body.token,
      organizationId: response.body.organization.id,
      userId: response.body.user.id,
      email,
    };
  };
  const addMember: TestControlPlane['addMember'] = async (admin, user, role) => {
    const invited = await call<{ invitation: { id: string } }>('POST', '/v1/organization/invitations', {
      as: admin,
      body: { email: user.email, role: `MEMBER_ROLE_${role.toUpperCase()}` },
    });
    if (invited.status !== 201) throw new Error(`invite failed: ${JSON.stringify(invited.body)}`);
    const accepted = await call('POST', `/v1/invitations/${invited.body.invitation.id}:accept`, {
      as: { token: user.token },
    });
    if (accepted.status !== 200) throw new Error(`accept failed: ${JSON.stringify(accepted.body)}`);
  };
  const staff: TestControlPlane['staff'] = async () => {
    const response = await call<{ token: string }>('POST', '/v1/auth/login', { body: ADMIN });
    if (response.status !== 200) throw new Error(`staff login failed: ${JSON.stringify(response.body)}`);
    return { token: response.body.token };
  };
  const verifiedProvider: TestControlPlane['verifiedProvider'] = async () => {
    const provider = await register('ORGANIZATION_TYPE_PROVIDER');
    const verified = await call('POST', `/v1/organizations/${provider.organizationId}:verify`, {
      as: await staff(),
    });
    if (verified.status !== 200) throw new Error(`verify failed: ${JSON.stringify(verified.body)}`);
    return provider;
  };
  return {
    cp,
    url: cp.url,
    logLines,
    call,
    register,
    addMember,
    staff,
    verifiedProvider,
    close: async () => {
      try {
        await cp.close();
      } finally {
        await database.drop();
      }
    },
  };
}
