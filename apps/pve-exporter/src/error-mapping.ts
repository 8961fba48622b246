import { ExporterError } from './exporter-error.js';
import type { ExporterErrorCode } from './exporter-error.js';

/** The HTTP status of a failed scrape for each of the exporter's own errors. */
const HTTP_STATUS: Record<ExporterErrorCode, 400 | 500 | 503> = {
  USAGE: 500,
  CONFIG_INVALID: 500,
  UNKNOWN_MODULE: 400,
  BAD_TARGET: 400,
  SCRAPE_TIMEOUT: 500,
  MALFORMED_ANSWER: 500,
  NO_LOCAL_NODE: 500,
  SHUTTING_DOWN: 503,
};

/**
 * A failed scrape's status: 400 for a request that names no module or no usable target, 500 for
 * everything that went wrong collecting (upstream answers 500 for any failure while collecting), 503
 * when the exporter is closing.
 */
export function httpStatusOf(error: unknown): 400 | 500 | 503 {
  return error instanceof ExporterError ? HTTP_STATUS[error.code] : 500;
}

/** Exit codes of the process: 2 for bad flags or an unusable config, 1 for any other failure. */
export function exitCodeOf(error: unknown): 1 | 2 {
  return error instanceof ExporterError && (error.code === 'USAGE' || error.code === 'CONFIG_INVALID')
    ? 2
    : 1;
}

/** One line saying why, with every secret masked: it goes into logs and answers. */
export function failureReason(error: unknown, secrets: readonly string[]): string {
  let text = error instanceof Error ? error.message : String(error);
  for (const secret of secrets) text = text.split(secret).join('***');
  return text.replace(/\s*\n\s*/g, ' ').trim();
}
