import type { Command } from '../command.js';
import { TOKEN_ENV } from '../token-source.js';

export const logout: Command = {
  path: ['logout'],
  summary: 'deletes the stored token',
  synopsis: '',
  options: {},
  args: [],
  run: async ({ io, out, store }) => {
    const removed = await store.deleteCredentials();
    if (io.env[TOKEN_ENV] !== undefined && io.env[TOKEN_ENV] !== '') {
      out.warn(`${TOKEN_ENV} is still set in this environment and is used while it is.`);
    }
    out.result({ removed }, () =>
      removed ? `Removed the token stored in ${store.dir}.\n` : `No token was stored in ${store.dir}.\n`,
    );
  },
};
