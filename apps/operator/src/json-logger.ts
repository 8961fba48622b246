/** A JSON-lines logger: one object per line with `time`, `level`, `msg` and fields; secrets are masked. */
export interface Logger {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

/** Values that must never appear in a line, whatever field or message carries them. */
export interface SecretRegistry {
  add(value: string): void;
}

const REDACTED = '[REDACTED]';
const SECRET_KEY = /secret|token|password|passwd|authorization|user-?data|vendor-?data|cookie|ticket/i;
/** Too short to mask without garbling ordinary text. */
const MIN_SECRET_LENGTH = 6;

export function createJsonLogger(
  write: (line: string) => void = (line) => {
    process.stdout.write(line);
  },
  base: Record<string, unknown> = {},
): Logger & SecretRegistry {
  const secrets = new Set<string>();
  const emit = (
    level: string,
    bound: Record<string, unknown>,
    msg: string,
    fields: Record<string, unknown> = {},
  ): void => {
    let line = JSON.stringify(
      { time: new Date().toISOString(), level, msg, ...bound, ...redact(fields) },
      errorReplacer,
    );
    for (const secret of secrets) line = line.split(secret).join(REDACTED);
    write(`${line}\n`);
  };
  const make = (bound: Record<string, unknown>): Logger => ({
    info: (msg, fields) => {
      emit('info', bound, msg, fields);
    },
    warn: (msg, fields) => {
      emit('warn', bound, msg, fields);
    },
    error: (msg, fields) => {
      emit('error', bound, msg, fields);
    },
    child: (fields) => make({ ...bound, ...redact(fields) }),
  });
  return {
    ...make(base),
    add(value) {
      if (value.length >= MIN_SECRET_LENGTH) {
        secrets.add(value);
        secrets.add(JSON.stringify(value).slice(1, -1));
      }
    },
  };
}

function redact(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, SECRET_KEY.test(k) ? REDACTED : v]));
}

function errorReplacer(_key: string, value: unknown): unknown {
  if (value instanceof Error) {
    const code = (value as Error & { code?: unknown }).code;
    return { name: value.name, message: value.message, ...(code === undefined ? {} : { code }) };
  }
  return value;
}
