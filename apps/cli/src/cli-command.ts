import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { ApiClient, ApiError } from './api-client.js';
import { CliError, exitCodeOf, usageError } from './cli-error.js';
import type { CliIo } from './cli-io.js';
import type { Command, CommandContext, Settings } from './command.js';
import { COMMANDS } from './commands/index.js';
import { ConfigStore } from './config-store.js';
import {
  GLOBAL_OPTIONS,
  GLOBAL_USAGE,
  apiUrlOf,
  configDirOf,
  organizationIdOf,
  outputFormatOf,
  splitCommandWords,
} from './global-options.js';
import { Output } from './output.js';
import { currentToken } from './token-source.js';

const GROUPS = new Set(COMMANDS.filter((c) => c.path.length > 1).map((c) => c.path[0]));

function usageText(commands: readonly Command[] = COMMANDS): string {
  const lines = commands.map(
    (c) => `  nr ${[...c.path, c.synopsis].join(' ').trimEnd()}\n      ${c.summary}`,
  );
  return `usage: nr <command> [flags]\n\ncommands:\n${lines.join('\n')}\n\n${GLOBAL_USAGE}\n`;
}

/** `nr …`: runs one command and returns the exit code (0, 1 failure, 2 usage). */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let out = new Output(io, 'text');
  let usageFor: readonly Command[] = COMMANDS;
  try {
    const { words, rest } = splitCommandWords(argv, (w) => GROUPS.has(w));
    const command = COMMANDS.find((c) => c.path.join(' ') === words.join(' '));
    if (command === undefined) {
      if (words.length === 0 && (rest.includes('--help') || rest.includes('-h'))) {
        io.stdout(usageText());
        return 0;
      }
      throw usageError(words.length === 0 ? 'a command is needed' : `unknown command "${words.join(' ')}"`);
    }
    usageFor = [command];
    const parsed = parseCommandLine(command, rest);
    if (parsed.flags.help === true) {
      io.stdout(usageText([command]));
      return 0;
    }
    out = new Output(io, outputFormatOf(stringOf(parsed.flags.output)));
    const store = new ConfigStore(configDirOf(stringOf(parsed.flags['config-dir']), io.homeDir));
    const settings = await resolveSettings(parsed.flags, io.env, store);
    const ctx: CommandContext = {
      io,
      out,
      store,
      settings,
      flags: parsed.flags,
      args: parsed.args,
      client: async () => {
        if (settings.apiUrl === undefined) {
          throw usageError('no API URL: pass --api-url or set NR_API_URL');
        }
        const token = await currentToken(io.env, store, settings.apiUrl, (io.now ?? (() => new Date()))());
        return new ApiClient({ apiUrl: settings.apiUrl, token, organizationId: settings.organizationId });
      },
    };
    await command.run(ctx);
    return 0;
  } catch (e: unknown) {
    report(e, io, out, usageFor);
    return exitCodeOf(e);
  }
}

function parseCommandLine(
  command: Command,
  rest: readonly string[],
): { flags: CommandContext['flags']; args: string[] } {
  let values: CommandContext['flags'];
  let positionals: string[];
  try {
    const parsed = parseArgs({
      args: [...rest],
      options: { ...GLOBAL_OPTIONS, ...command.options },
      allowPositionals: true,
      strict: true,
    });
    values = parsed.values;
    positionals = parsed.positionals;
  } catch (e: unknown) {
    throw usageError(firstSentence(e instanceof Error ? e.message : String(e)));
  }
  if (values.help === true) return { flags: values, args: positionals };
  if (positionals.length > command.args.length) {
    throw usageError(`unexpected argument "${positionals[command.args.length] ?? ''}"`);
  }
  const missing = command.args[positionals.length];
  if (missing !== undefined) throw usageError(`missing argument <${missing}>`);
  for (const [name, value] of Object.entries(values)) {
    if (typeof value === 'string' && value.trim() === '') throw usageError(`--${name} must not be empty`);
  }
  command.check?.(values, positionals);
  return { flags: values, args: positionals };
}

/** Flag, then variable, then `config.json`; a bad flag or variable fails before the file is read. */
async function resolveSettings(
  flags: CommandContext['flags'],
  env: CliIo['env'],
  store: ConfigStore,
): Promise<Settings> {
  let apiUrl = firstGiven(
    [
      [stringOf(flags['api-url']), '--api-url'],
      [nonEmpty(env.NR_API_URL), 'NR_API_URL'],
    ],
    apiUrlOf,
  );
  let organizationId = firstGiven(
    [
      [stringOf(flags['org-id']), '--org-id'],
      [nonEmpty(env.NR_ORGANIZATION_ID), 'NR_ORGANIZATION_ID'],
    ],
    organizationIdOf,
  );
  if (apiUrl !== undefined && organizationId !== undefined) return { apiUrl, organizationId };
  const stored = await store.readConfig();
  const file = join(store.dir, 'config.json');
  try {
    apiUrl ??= firstGiven([[stringOf(stored.apiUrl), `apiUrl in ${file}`]], apiUrlOf);
    organizationId ??= firstGiven(
      [[stringOf(stored.organizationId), `organizationId in ${file}`]],
      organizationIdOf,
    );
  } catch (e: unknown) {
    // A bad stored value is not a usage error: no flag of this command line is wrong.
    throw new CliError('CONFIG_UNUSABLE', e instanceof Error ? e.message : String(e), { cause: e });
  }
  return { apiUrl, organizationId };
}

function firstGiven(
  candidates: readonly (readonly [string | undefined, string])[],
  parse: (value: string, source: string) => string,
): string | undefined {
  for (const [value, source] of candidates) if (value !== undefined) return parse(value, source);
  return undefined;
}

function report(e: unknown, io: CliIo, out: Output, usageFor: readonly Command[]): void {
  if (e instanceof CliError && e.code === 'USAGE') {
    io.stderr(`nr: ${e.message}\n\n${usageText(usageFor)}`);
    return;
  }
  if (e instanceof ApiError) {
    // The API's own words: an unreviewed provider reads exactly "Provider organization review is pending."
    io.stderr(`${e.message}\n`);
    for (const v of e.fieldViolations) io.stderr(`  ${v.field}: ${v.description}\n`);
    return;
  }
  if (e instanceof CliError) {
    io.stderr(`${e.message}\n`);
    return;
  }
  out.fail(`unexpected error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

function firstSentence(message: string): string {
  const end = message.indexOf('. ');
  return end === -1 ? message : message.slice(0, end + 1);
}
