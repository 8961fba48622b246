import type { Problem } from './node-settings.js';

/** RFC 1123 host names: dot-separated labels of letters, digits and inner hyphens. */
const LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const MAX_HOSTNAME_LENGTH = 253;

export function hostnameProblem(hostname: string): Problem {
  if (hostname.length > MAX_HOSTNAME_LENGTH) return `must be at most ${MAX_HOSTNAME_LENGTH} characters`;
  if (!hostname.split('.').every((label) => LABEL.test(label)))
    return 'must be a host name: labels of letters, digits and hyphens (not first or last), 1 to 63 characters, separated by dots';
  return undefined;
}
