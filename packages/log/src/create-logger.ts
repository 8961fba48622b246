import pino, { type DestinationStream, type Logger } from 'pino';

import { SecretValues } from './secret-values.js';

/** What a masked value or redacted field reads as. */
export const REDACTED = '[redacted]';

/**
 * Fields whose values are secret wherever they are logged, at the top level or one object down
 * (`{ headers: { authorization } }`). The values NodeRings logs under no such name are masked by value.
 */
const SECRET_FIELDS = [
  'authorization',
  'Authorization',
  'cookie',
  'password',
  'passwd',
  'token',
  'installToken',
  'secret',
  'tokenSecret',
  'PROXMOX_TOKEN_SECRET',
  // A console session's Proxmox VNC ticket (its RFB password is `password`).
  'ticket',
  'kubeconfig',
  // The fleet NATS account's seed, the agent's nkey seed, and the user JWTs minted from them.
  'accountSeed',
  'nkeySeed',
  'seed',
  'jwt',
  // Cloud-init documents carry passwords and keys.
  'userData',
  'user-data',
  'vendorData',
  'vendor-data',
] as const;

/** The redact paths every NodeRings logger has: HTTP headers, and the secret fields at both depths. */
export const REDACT_PATHS: readonly string[] = [
  'req.headers.authorization',
  'req.headers.cookie',
  // A secret's value one object down (`{ secret: { name, value } }`).
  '*.value',
  ...SECRET_FIELDS.flatMap((field) => {
    const path = /^[A-Za-z_$][\w$]*$/.test(field) ? field : `["${field}"]`;
    return [path, path.startsWith('[') ? `*${path}` : `*.${path}`];
  }),
];

export interface LoggerOptions {
  /** The app writing the lines: every line carries it as `app`. */
  readonly name: string;
  /** pino's level names: `trace`, `debug`, `info`, `warn`, `error`, `fatal`, `silent`. Default `info`. */
  readonly level?: string;
  /** Where lines go: stdout, written synchronously, when omitted. */
  readonly destination?: DestinationStream;
  /** Paths redacted besides REDACT_PATHS. */
  readonly redactPaths?: readonly string[];
  /** Values masked wherever they would appear in a line, messages included; more can be added later. */
  readonly secrets?: SecretValues;
  /**
   * `named` (the default) writes `"level":"info"` and an ISO 8601 `time`; `pino` keeps pino's numeric
   * levels and milliseconds since the epoch.
   */
  readonly format?: 'named' | 'pino';
}

/**
 * A pino logger with NodeRings' one setup: one JSON object per line, secret fields redacted, secret
 * values masked in the whole line, errors in fields written as their name, message and code.
 */
export function createLogger(options: LoggerOptions): Logger {
  const secrets = options.secrets ?? new SecretValues();
  const named = (options.format ?? 'named') === 'named';
  return pino(
    {
      level: options.level ?? 'info',
      base: { app: options.name },
      redact: { paths: [...REDACT_PATHS, ...(options.redactPaths ?? [])], censor: REDACTED },
      ...(named && { timestamp: pino.stdTimeFunctions.isoTime }),
      formatters: {
        ...(named && { level: (label: string) => ({ level: label }) }),
        log: errorFields,
      },
      hooks: { streamWrite: (line) => secrets.mask(line, REDACTED) },
    },
    options.destination ?? pino.destination({ dest: 1, sync: true }),
  );
}

/**
 * Errors under any field but pino's own `err` (which keeps its serializer and stack) as
 * `{ name, message, code }`: JSON would write them as `{}`.
 */
function errorFields(fields: Record<string, unknown>): Record<string, unknown> {
  let result = fields;
  for (const [key, value] of Object.entries(fields)) {
    if (key === 'err' || !(value instanceof Error)) continue;
    if (result === fields) result = { ...fields };
    const code = (value as Error & { code?: unknown }).code;
    result[key] = { name: value.name, message: value.message, ...(code === undefined ? {} : { code }) };
  }
  return result;
}
