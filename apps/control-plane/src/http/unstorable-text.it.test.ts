import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestControlPlane, type Caller, type TestControlPlane } from '../control-plane.test-support.js';
import { DATABASE_KINDS } from '../db/test-database.test-support.js';
import {
  documentedOperations,
  fillPath,
  type JsonSchema,
  type Operation,
} from './openapi-operations.test-support.js';

const ANY_UUID = '00000000-0000-4000-8000-000000000000';
const NUL = 'bad\u0000text';
const LONE_SURROGATE = 'bad\ud800text';

interface ErrorBody {
  code?: string;
  details?: { fieldViolations?: { field: string; description: string }[] }[];
}

function fieldsOf(body: ErrorBody): string[] {
  return body.details?.[0]?.fieldViolations?.map((v) => v.field) ?? [];
}

/** Every string the schema takes, as a field path and a body holding `text` there (and nothing else). */
function stringFields(
  schema: JsonSchema,
  resolve: (s: JsonSchema) => JsonSchema,
  text: string,
  path: string[] = [],
): { field: string; body: unknown }[] {
  const resolved = resolve(schema);
  const alternatives = resolved.anyOf ?? resolved.oneOf;
  if (alternatives !== undefined) {
    const first = alternatives.find((a) => resolve(a).type !== 'null');
    return first === undefined ? [] : stringFields(first, resolve, text, path);
  }
  const type = Array.isArray(resolved.type) ? resolved.type[0] : resolved.type;
  if (type === 'string') return path.length === 0 ? [] : [{ field: path.join('.'), body: text }];
  if (type === 'array' && resolved.items !== undefined && path.length < 4) {
    return stringFields(resolved.items, resolve, text, [...path, '0']).map((f) => ({
      field: f.field,
      body: [f.body],
    }));
  }
  if (type !== 'object' || path.length >= 4) return [];
  return Object.entries(resolved.properties ?? {}).flatMap(([key, property]) =>
    stringFields(property, resolve, text, [...path, key]).map((f) => ({
      field: f.field,
      body: { [key]: f.body },
    })),
  );
}

describe.each(DATABASE_KINDS)('text the database cannot store, on the %s database', (kind) => {
  let t: TestControlPlane;
  let provider: Caller;
  beforeAll(async () => {
    t = await startTestControlPlane(kind);
    provider = await t.verifiedProvider();
  }, 60_000);
  afterAll(() => t.close());

  it('refuses a NUL or an unpaired surrogate in a free-text field with 400 naming it, and stores nothing', async () => {
    const agent = {
      name: 'frankfurt',
      description: 'rack 4',
      agentPublicIp: '203.0.113.10',
      gatewayRegion: 'AGENT_GATEWAY_REGION_AMS01',
      hypervisorDriver: 'HYPERVISOR_DRIVER_PROXMOX',
    };
    for (const [field, value] of [
      ['name', NUL],
      ['description', NUL],
      ['name', LONE_SURROGATE],
      ['description', '\udfff'],
    ] as const) {
      const refused = await t.call<ErrorBody>('POST', '/v1/agents', {
        as: provider,
        body: { ...agent, [field]: value },
      });
      expect(refused.status, JSON.stringify(refused.body)).toBe(400);
      expect(refused.body.code).toBe('INVALID_ARGUMENT');
      expect(fieldsOf(refused.body)).toEqual([field]);
    }
    const listed = await t.call<{ totalCount: number }>('GET', '/v1/agents', { as: provider });
    expect(listed.body.totalCount).toBe(0);

    const registered = await t.call<ErrorBody>('POST', '/v1/auth/register', {
      body: {
        email: 'nul@example.test',
        password: 'correct horse battery',
        organizationName: NUL,
        organizationType: 'ORGANIZATION_TYPE_CLIENT',
      },
    });
    expect(registered.status).toBe(400);
    expect(fieldsOf(registered.body)).toEqual(['organizationName']);

    // Well-formed text outside the Basic Multilingual Plane (a surrogate pair) is stored as given.
    const emoji = await t.call<{ agent: { name: string } }>('POST', '/v1/agents', {
      as: provider,
      body: { ...agent, name: 'frankfurt \u{1F680}' },
    });
    expect(emoji.status).toBe(201);
    expect(emoji.body.agent.name).toBe('frankfurt \u{1F680}');
  });

  it('names the field holding a NUL or an unpaired surrogate on every documented route', async () => {
    const { operations, resolve } = await documentedOperations(t);
    const staff = await t.staff();
    const callerFor = (operation: Operation): Caller | undefined =>
      operation.access.kind === 'public' ? undefined : operation.access.kind === 'staff' ? staff : provider;
    const failures: string[] = [];
    let checked = 0;
    for (const operation of operations.filter((o) => o.body !== undefined)) {
      for (const text of [NUL, LONE_SURROGATE]) {
        for (const { field, body } of stringFields(operation.body ?? {}, resolve, text)) {
          checked += 1;
          const response = await t.call<ErrorBody>(
            operation.method,
            fillPath(operation.path, () => ANY_UUID),
            { as: callerFor(operation), body },
          );
          if (response.status !== 400 || !fieldsOf(response.body).includes(field)) {
            failures.push(
              `${operation.method} ${operation.path} ${field}=${JSON.stringify(text)}: ${String(response.status)} ${JSON.stringify(fieldsOf(response.body))}`,
            );
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
    expect(failures).toEqual([]);
  }, 120_000);
});
