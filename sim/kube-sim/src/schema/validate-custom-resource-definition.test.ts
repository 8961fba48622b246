import { describe, expect, it } from 'vitest';
import { validateCustomResourceDefinition } from './validate-custom-resource-definition.js';

const SCHEMA_PATH = 'spec.versions[0].schema.openAPIV3Schema';

function crd(openAPIV3Schema: unknown, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'proxmoxvms.vm.noderings.com' },
    spec: {
      group: 'vm.noderings.com',
      names: { plural: 'proxmoxvms', singular: 'proxmoxvm', kind: 'ProxmoxVM', listKind: 'ProxmoxVMList' },
      scope: 'Namespaced',
      versions: [
        {
          name: 'v1alpha1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema },
          additionalPrinterColumns: [{ name: 'Phase', type: 'string', jsonPath: '.status.phase' }],
        },
      ],
      ...overrides,
    },
  };
}

const goodSchema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        vmid: { type: 'integer' },
        port: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
        extra: { 'x-kubernetes-preserve-unknown-fields': true },
        tags: { type: 'array', items: { type: 'string' }, default: ['a'] },
      },
    },
    status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
  },
};

function messages(causes: { field: string; message: string }[]): string[] {
  return causes.map((c) => `${c.field}: ${c.message}`);
}

describe('validateCustomResourceDefinition', () => {
  it('accepts a structural CRD', () => {
    expect(validateCustomResourceDefinition(crd(goodSchema))).toEqual([]);
  });

  it('refuses a field without a type', () => {
    const schema = { type: 'object', properties: { spec: { properties: { a: { type: 'string' } } } } };
    expect(validateCustomResourceDefinition(crd(schema))).toEqual([
      {
        reason: 'FieldValueRequired',
        field: `${SCHEMA_PATH}.properties[spec].type`,
        message: 'Required value: must not be empty for specified object fields',
      },
    ]);
  });

  it('refuses other non-structural shapes', () => {
    const schema = {
      properties: {
        list: { type: 'array' },
        both: {
          type: 'object',
          properties: { a: { type: 'string' } },
          additionalProperties: { type: 'string' },
        },
        items: { type: 'array', items: {} },
        junction: { type: 'string', anyOf: [{ type: 'string', maxLength: 3 }] },
        ref: { $ref: '#/definitions/x', type: 'object' },
        unique: { type: 'array', items: { type: 'string' }, uniqueItems: true },
        keep: { type: 'object', 'x-kubernetes-preserve-unknown-fields': false },
      },
    };
    expect(messages(validateCustomResourceDefinition(crd(schema)))).toEqual([
      `${SCHEMA_PATH}.type: Required value: must not be empty at the root`,
      `${SCHEMA_PATH}.properties[list].items: Required value: must be specified`,
      `${SCHEMA_PATH}.properties[both].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive`,
      `${SCHEMA_PATH}.properties[items].items.type: Required value: must not be empty for specified array items`,
      `${SCHEMA_PATH}.properties[junction].anyOf[0].type: Forbidden: must be empty to be structural`,
      `${SCHEMA_PATH}.properties[ref].$ref: Forbidden: $ref is not supported`,
      `${SCHEMA_PATH}.properties[unique].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic`,
      `${SCHEMA_PATH}.properties[keep].x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined`,
    ]);
  });

  it('restricts the root metadata schema to name and generateName', () => {
    const schema = {
      type: 'object',
      properties: { metadata: { type: 'object', properties: { labels: { type: 'object' } } } },
    };
    expect(messages(validateCustomResourceDefinition(crd(schema)))).toEqual([
      `${SCHEMA_PATH}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`,
    ]);
  });

  it('refuses a default that does not satisfy its schema', () => {
    const schema = {
      type: 'object',
      properties: { spec: { type: 'object', properties: { size: { type: 'integer', default: 'big' } } } },
    };
    expect(messages(validateCustomResourceDefinition(crd(schema)))).toEqual([
      `${SCHEMA_PATH}.properties[spec].properties[size].default: Invalid value: "string": ${SCHEMA_PATH}.properties[spec].properties[size].default in body must be of type integer: "string"`,
    ]);
  });

  it('checks the CRD fields themselves', () => {
    const causes = validateCustomResourceDefinition({
      metadata: { name: 'wrong' },
      spec: { group: 'noderings', names: {}, scope: 'Global', versions: [{ name: 'V1', storage: false }] },
    });
    expect(messages(causes)).toEqual([
      'spec.group: Invalid value: "noderings": should be a domain with at least one dot',
      'spec.names.plural: Required value',
      'spec.names.kind: Required value',
      'spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"',
      `spec.versions[0].name: Invalid value: "V1": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
      'spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required',
      'spec.versions: Invalid value: [{"name":"V1","storage":false}]: must have exactly one version marked as storage version',
      'metadata.name: Invalid value: "wrong": must be spec.names.plural+"."+spec.group',
    ]);
  });

  it('requires exactly one storage version and unique names', () => {
    const base = crd(goodSchema);
    const spec = base.spec as { versions: Record<string, unknown>[] };
    const [first] = spec.versions;
    spec.versions = [first ?? {}, { ...first, storage: true }];
    expect(
      messages(validateCustomResourceDefinition(base)).map((m) => m.replace(/Invalid value: .*: /, '')),
    ).toEqual([
      'spec.versions: must contain unique version names',
      'spec.versions: must have exactly one version marked as storage version',
    ]);
  });

  it('checks printer columns', () => {
    const base = crd(goodSchema);
    const [version] = (base.spec as { versions: Record<string, unknown>[] }).versions;
    if (version) version.additionalPrinterColumns = [{ name: 'Age', type: 'duration' }];
    expect(messages(validateCustomResourceDefinition(base))).toEqual([
      'spec.versions[0].additionalPrinterColumns[0].type: Unsupported value: "duration": supported values: "boolean", "date", "integer", "number", "string"',
      'spec.versions[0].additionalPrinterColumns[0].jsonPath: Required value',
    ]);
  });

  it('never throws on malformed input', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 5000; i += 1) deep = { type: 'object', properties: { a: deep } };
    const inputs: unknown[] = [
      null,
      [],
      'crd',
      { spec: null },
      { spec: { versions: 'v1' } },
      crd(null),
      crd([]),
      crd({ type: 'object', properties: [] }),
      crd({ type: 'object', properties: { a: 'string' }, required: 'a', enum: 3 }),
      crd({ type: 'object', properties: { a: { type: 'array', items: [{ type: 'string' }] } } }),
      crd({ type: 'object', properties: { a: { type: 'string', pattern: '(' } } }),
      crd(deep),
    ];
    for (const input of inputs) {
      expect(() => validateCustomResourceDefinition(input)).not.toThrow();
      expect(validateCustomResourceDefinition(input).length).toBeGreaterThan(0);
    }
  });
});
