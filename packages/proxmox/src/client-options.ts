import { checkApiToken, parseApiToken } from './api-token.js';
import type { ApiToken } from './api-token.js';
import { PveInvalidArgumentError } from './errors.js';
import type { RetryPolicy } from './http-transport.js';
import { normalizeFingerprint } from './tls-pinning.js';
import type { TlsVerification } from './tls-pinning.js';

export interface ProxmoxClientOptions {
  /** `https://host:8006` (or `http://…` for the simulator); the client appends `/api2/json`. */
  baseUrl: string;
  /** API token: `{userid, tokenId, secret}` or `user@realm!tokenid=secret` (`PVEAPIToken=` prefix optional). */
  token?: ApiToken | string;
  /** Ticket login instead of a token: the client logs in itself and renews the ticket. */
  login?: { username: string; password: string };
  tls?: {
    /** SHA-256 fingerprint of the server certificate, as Proxmox shows it; accepts this one certificate only. */
    fingerprint?: string;
    /** Trust this CA (PEM) instead of the system's. */
    caPem?: string;
    /** Accept any certificate. Off unless set; for tests and first contact only. */
    insecureSkipVerify?: boolean;
  };
  /** Deadline of one HTTP request, from sending to the last byte of the answer. Default 30 s. */
  timeoutMs?: number;
  /** Deadline of opening a connection (TCP and TLS). Default 10 s, never more than `timeoutMs`. */
  connectTimeoutMs?: number;
  /**
   * Retries of GETs (after an unclassified 5xx or a broken connection) and of any request whose
   * connection failed before it was sent. Default 2 retries, 250 ms doubling to 2 s, half of it jittered.
   */
  retries?: { count?: number; minDelayMs?: number; maxDelayMs?: number };
}

type Credentials = { kind: 'token'; token: ApiToken } | { kind: 'login'; username: string; password: string };

export interface ResolvedClientOptions {
  baseUrl: URL;
  credentials: Credentials;
  tls: TlsVerification;
  timeoutMs: number;
  connectTimeoutMs: number;
  retry: RetryPolicy;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
const DEFAULT_RETRY: RetryPolicy = { count: 2, baseMs: 250, maxMs: 2_000, jitter: 0.5 };

/** Validates the options once, so that requests never meet a bad one. */
export function resolveClientOptions(options: ProxmoxClientOptions): ResolvedClientOptions {
  const baseUrl = resolveBaseUrl(options.baseUrl);
  const timeoutMs = positive('timeoutMs', options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  return {
    baseUrl,
    credentials: resolveCredentials(options),
    tls: resolveTls(options.tls ?? {}, baseUrl),
    timeoutMs,
    connectTimeoutMs: Math.min(
      positive('connectTimeoutMs', options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS),
      timeoutMs,
    ),
    retry: {
      ...DEFAULT_RETRY,
      count: nonNegativeInteger('retries.count', options.retries?.count ?? DEFAULT_RETRY.count),
      baseMs: positive('retries.minDelayMs', options.retries?.minDelayMs ?? DEFAULT_RETRY.baseMs),
      maxMs: positive('retries.maxDelayMs', options.retries?.maxDelayMs ?? DEFAULT_RETRY.maxMs),
    },
  };
}

function resolveBaseUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid(`baseUrl is not a URL: '${text}'`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw invalid('baseUrl must be http:// or https://');
  if (url.username !== '' || url.password !== '') throw invalid('baseUrl must not carry credentials');
  if (url.search !== '' || url.hash !== '') throw invalid('baseUrl must not have a query or fragment');
  url.pathname = url.pathname.replace(/\/+$/, '');
  if (url.pathname.endsWith('/api2/json'))
    throw invalid('baseUrl must stop before /api2/json (the client adds it)');
  return url;
}

function resolveCredentials(options: ProxmoxClientOptions): Credentials {
  if (options.token !== undefined && options.login !== undefined)
    throw invalid('give either token or login, not both');
  if (options.login !== undefined) {
    if (options.login.username === '' || options.login.password === '') {
      throw invalid('login needs a username and a password');
    }
    return { kind: 'login', username: options.login.username, password: options.login.password };
  }
  if (options.token === undefined) throw invalid('token (or login) is required');
  const token =
    typeof options.token === 'string' ? parseApiToken(options.token) : checkApiToken(options.token);
  return { kind: 'token', token };
}

function resolveTls(tls: NonNullable<ProxmoxClientOptions['tls']>, baseUrl: URL): TlsVerification {
  const chosen = [tls.fingerprint !== undefined, tls.caPem !== undefined, tls.insecureSkipVerify === true];
  if (chosen.filter(Boolean).length > 1) {
    throw invalid('tls: choose one of fingerprint, caPem and insecureSkipVerify');
  }
  if (baseUrl.protocol === 'http:') {
    if (chosen.some(Boolean)) throw invalid('tls options were given for an http:// baseUrl');
    return { kind: 'system' };
  }
  if (tls.fingerprint !== undefined)
    return { kind: 'pinned', fingerprint: normalizeFingerprint(tls.fingerprint) };
  if (tls.caPem !== undefined) {
    if (!tls.caPem.includes('-----BEGIN CERTIFICATE-----'))
      throw invalid('tls.caPem is not a PEM certificate');
    return { kind: 'ca', caPem: tls.caPem };
  }
  return tls.insecureSkipVerify === true ? { kind: 'insecure' } : { kind: 'system' };
}

function positive(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) throw invalid(`${name} must be a positive number, got ${value}`);
  return value;
}

function nonNegativeInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 0)
    throw invalid(`${name} must be a whole number ≥ 0, got ${value}`);
  return value;
}

function invalid(message: string): PveInvalidArgumentError {
  return new PveInvalidArgumentError({ pveMessage: message });
}
