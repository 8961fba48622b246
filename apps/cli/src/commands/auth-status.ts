import { ApiError, type ApiClient } from '../api-client.js';
import { CliError } from '../cli-error.js';
import type { Command } from '../command.js';
import { renderFields } from '../output.js';
import { findToken, tokenHint, type TokenSource } from '../token-source.js';

interface Organization {
  readonly id: string;
  readonly name: string;
  readonly type: string;
  readonly isVerified: boolean;
}

/** `nr auth status --output json`; the document `apps/cli/README.md` describes. */
export interface AuthStatus {
  authenticated: boolean;
  source: TokenSource | null;
  token_hint: string | null;
  /** `session` for a signed-in user's token, `service_account` for an organisation's token. */
  token_type: 'session' | 'service_account' | null;
  api_url: string | null;
  /** Whether the API was asked and answered. */
  server_verified: boolean;
  server_error: string | null;
  organization: { id: string; name: string; type: string; is_verified: boolean } | null;
  /** The signed-in user's role in that organisation (`MEMBER_ROLE_…`); null for other tokens. */
  role: string | null;
  provider_review_pending: boolean;
}

export const authStatus: Command = {
  path: ['auth', 'status'],
  summary: 'whether the token works, whose it is and the organization it acts in',
  synopsis: '',
  options: {},
  args: [],
  run: async (ctx) => {
    const found = await findToken(ctx.io.env, ctx.store);
    const status: AuthStatus = {
      authenticated: false,
      source: found?.source ?? null,
      token_hint: found === undefined ? null : tokenHint(found.token),
      token_type: null,
      api_url: ctx.settings.apiUrl ?? null,
      server_verified: false,
      server_error: null,
      organization: null,
      role: null,
      provider_review_pending: false,
    };
    if (found !== undefined) await probe(status, await ctx.client());
    ctx.out.result(status, () => renderFields(fieldsOf(status)));
    if (!status.authenticated) throw new CliError('NOT_AUTHENTICATED', 'Not authenticated.');
  },
};

/** Only a 401 means the token does not work; any other failure leaves it presumed good. */
async function probe(status: AuthStatus, client: ApiClient): Promise<void> {
  let organization: Organization;
  try {
    ({ organization } = await client.get<{ organization: Organization }>('/v1/organization'));
  } catch (e: unknown) {
    if (e instanceof ApiError) {
      status.server_verified = true;
      status.authenticated = e.status !== 401;
    } else {
      status.authenticated = true;
    }
    status.server_error = e instanceof Error ? e.message : String(e);
    return;
  }
  status.authenticated = true;
  status.server_verified = true;
  status.organization = {
    id: organization.id,
    name: organization.name,
    type: organization.type,
    is_verified: organization.isVerified,
  };
  status.provider_review_pending =
    organization.type === 'ORGANIZATION_TYPE_PROVIDER' && !organization.isVerified;
  try {
    const mine = await client.get<{ organizations: (Organization & { role: string })[] }>(
      '/v1/organizations',
    );
    status.token_type = 'session';
    status.role = mine.organizations.find((o) => o.id === organization.id)?.role ?? null;
  } catch (e: unknown) {
    // The list of one's organisations is for signed-in users only: any other token is refused it.
    if (!(e instanceof ApiError && e.status === 403)) throw e;
    status.token_type = 'service_account';
  }
}

function fieldsOf(s: AuthStatus): [string, string][] {
  const fields: [string, string][] = [
    ['API', s.api_url ?? '(none)'],
    ['Authenticated', s.authenticated ? 'yes' : 'no'],
  ];
  if (s.token_hint !== null) {
    const from = s.source === 'env' ? 'NR_TOKEN' : 'credentials.json';
    fields.push(['Token', `${s.token_hint} from ${from}${s.token_type === null ? '' : `, ${s.token_type}`}`]);
  }
  if (s.organization !== null) {
    const o = s.organization;
    fields.push(['Organization', `${o.name} (${o.id})`], ['Type', o.type]);
    if (s.role !== null) fields.push(['Role', s.role]);
    fields.push(['Verified', o.is_verified ? 'yes' : 'no']);
  }
  if (s.provider_review_pending) fields.push(['Review', 'Provider organization review is pending.']);
  if (s.server_error !== null) fields.push(['Server error', s.server_error]);
  return fields;
}
