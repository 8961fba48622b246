import type { ApiClient } from './api-client.js';
import type { CliIo } from './cli-io.js';
import type { ConfigStore } from './config-store.js';
import type { Output } from './output.js';

/** Where the API URL and organisation came from, for `nr auth status`. */
export interface Settings {
  /** Without a trailing slash; undefined when no flag, variable or config file names one. */
  readonly apiUrl: string | undefined;
  readonly organizationId: string | undefined;
}

/** What a command runs with: flags already checked, nothing written yet. */
export interface CommandContext {
  readonly io: CliIo;
  readonly out: Output;
  readonly store: ConfigStore;
  readonly settings: Settings;
  /** The flags given on the command line (global ones included). */
  readonly flags: Readonly<Record<string, string | boolean | undefined>>;
  /** The positional arguments, as many as the command names. */
  readonly args: readonly string[];
  /** An API client with the stored token (or `NR_TOKEN`); fails when there is none. */
  readonly client: () => Promise<ApiClient>;
}

/** A flag as `parseArgs` takes it; none is given more than once. */
interface FlagSpec {
  readonly type: 'string' | 'boolean';
  readonly short?: string;
}

export type FlagSpecs = Readonly<Record<string, FlagSpec>>;

/** One `nr` command: its words, flags and what it does. */
export interface Command {
  /** The words that select it, like `['agent', 'create']`. */
  readonly path: readonly string[];
  readonly summary: string;
  /** Arguments and flags after the words, for the usage text. */
  readonly synopsis: string;
  readonly options: FlagSpecs;
  /** Names of the required positional arguments. */
  readonly args: readonly string[];
  /** Checks the flags beyond their types; throws a usage error. Runs before anything is read or written. */
  readonly check?: (flags: CommandContext['flags'], args: readonly string[]) => void;
  readonly run: (ctx: CommandContext) => Promise<void>;
}

export function stringFlag(flags: CommandContext['flags'], name: string): string | undefined {
  const value = flags[name];
  return typeof value === 'string' ? value : undefined;
}

export function booleanFlag(flags: CommandContext['flags'], name: string): boolean {
  return flags[name] === true;
}
