import { readFileSync } from 'node:fs';

/** The node agent's version: its package.json's. */
export function agentVersion(): string {
  try {
    const pkg: unknown = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    if (typeof pkg === 'object' && pkg !== null && 'version' in pkg && typeof pkg.version === 'string')
      return pkg.version;
  } catch {
    // Packaged without its package.json: still a version the contract accepts.
  }
  return '0.0.0-unknown';
}
