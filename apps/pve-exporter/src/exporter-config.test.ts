import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { loadExporterConfig, parseExporterConfig } from './exporter-config.js';
import type { ExporterConfig } from './exporter-config.js';
import { ExporterError } from './exporter-error.js';

const SECRET = '0b6f7a1e-5c2d-4b1e-9a7f-3c2e1d0f9a8b';
// A self-signed certificate is not needed here: the client only checks that this looks like PEM.
const FINGERPRINT = Array.from({ length: 32 }, (_, i) =>
  (i * 7).toString(16).padStart(2, '0').toUpperCase(),
).join(':');
const CA_PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pve-exporter-config-'));
  await writeFile(join(dir, 'ca.pem'), CA_PEM);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function failure(promise: Promise<unknown>): Promise<ExporterError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ExporterError);
  expect((error as ExporterError).code).toBe('CONFIG_INVALID');
  return error as ExporterError;
}

function module(config: ExporterConfig, name: string) {
  const found = config.modules.get(name);
  if (found === undefined) throw new Error(`no module ${name}`);
  return found;
}

describe("pve.yml, as prometheus-pve-exporter's", () => {
  test('modules with an API token or a password; verify_ssl true, false or a CA file', async () => {
    const config = await parseExporterConfig(
      [
        'default:',
        '  user: prometheus@pve',
        '  token_name: exporter',
        `  token_value: "${SECRET}"`,
        'insecure:',
        '  user: prometheus@pve',
        '  password: "s3cr3t!"',
        '  verify_ssl: false',
        'pinned:',
        '  user: prometheus@pve',
        '  token_name: exporter',
        `  token_value: "${SECRET}"`,
        `  verify_ssl: ${join(dir, 'ca.pem')}`,
      ].join('\n'),
      'pve.yml',
    );
    expect([...config.modules.keys()]).toEqual(['default', 'insecure', 'pinned']);
    expect(module(config, 'default')).toEqual({
      client: { token: { userid: 'prometheus@pve', tokenId: 'exporter', secret: SECRET }, tls: {} },
      secrets: [SECRET],
    });
    expect(module(config, 'insecure')).toEqual({
      client: {
        login: { username: 'prometheus@pve', password: 's3cr3t!' },
        tls: { insecureSkipVerify: true },
      },
      secrets: ['s3cr3t!'],
    });
    expect(module(config, 'pinned').client.tls).toEqual({ caPem: CA_PEM });
  });

  test('tls_fingerprint (NodeRings) pins the certificate', async () => {
    const config = await parseExporterConfig(
      `default: {user: a@pve, token_name: t1, token_value: "${SECRET}", tls_fingerprint: "${FINGERPRINT}"}`,
      'pve.yml',
    );
    expect(module(config, 'default').client.tls).toEqual({ fingerprint: FINGERPRINT });
  });

  test('with both a token and a password, the token is used, as proxmoxer does', async () => {
    const config = await parseExporterConfig(
      `default: {user: a@pve, token_name: t1, token_value: "${SECRET}", password: pw}`,
      'pve.yml',
    );
    expect(module(config, 'default').client.token).toEqual({
      userid: 'a@pve',
      tokenId: 't1',
      secret: SECRET,
    });
    expect(module(config, 'default').client.login).toBeUndefined();
  });

  test.each([
    ['default: {token_name: t, token_value: v}', "pve.yml: module 'default': user is missing"],
    [
      'default: {user: a@pve, token_name: t}',
      "pve.yml: module 'default': token_value is missing (give both or neither)",
    ],
    ['default: {user: a@pve}', "pve.yml: module 'default': needs token_name and token_value (or password)"],
    [
      'default: {user: a@pve, password: p, port: 8007}',
      "pve.yml: module 'default': unknown key 'port' (known: user, password, token_name, token_value, verify_ssl, tls_fingerprint)",
    ],
    [
      'default: {user: a@pve, password: 1234}',
      "pve.yml: module 'default': password must be a non-empty string",
    ],
    [
      'default: {user: a@pve, password: p, verify_ssl: 1}',
      "pve.yml: module 'default': verify_ssl must be true, false or the path of a CA certificate file",
    ],
    [
      `default: {user: a@pve, password: p, verify_ssl: false, tls_fingerprint: "${FINGERPRINT}"}`,
      "pve.yml: module 'default': tls_fingerprint pins the certificate: leave verify_ssl out (or true)",
    ],
    [
      'default: {user: a@pve, password: p, tls_fingerprint: "AB:CD"}',
      "pve.yml: module 'default': tls.fingerprint must be a SHA-256 fingerprint (64 hex digits, colons optional), got 'AB:CD'",
    ],
    [
      'default: {user: prometheus, token_name: t, token_value: v}',
      "pve.yml: module 'default': token userid must be 'user@realm', got 'prometheus'",
    ],
    [
      'default:',
      "pve.yml: module 'default': expected a mapping with user and token_name/token_value (or password)",
    ],
    ['- default', 'pve.yml: expected a mapping of module names to modules (e.g. "default:")'],
    ['{}', 'pve.yml: no modules'],
    ['', 'pve.yml: expected a mapping of module names to modules (e.g. "default:")'],
  ])('refuses %j: %s', async (text, message) => {
    expect((await failure(parseExporterConfig(text, 'pve.yml'))).message).toBe(message);
  });

  test('a YAML syntax error names the file', async () => {
    const error = await failure(parseExporterConfig('default: {user: [', '/etc/prometheus/pve.yml'));
    expect(error.message).toMatch(/^\/etc\/prometheus\/pve\.yml: not valid YAML: /);
  });

  test('a CA file that cannot be read names the module and the file', async () => {
    const missing = join(dir, 'nope.pem');
    const error = await failure(
      parseExporterConfig(`default: {user: a@pve, password: p, verify_ssl: ${missing}}`, 'pve.yml'),
    );
    expect(error.message).toBe(
      `pve.yml: module 'default': verify_ssl: cannot read the CA certificate file ${missing}: no such file`,
    );
  });

  test('a missing config file is named', async () => {
    const file = join(dir, 'absent.yml');
    const error = await failure(loadExporterConfig({ file, env: {} }));
    expect(error.message).toBe(`cannot read the config file ${file}: no such file`);
  });

  test('the file is read when PVE_USER is not set', async () => {
    const file = join(dir, 'pve.yml');
    await writeFile(file, 'default:\n  user: a@pve\n  password: p\n');
    const config = await loadExporterConfig({ file, env: { PVE_TOKEN_NAME: 'ignored' } });
    expect(config.source).toBe(file);
    expect(module(config, 'default').client.login).toEqual({ username: 'a@pve', password: 'p' });
  });
});

describe('the environment, when PVE_USER is set', () => {
  test('PVE_USER, PVE_TOKEN_NAME, PVE_TOKEN_VALUE, PVE_VERIFY_SSL and PVE_MODULE make one module; the file is not read', async () => {
    const config = await loadExporterConfig({
      file: join(dir, 'absent.yml'),
      env: {
        PVE_USER: 'prometheus@pve',
        PVE_TOKEN_NAME: 'exporter',
        PVE_TOKEN_VALUE: SECRET,
        PVE_VERIFY_SSL: 'False',
        PVE_MODULE: 'lab',
      },
    });
    expect(config.source).toBe('the environment (PVE_USER is set)');
    expect([...config.modules.keys()]).toEqual(['lab']);
    expect(module(config, 'lab').client).toEqual({
      token: { userid: 'prometheus@pve', tokenId: 'exporter', secret: SECRET },
      tls: { insecureSkipVerify: true },
    });
  });

  test.each([
    ['0', { insecureSkipVerify: true }],
    ['false', { insecureSkipVerify: true }],
    ['true', {}],
    ['1', {}],
    ['yes', {}],
  ])('PVE_VERIFY_SSL=%s', async (value, tls) => {
    const config = await loadExporterConfig({
      file: '',
      env: { PVE_USER: 'a@pve', PVE_PASSWORD: 'p', PVE_VERIFY_SSL: value },
    });
    expect(module(config, 'default').client.tls).toEqual(tls);
  });

  test('PVE_USER without a password or token is refused', async () => {
    const error = await failure(loadExporterConfig({ file: '', env: { PVE_USER: 'a@pve' } }));
    expect(error.message).toBe(
      "the environment (PVE_USER is set): module 'default': needs token_name and token_value (or password)",
    );
  });
});
