export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

type LogFields = Readonly<Record<string, unknown>>;

/** JSON lines, one per event: `{"level","time","msg",…fields}`; secrets it was told of never appear. */
export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** A logger adding `fields` to every line, sharing this one's level, output and secrets. */
  child(fields: LogFields): Logger;
  /** A value (token, seed, JWT) to mask wherever it would appear in a line. */
  addSecret(value: string): void;
}

export interface LoggerOptions {
  readonly level: LogLevel;
  /** Receives each line without its newline. */
  readonly write: (line: string) => void;
  readonly now?: () => Date;
}

const MASK = '[redacted]';
/** Shorter values could mask ordinary words; every secret the agent holds is far longer. */
const MIN_SECRET_CHARS = 8;

export function createLogger(options: LoggerOptions): Logger {
  const secrets = new Set<string>();
  const threshold = LOG_LEVELS.indexOf(options.level);
  const now = options.now ?? (() => new Date());
  const make = (base: LogFields): Logger => {
    const emit = (level: LogLevel, msg: string, fields: LogFields | undefined): void => {
      if (LOG_LEVELS.indexOf(level) < threshold) return;
      let line = JSON.stringify(
        { level, time: now().toISOString(), msg, ...base, ...fields },
        (_key, value: unknown) => (value instanceof Error ? value.message : value),
      );
      for (const secret of secrets) line = line.split(secret).join(MASK);
      options.write(line);
    };
    return {
      debug: (msg, fields) => {
        emit('debug', msg, fields);
      },
      info: (msg, fields) => {
        emit('info', msg, fields);
      },
      warn: (msg, fields) => {
        emit('warn', msg, fields);
      },
      error: (msg, fields) => {
        emit('error', msg, fields);
      },
      child: (fields) => make({ ...base, ...fields }),
      addSecret: (value) => {
        if (value.length >= MIN_SECRET_CHARS) {
          secrets.add(value);
          // Also as JSON escapes it, should it hold a quote or a backslash.
          secrets.add(JSON.stringify(value).slice(1, -1));
        }
      },
    };
  };
  return make({});
}
