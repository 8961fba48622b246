import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { nr, tempHome } from './cli-harness.test-support.js';

const AGENT_ID = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
const ORG_ID = '0b7c1a2d-3e4f-4a5b-9c6d-7e8f9a0b1c2d';
const TOKEN = 'nrsa_0123456789abcdefghij';

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

describe('flags', () => {
  const bad: [string, string[], RegExp][] = [
    ['no command', [], /a command is needed/],
    ['an unknown command', ['agents', 'list'], /unknown command "agents"/],
    ['an unknown subcommand', ['agent', 'lst'], /unknown command "agent lst"/],
    ['an unknown flag', ['agent', 'list', '--colour'], /Unknown option '--colour'/],
    ['a flag of another command', ['agent', 'get', AGENT_ID, '--search', 'x'], /Unknown option '--search'/],
    ['a missing flag value', ['agent', 'list', '--search'], /--search/],
    ['a value for a boolean flag', ['agent', 'delete', AGENT_ID, '--yes=no'], /--yes/],
    ['an empty flag value', ['agent', 'list', '--search', ''], /--search must not be empty/],
    ['a bad --output', ['agent', 'list', '--output', 'yaml'], /--output must be text or json, not "yaml"/],
    ['a bad --api-url', ['agent', 'list', '--api-url', 'api.example.com'], /--api-url must be a URL/],
    ['an ftp --api-url', ['agent', 'list', '--api-url', 'ftp://api.example.com'], /https:\/\//],
    ['a bad --org-id', ['agent', 'list', '--org-id', 'acme'], /--org-id must be an organization id/],
    ['an empty --config-dir', ['agent', 'list', '--config-dir', ' '], /--config-dir must not be empty/],
    ['a missing argument', ['agent', 'get'], /missing argument <agent-id>/],
    ['an extra argument', ['agent', 'get', AGENT_ID, 'more'], /unexpected argument "more"/],
    ['a bad agent id', ['agent', 'delete', 'frankfurt', '--yes'], /the agent id must be a UUID/],
    [
      'create without --name',
      ['agent', 'create', '--agent-ip', '203.0.113.7', '--gateway-region', 'ams01'],
      /--name is required/,
    ],
    [
      'create with a bad IP',
      ['agent', 'create', '--name', 'a', '--agent-ip', '203.0.113', '--gateway-region', 'ams01'],
      /--agent-ip must be an IPv4 address/,
    ],
    [
      'create with a bad region',
      ['agent', 'create', '--name', 'a', '--agent-ip', '203.0.113.7', '--gateway-region', 'ams-01'],
      /--gateway-region must be a word/,
    ],
    ['update with nothing to change', ['agent', 'update', AGENT_ID], /nothing to change/],
    ['set-token with neither source', ['auth', 'set-token'], /exactly one of --token and --from-env/],
    ['set-token with both sources', ['auth', 'set-token', '--token', TOKEN, '--from-env'], /exactly one/],
    ['set-token --from-env without NR_TOKEN', ['auth', 'set-token', '--from-env'], /NR_TOKEN is not set/],
    ['set-token with a spaced token', ['auth', 'set-token', '--token', 'a b'], /must not contain spaces/],
    [
      'a command needing the API without a URL',
      ['agent', 'list'],
      /no API URL: pass --api-url or set NR_API_URL/,
    ],
  ];

  it.each(bad)('%s: exit 2, one error line, the usage, nothing written', async (_name, argv, error) => {
    const home = await tempHome();
    const run = await nr(home, argv, { env: { NR_TOKEN: argv.includes('--from-env') ? '' : TOKEN } });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    const [first, blank, usage] = run.stderr.split('\n');
    expect(first).toMatch(/^nr: /);
    expect(first).toMatch(error);
    expect(blank).toBe('');
    expect(usage).toMatch(/^usage: nr /);
    expect(await exists(join(home, '.nr'))).toBe(false);
  });

  it('takes global flags before the command words as well as after them', async () => {
    const home = await tempHome();
    const dir = join(home, 'elsewhere');
    const run = await nr(home, ['--config-dir', dir, '--output=json', 'auth', 'set-token', '--token', TOKEN]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ stored: true, config_dir: dir });
  });

  it('refuses a bad NR_API_URL and NR_ORGANIZATION_ID like the flags', async () => {
    const home = await tempHome();
    const url = await nr(home, ['agent', 'list'], { env: { NR_API_URL: 'nowhere', NR_TOKEN: TOKEN } });
    expect(url.code).toBe(2);
    expect(url.stderr).toMatch(/^nr: NR_API_URL must be a URL/);
    const org = await nr(home, ['agent', 'list'], {
      env: { NR_API_URL: 'https://api.example.com', NR_ORGANIZATION_ID: 'x' },
    });
    expect(org.code).toBe(2);
    expect(org.stderr).toMatch(/^nr: NR_ORGANIZATION_ID must be an organization id/);
  });

  it('prints the usage for --help and exits 0', async () => {
    const home = await tempHome();
    const all = await nr(home, ['--help']);
    expect(all.code).toBe(0);
    expect(all.stdout).toMatch(/nr agent delete <agent-id> \[--yes\]/);
    const one = await nr(home, ['agent', 'create', '-h']);
    expect(one.code).toBe(0);
    expect(one.stdout).toMatch(/nr agent create --name NAME/);
    expect(one.stdout).not.toMatch(/agent delete/);
  });
});

describe('the config folder', () => {
  it('is created 0700 with 0600 files, replaced whole, and keeps the API URL and organization', async () => {
    const home = await tempHome();
    const run = await nr(home, [
      'auth',
      'set-token',
      '--token',
      TOKEN,
      '--api-url',
      'https://api.example.com/',
      '--org-id',
      ORG_ID.toUpperCase(),
    ]);
    expect(run.code).toBe(0);
    const dir = join(home, '.nr');
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    expect((await stat(join(dir, 'credentials.json'))).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, 'config.json'))).mode & 0o777).toBe(0o600);
    expect((await readdir(dir)).sort()).toEqual(['config.json', 'credentials.json']);
    expect(JSON.parse(await readFile(join(dir, 'credentials.json'), 'utf8'))).toEqual({ token: TOKEN });
    expect(JSON.parse(await readFile(join(dir, 'config.json'), 'utf8'))).toEqual({
      apiUrl: 'https://api.example.com',
      organizationId: ORG_ID,
    });

    // A second token replaces the first; the stored API URL and organization stay.
    expect(
      (await nr(home, ['auth', 'set-token', '--from-env'], { env: { NR_TOKEN: `${TOKEN}2` } })).code,
    ).toBe(0);
    expect(JSON.parse(await readFile(join(dir, 'credentials.json'), 'utf8'))).toEqual({ token: `${TOKEN}2` });
    expect(JSON.parse(await readFile(join(dir, 'config.json'), 'utf8'))).toMatchObject({
      organizationId: ORG_ID,
    });
    expect((await readdir(dir)).sort()).toEqual(['config.json', 'credentials.json']);
  });

  it('never prints the token, only its last four characters', async () => {
    const home = await tempHome();
    const set = await nr(home, ['auth', 'set-token', '--token', TOKEN]);
    expect(set.stdout + set.stderr).not.toContain(TOKEN);
    expect(set.stdout).toContain('****ghij');
  });

  it('logout deletes the stored token and says when there was none', async () => {
    const home = await tempHome();
    await nr(home, ['auth', 'set-token', '--token', TOKEN]);
    const first = await nr(home, ['logout', '--output', 'json']);
    expect(first.code).toBe(0);
    // A service-account token has no device session to revoke: it is only forgotten here.
    expect(JSON.parse(first.stdout)).toEqual({ removed: true, revoked: false });
    expect(await exists(join(home, '.nr', 'credentials.json'))).toBe(false);
    const second = await nr(home, ['logout']);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/No token was stored/);
  });

  it('a bad API URL in config.json is a failure (exit 1), not a usage error', async () => {
    const home = await tempHome();
    await nr(home, ['auth', 'set-token', '--token', TOKEN]);
    await writeFile(join(home, '.nr', 'config.json'), JSON.stringify({ apiUrl: 'nowhere' }));
    const run = await nr(home, ['agent', 'list']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `apiUrl in ${join(home, '.nr', 'config.json')} must be a URL like https://api.example.com, not "nowhere"\n`,
    );
  });

  it('a config.json that is not JSON fails with its path', async () => {
    const home = await tempHome();
    await nr(home, ['auth', 'set-token', '--token', TOKEN]);
    await writeFile(join(home, '.nr', 'config.json'), '{ not json');
    const run = await nr(home, ['agent', 'list']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(join(home, '.nr', 'config.json'));
  });
});

describe('output', () => {
  it('marks progress with glyphs on a terminal and bracketed words elsewhere', async () => {
    const home = await tempHome();
    const env = { NR_TOKEN: TOKEN };
    const plain = await nr(home, ['logout'], { env });
    expect(plain.stderr).toBe('[WARN] NR_TOKEN is still set in this environment and is used while it is.\n');
    const tty = await nr(home, ['logout'], { env, tty: { answers: [] } });
    expect(tty.stderr).toBe('⚠ NR_TOKEN is still set in this environment and is used while it is.\n');
  });

  it('auth status without a token prints one JSON document on stdout and exits 1', async () => {
    const home = await tempHome();
    const run = await nr(home, ['auth', 'status', '--output', 'json']);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toEqual({
      authenticated: false,
      source: null,
      token_hint: null,
      token_type: null,
      api_url: null,
      server_verified: false,
      server_error: null,
      organization: null,
      role: null,
      provider_review_pending: false,
    });
    expect(run.stderr).toBe('Not authenticated.\n');
  });

  it('a command needing a token without one exits 1 and says how to set one', async () => {
    const home = await tempHome();
    const run = await nr(home, ['agent', 'list', '--api-url', 'https://api.example.com']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'Not authenticated: run nr login, or nr auth set-token --token T (or set NR_TOKEN).\n',
    );
  });
});
