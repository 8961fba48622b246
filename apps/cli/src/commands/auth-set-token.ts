import { usageError } from '../cli-error.js';
import { booleanFlag, stringFlag, type Command } from '../command.js';
import { TOKEN_ENV, tokenHint } from '../token-source.js';

export const authSetToken: Command = {
  path: ['auth', 'set-token'],
  summary: `stores a service-account token (--token T, or --from-env to read ${TOKEN_ENV}), with --api-url and --org-id`,
  synopsis: '(--token T | --from-env)',
  options: { token: { type: 'string' }, 'from-env': { type: 'boolean' } },
  args: [],
  check: (flags) => {
    const given = [stringFlag(flags, 'token') !== undefined, booleanFlag(flags, 'from-env')].filter(Boolean);
    if (given.length !== 1) throw usageError('give exactly one of --token and --from-env');
  },
  run: async ({ flags, io, out, store, settings }) => {
    const token = stringFlag(flags, 'token') ?? io.env[TOKEN_ENV];
    if (token === undefined || token === '') throw usageError(`--from-env: ${TOKEN_ENV} is not set`);
    if (/\s/.test(token)) throw usageError('the token must not contain spaces or line breaks');
    const config = await store.readConfig();
    await store.writeCredentials({ token });
    await store.writeConfig({
      ...config,
      ...(settings.apiUrl !== undefined && { apiUrl: settings.apiUrl }),
      ...(settings.organizationId !== undefined && { organizationId: settings.organizationId }),
    });
    out.result(
      { stored: true, token_hint: tokenHint(token), config_dir: store.dir },
      () => `Token ${tokenHint(token)} stored in ${store.dir}.\n`,
    );
  },
};
