import { setTimeout as delay } from 'node:timers/promises';

import { usageError } from '../cli-error.js';
import type { Command } from '../command.js';
import { startDeviceSignIn, waitForApproval } from '../device-sign-in.js';
import { tokenHint } from '../token-source.js';

export const login: Command = {
  path: ['login'],
  summary: 'signs in as you: approve the code it shows in the dashboard, from any browser (RFC 8628)',
  synopsis: '',
  options: {},
  args: [],
  run: async ({ io, out, store, settings }) => {
    const apiUrl = settings.apiUrl;
    if (apiUrl === undefined) throw usageError('no API URL: pass --api-url or set NR_API_URL');
    const signIn = await startDeviceSignIn(apiUrl);
    io.stderr(
      `To sign in, open ${signIn.verificationUri} in a browser and enter the code ${signIn.userCode}\n` +
        `(or open ${signIn.verificationUriComplete}). Waiting for the approval…\n`,
    );
    const now = io.now ?? (() => new Date());
    const session = await waitForApproval(apiUrl, signIn, {
      now,
      sleep: io.sleep ?? ((ms) => delay(ms)),
    });
    const config = await store.readConfig();
    await store.writeCredentials({
      token: session.accessToken,
      refreshToken: session.refreshToken,
      expiresAt: session.expiresAt.toISOString(),
    });
    await store.writeConfig({
      ...config,
      apiUrl,
      ...(settings.organizationId !== undefined && { organizationId: settings.organizationId }),
    });
    out.ok('Signed in.');
    out.result(
      { signed_in: true, token_hint: tokenHint(session.accessToken), config_dir: store.dir },
      () => `Signed in; the session is stored in ${store.dir} and renews itself.\n`,
    );
  },
};
