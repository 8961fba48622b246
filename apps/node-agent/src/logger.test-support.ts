import { type Logger, createLogger } from './logger.js';

export interface LogRecord {
  readonly level: string;
  readonly msg: string;
  readonly [field: string]: unknown;
}

/** A logger whose lines a test can read back, parsed. */
export function captureLogger(): {
  readonly log: Logger;
  readonly lines: LogRecord[];
  readonly raw: string[];
} {
  const lines: LogRecord[] = [];
  const raw: string[] = [];
  const log = createLogger({
    level: 'debug',
    write: (line) => {
      raw.push(line);
      lines.push(JSON.parse(line) as LogRecord);
    },
  });
  return { log, lines, raw };
}
