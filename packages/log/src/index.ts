export { createLogger, REDACT_PATHS, REDACTED, type LoggerOptions } from './create-logger.js';
export { SecretValues } from './secret-values.js';
export type { Logger } from 'pino';
