import { join } from 'node:path';

import { usageError } from './cli-error.js';
import type { FlagSpecs } from './command.js';
import { OUTPUT_FORMATS, type OutputFormat } from './output.js';

/** Flags every command takes, before or after its words. */
export const GLOBAL_OPTIONS = {
  'api-url': { type: 'string' },
  'org-id': { type: 'string' },
  'config-dir': { type: 'string' },
  output: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies FlagSpecs;

export const GLOBAL_USAGE = `global flags:
  --api-url URL      the NodeRings API (NR_API_URL; else the one stored by nr auth set-token)
  --org-id ID        the organization to act in, sent as X-Organization-ID (NR_ORGANIZATION_ID)
  --config-dir DIR   where config.json and credentials.json are kept (default ~/.nr)
  --output FORMAT    text (default) or json: one JSON document on stdout
  -h, --help         this text`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Splits the command's words (`agent`, `create`) from the flags and arguments around them. */
export function splitCommandWords(
  argv: readonly string[],
  isGroup: (word: string) => boolean,
): { words: string[]; rest: string[] } {
  const words: string[] = [];
  const rest: string[] = [];
  let i = 0;
  for (; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--') break;
    if (arg.startsWith('-')) {
      rest.push(arg);
      if (takesValue(arg) && i + 1 < argv.length) rest.push(argv[++i] ?? '');
      continue;
    }
    words.push(arg);
    if (words.length === 2 || !isGroup(arg)) {
      i++;
      break;
    }
  }
  rest.push(...argv.slice(i));
  return { words, rest };
}

/** A global string flag given as `--flag value` (its value is the next argument). */
function takesValue(arg: string): boolean {
  if (arg.includes('=')) return false;
  const name = arg.replace(/^--?/, '');
  const option = (GLOBAL_OPTIONS as FlagSpecs)[name];
  return option?.type === 'string';
}

export function outputFormatOf(value: string | undefined): OutputFormat {
  if (value === undefined) return 'text';
  const format = OUTPUT_FORMATS.find((f) => f === value);
  if (format === undefined) throw usageError(`--output must be text or json, not "${value}"`);
  return format;
}

export function configDirOf(value: string | undefined, homeDir: string): string {
  if (value === undefined) return join(homeDir, '.nr');
  if (value.trim() === '') throw usageError('--config-dir must not be empty');
  return value;
}

/** An http(s) URL without query or fragment, returned without its trailing slash. */
export function apiUrlOf(value: string, source: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw usageError(`${source} must be a URL like https://api.example.com, not "${value}"`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw usageError(`${source} must be an https:// (or http://) URL, not "${value}"`);
  }
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw usageError(`${source} must not have credentials, a query or a fragment`);
  }
  return url.toString().replace(/\/+$/, '');
}

export function organizationIdOf(value: string, source: string): string {
  if (!UUID.test(value)) throw usageError(`${source} must be an organization id (a UUID), not "${value}"`);
  return value.toLowerCase();
}
