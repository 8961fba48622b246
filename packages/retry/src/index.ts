export type { BackoffOptions } from './backoff.js';
export { Backoff, RetrySchedule } from './backoff.js';
export { abortError, isAborted, sleep } from './sleep.js';
