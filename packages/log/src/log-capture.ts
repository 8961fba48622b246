import type { Logger } from 'pino';

import { createLogger } from './create-logger.js';
import { SecretValues } from './secret-values.js';

export interface LogRecord {
  readonly level: string;
  readonly msg: string;
  readonly [field: string]: unknown;
}

export interface LogCapture {
  readonly logger: Logger;
  /** The values the logger masks; tests add to it as an app does. */
  readonly secrets: SecretValues;
  /** Every line written, parsed. */
  readonly lines: LogRecord[];
  /** Every line written, as written, without its newline. */
  readonly raw: string[];
}

/** A NodeRings logger whose lines a test reads back (level `debug` unless given). */
export function captureLogs(options: { name?: string; level?: string } = {}): LogCapture {
  const lines: LogRecord[] = [];
  const raw: string[] = [];
  const secrets = new SecretValues();
  const logger = createLogger({
    name: options.name ?? 'test',
    level: options.level ?? 'debug',
    secrets,
    destination: {
      write: (line: string) => {
        for (const one of line.split('\n')) {
          if (one === '') continue;
          raw.push(one);
          lines.push(JSON.parse(one) as LogRecord);
        }
      },
    },
  });
  return { logger, secrets, lines, raw };
}
