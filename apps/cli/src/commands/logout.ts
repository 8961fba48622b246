import type { Command } from '../command.js';
import { revokeSession } from '../device-sign-in.js';
import { TOKEN_ENV } from '../token-source.js';

export const logout: Command = {
  path: ['logout'],
  summary: 'ends the session of nr login (revoked in the API) and deletes the stored token',
  synopsis: '',
  options: {},
  args: [],
  run: async ({ io, out, store, settings }) => {
    const stored = await store.readCredentials();
    let revoked = false;
    if (stored?.refreshToken !== undefined && settings.apiUrl !== undefined) {
      try {
        await revokeSession(settings.apiUrl, stored.refreshToken);
        revoked = true;
      } catch (e: unknown) {
        out.warn(
          `The session could not be revoked in the API (${e instanceof Error ? e.message : String(e)}); ` +
            'the local token is deleted anyway: revoke the session in the dashboard if it matters.',
        );
      }
    }
    const removed = await store.deleteCredentials();
    if (io.env[TOKEN_ENV] !== undefined && io.env[TOKEN_ENV] !== '') {
      out.warn(`${TOKEN_ENV} is still set in this environment and is used while it is.`);
    }
    out.result({ removed, revoked }, () =>
      removed
        ? `${revoked ? 'Revoked the session and removed' : 'Removed'} the token stored in ${store.dir}.\n`
        : `No token was stored in ${store.dir}.\n`,
    );
  },
};
