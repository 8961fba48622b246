import { CliError } from './cli-error.js';

/** The client id `nr` signs in as (the control plane's one public device client). */
const CLIENT_ID = 'nr-cli';
const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
/** RFC 8628 §3.5: what `slow_down` adds to the interval. */
const SLOW_DOWN_SECONDS = 5;

export interface DeviceSignIn {
  readonly deviceCode: string;
  readonly userCode: string;
  readonly verificationUri: string;
  readonly verificationUriComplete: string;
  readonly expiresIn: number;
  readonly interval: number;
}

/** A session from the token endpoint. */
export interface DeviceSession {
  readonly accessToken: string;
  readonly refreshToken: string;
  /** When the access token lapses. */
  readonly expiresAt: Date;
}

type OAuthAnswer =
  | { readonly ok: true; readonly body: Record<string, unknown> }
  | { readonly ok: false; readonly error: string; readonly description: string };

/** An RFC 6749 form POST; an OAuth refusal is a result, anything else that goes wrong is thrown. */
async function formPost(apiUrl: string, path: string, fields: Record<string, string>): Promise<OAuthAnswer> {
  let response: Response;
  let text: string;
  try {
    response = await fetch(`${apiUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams(fields).toString(),
    });
    text = await response.text();
  } catch (e: unknown) {
    const reason = e instanceof Error ? (e.cause instanceof Error ? e.cause.message : e.message) : String(e);
    throw new CliError('API_UNREACHABLE', `Cannot reach the API at ${apiUrl}: ${reason}`, { cause: e });
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (typeof body !== 'object' || body === null) {
    throw new CliError(
      'API_UNREACHABLE',
      `${apiUrl}${path} answered ${String(response.status)} without JSON.`,
    );
  }
  const fields_ = body as Record<string, unknown>;
  if (response.ok) return { ok: true, body: fields_ };
  if (typeof fields_.error === 'string') {
    const description =
      typeof fields_.error_description === 'string' ? fields_.error_description : fields_.error;
    return { ok: false, error: fields_.error, description };
  }
  throw new CliError(
    'API_UNREACHABLE',
    `${apiUrl}${path} answered ${String(response.status)} without an OAuth error.`,
  );
}

function text(body: Record<string, unknown>, field: string): string {
  const value = body[field];
  if (typeof value !== 'string' || value === '')
    throw new CliError('API_UNREACHABLE', `The API's answer has no ${field}.`);
  return value;
}

function seconds(body: Record<string, unknown>, field: string): number {
  const value = body[field];
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0)
    throw new CliError('API_UNREACHABLE', `The API's answer has no valid ${field}.`);
  return value;
}

/** Asks the control plane for a device code and the user code the user enters in the dashboard. */
export async function startDeviceSignIn(apiUrl: string): Promise<DeviceSignIn> {
  const answer = await formPost(apiUrl, '/v1/oauth/device_authorization', { client_id: CLIENT_ID });
  if (!answer.ok)
    throw new CliError('SIGN_IN_FAILED', `The API refused to start a sign-in: ${answer.description}`);
  return {
    deviceCode: text(answer.body, 'device_code'),
    userCode: text(answer.body, 'user_code'),
    verificationUri: text(answer.body, 'verification_uri'),
    verificationUriComplete: text(answer.body, 'verification_uri_complete'),
    expiresIn: seconds(answer.body, 'expires_in'),
    interval: seconds(answer.body, 'interval'),
  };
}

function sessionOf(body: Record<string, unknown>, now: Date): DeviceSession {
  return {
    accessToken: text(body, 'access_token'),
    refreshToken: text(body, 'refresh_token'),
    expiresAt: new Date(now.getTime() + seconds(body, 'expires_in') * 1000),
  };
}

/**
 * Polls the token endpoint at the interval the API gives (longer after `slow_down`) until the user
 * approves (a session), denies, or the code lapses (thrown).
 */
export async function waitForApproval(
  apiUrl: string,
  signIn: DeviceSignIn,
  clock: { readonly now: () => Date; readonly sleep: (ms: number) => Promise<void> },
): Promise<DeviceSession> {
  let interval = signIn.interval;
  for (;;) {
    await clock.sleep(interval * 1000);
    const answer = await formPost(apiUrl, '/v1/oauth/token', {
      grant_type: DEVICE_CODE_GRANT,
      device_code: signIn.deviceCode,
      client_id: CLIENT_ID,
    });
    if (answer.ok) return sessionOf(answer.body, clock.now());
    switch (answer.error) {
      case 'authorization_pending':
        continue;
      case 'slow_down':
        interval += SLOW_DOWN_SECONDS;
        continue;
      case 'access_denied':
        throw new CliError('SIGN_IN_FAILED', 'The sign-in was denied in the dashboard.');
      case 'expired_token':
        throw new CliError('SIGN_IN_FAILED', 'The code expired before it was approved: run nr login again.');
      default:
        throw new CliError('SIGN_IN_FAILED', `The sign-in failed: ${answer.description}`);
    }
  }
}

/** A new session for a refresh token; undefined when the API no longer takes it (sign in again). */
export async function refreshSession(
  apiUrl: string,
  refreshToken: string,
  now: Date,
): Promise<DeviceSession | undefined> {
  const answer = await formPost(apiUrl, '/v1/oauth/token', {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: CLIENT_ID,
  });
  return answer.ok ? sessionOf(answer.body, now) : undefined;
}

/** Revokes the device session (RFC 7009); the API answers the same for a token it does not know. */
export async function revokeSession(apiUrl: string, refreshToken: string): Promise<void> {
  const answer = await formPost(apiUrl, '/v1/oauth/revoke', { token: refreshToken, client_id: CLIENT_ID });
  if (!answer.ok)
    throw new CliError('SIGN_IN_FAILED', `The API refused to revoke the session: ${answer.description}`);
}
