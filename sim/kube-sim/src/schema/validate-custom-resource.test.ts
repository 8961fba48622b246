import { describe, expect, it } from 'vitest';
import type { JSONSchemaProps } from './json-schema-props.js';
import { validateCustomResource } from './validate-custom-resource.js';

const MAC = '^([0-9a-f]{2}:){5}[0-9a-f]{2}$';
const CIDR = '^(\\d{1,3}\\.){3}\\d{1,3}/\\d{1,2}$';

const proxmoxVmSchema: JSONSchemaProps = {
  type: 'object',
  properties: {
    apiVersion: { type: 'string' },
    kind: { type: 'string' },
    metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 20 } } },
    spec: {
      type: 'object',
      required: ['vmid', 'cpu', 'network'],
      properties: {
        vmid: { type: 'integer', format: 'int64', minimum: 100, maximum: 999999999 },
        node: { type: 'string', minLength: 2 },
        state: { type: 'string', enum: ['Running', 'Stopped'], default: 'Running' },
        cpu: {
          type: 'object',
          required: ['cores'],
          properties: {
            cores: { type: 'integer', minimum: 1, maximum: 128 },
            type: { type: 'string', default: 'host' },
          },
        },
        memoryMiB: { type: 'integer', format: 'int32', default: 2048, exclusiveMinimum: true, minimum: 0 },
        disk: {
          type: 'object',
          default: {},
          properties: {
            sizeGiB: { type: 'integer', default: 32 },
            storage: { type: 'string', default: 'local-lvm', maxLength: 12 },
          },
        },
        network: {
          type: 'object',
          required: ['mac', 'ipv4'],
          properties: {
            mac: { type: 'string', pattern: MAC },
            bridge: { type: 'string', default: 'vmbr0' },
            model: { type: 'string', enum: ['virtio', 'e1000'] },
            ipv4: {
              type: 'object',
              required: ['address'],
              properties: {
                address: { type: 'string', pattern: CIDR },
                gateway: { type: 'string', format: 'ipv4' },
              },
            },
            ipv6: { type: 'object', properties: { address: { type: 'string', format: 'cidr' } } },
          },
        },
        tags: {
          type: 'array',
          maxItems: 3,
          items: { type: 'string', minLength: 1 },
          'x-kubernetes-list-type': 'set',
        },
        disks: {
          type: 'array',
          minItems: 1,
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: {
            type: 'object',
            required: ['name'],
            properties: { name: { type: 'string' }, sizeGiB: { type: 'integer', default: 8 } },
          },
        },
        port: { 'x-kubernetes-int-or-string': true },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        cloudInit: {
          type: 'object',
          'x-kubernetes-preserve-unknown-fields': true,
          properties: { user: { type: 'string' } },
        },
        comment: { type: 'string', nullable: true },
      },
    },
    status: { type: 'object', properties: { phase: { type: 'string' } } },
  },
};

function vm(spec: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: 'vm.noderings.com/v1alpha1',
    kind: 'ProxmoxVM',
    metadata: { name: 'nr-1', namespace: 'a-operator', labels: { x: 'y' } },
    spec: {
      vmid: 101,
      cpu: { cores: 2 },
      network: { mac: 'bc:24:11:00:00:01', ipv4: { address: '10.0.0.5/24' } },
      ...spec,
    },
    ...extra,
  };
}

describe('validateCustomResource', () => {
  it('accepts a valid ProxmoxVM and fills nested defaults, also inside defaulted objects', () => {
    const { object, causes } = validateCustomResource(proxmoxVmSchema, vm({ disks: [{ name: 'root' }] }));
    expect(causes).toEqual([]);
    expect(object.spec).toEqual({
      vmid: 101,
      state: 'Running',
      cpu: { cores: 2, type: 'host' },
      memoryMiB: 2048,
      disk: { sizeGiB: 32, storage: 'local-lvm' },
      network: { mac: 'bc:24:11:00:00:01', bridge: 'vmbr0', ipv4: { address: '10.0.0.5/24' } },
      disks: [{ name: 'root', sizeGiB: 8 }],
    });
  });

  it('keeps given values over defaults and never mutates its input', () => {
    const input = vm({ state: 'Stopped', cpu: { cores: 4, type: 'kvm64' } });
    const snapshot = structuredClone(input);
    const { object } = validateCustomResource(proxmoxVmSchema, input);
    expect(input).toEqual(snapshot);
    expect(object.spec).toMatchObject({ state: 'Stopped', cpu: { cores: 4, type: 'kvm64' } });
  });

  it('reports a missing required field with its full path', () => {
    const { causes } = validateCustomResource(proxmoxVmSchema, vm({ cpu: {} }));
    expect(causes).toEqual([
      { reason: 'FieldValueRequired', field: 'spec.cpu.cores', message: 'Required value' },
    ]);
  });

  it('treats an explicit null in a non-nullable field as absent', () => {
    const { object, causes } = validateCustomResource(
      proxmoxVmSchema,
      vm({ vmid: null, state: null, comment: null }),
    );
    expect(causes).toEqual([{ reason: 'FieldValueRequired', field: 'spec.vmid', message: 'Required value' }]);
    expect(object.spec).toMatchObject({ state: 'Running', comment: null });
  });

  it('reports a wrong type as kube-openapi words it', () => {
    const { causes } = validateCustomResource(proxmoxVmSchema, vm({ vmid: '101' }));
    expect(causes).toEqual([
      {
        reason: 'FieldValueTypeInvalid',
        field: 'spec.vmid',
        message: 'Invalid value: "string": spec.vmid in body must be of type integer: "string"',
      },
    ]);
  });

  it('calls a fractional number a number, not an integer', () => {
    const { causes } = validateCustomResource(proxmoxVmSchema, vm({ cpu: { cores: 1.5 } }));
    expect(causes[0]?.message).toBe(
      'Invalid value: "number": spec.cpu.cores in body must be of type integer: "number"',
    );
  });

  it('reports an enum violation with the supported values', () => {
    const { causes } = validateCustomResource(proxmoxVmSchema, vm({ state: 'Paused' }));
    expect(causes).toEqual([
      {
        reason: 'FieldValueNotSupported',
        field: 'spec.state',
        message: 'Unsupported value: "Paused": supported values: "Running", "Stopped"',
      },
    ]);
  });

  it('reports a pattern mismatch', () => {
    const { causes } = validateCustomResource(
      proxmoxVmSchema,
      vm({ network: { mac: 'zz', ipv4: { address: '10.0.0.5/24' } } }),
    );
    expect(causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: 'spec.network.mac',
        message: `Invalid value: "zz": spec.network.mac in body should match '${MAC}'`,
      },
    ]);
  });

  it('reports bounds, lengths and counts with kube texts', () => {
    const { causes } = validateCustomResource(
      proxmoxVmSchema,
      vm({
        vmid: 5,
        node: 'a',
        memoryMiB: 0,
        cpu: { cores: 129 },
        disk: { storage: 'very-long-storage' },
        tags: ['a', 'b', 'c', 'd'],
        disks: [],
      }),
    );
    // kube-apiserver walks properties in Go map order, so only the set of errors is stable.
    expect(causes.map((c) => [c.reason, c.field, c.message]).sort()).toEqual(
      [
        [
          'FieldValueInvalid',
          'spec.vmid',
          'Invalid value: 5: spec.vmid in body should be greater than or equal to 100',
        ],
        [
          'FieldValueInvalid',
          'spec.node',
          'Invalid value: "a": spec.node in body should be at least 2 chars long',
        ],
        [
          'FieldValueInvalid',
          'spec.cpu.cores',
          'Invalid value: 129: spec.cpu.cores in body should be less than or equal to 128',
        ],
        [
          'FieldValueInvalid',
          'spec.memoryMiB',
          'Invalid value: 0: spec.memoryMiB in body should be greater than 0',
        ],
        ['FieldValueTooLong', 'spec.disk.storage', 'Too long: may not be more than 12 bytes'],
        ['FieldValueTooMany', 'spec.tags', 'Too many: 4: must have at most 3 items'],
        [
          'FieldValueInvalid',
          'spec.disks',
          'Invalid value: 0: spec.disks in body should have at least 1 items',
        ],
      ].sort(),
    );
  });

  it('collects several errors at once, with array indices in paths', () => {
    const { causes } = validateCustomResource(
      proxmoxVmSchema,
      vm({
        vmid: 'x',
        cpu: { cores: 0 },
        network: { mac: 'bc:24:11:00:00:01', model: 'rtl', ipv4: {} },
        disks: [{ name: 'a' }, { sizeGiB: 'big' }],
      }),
    );
    expect(causes.map((c) => `${c.field}: ${c.message}`).sort()).toEqual(
      [
        'spec.vmid: Invalid value: "string": spec.vmid in body must be of type integer: "string"',
        'spec.cpu.cores: Invalid value: 0: spec.cpu.cores in body should be greater than or equal to 1',
        'spec.network.ipv4.address: Required value',
        'spec.network.model: Unsupported value: "rtl": supported values: "virtio", "e1000"',
        'spec.disks[1].name: Required value',
        'spec.disks[1].sizeGiB: Invalid value: "string": spec.disks[1].sizeGiB in body must be of type integer: "string"',
      ].sort(),
    );
  });

  it('validates formats and reports duplicates in sets and maps', () => {
    const { causes } = validateCustomResource(
      proxmoxVmSchema,
      vm({
        network: {
          mac: 'bc:24:11:00:00:01',
          ipv4: { address: '10.0.0.5/24', gateway: '10.0.0.300' },
          ipv6: { address: 'fd00::1/200' },
        },
        tags: ['a', 'a'],
        disks: [{ name: 'root' }, { name: 'root' }],
      }),
    );
    expect(causes.map((c) => [c.reason, c.field, c.message])).toEqual([
      [
        'FieldValueTypeInvalid',
        'spec.network.ipv4.gateway',
        'Invalid value: "10.0.0.300": spec.network.ipv4.gateway in body must be of type ipv4: "10.0.0.300"',
      ],
      [
        'FieldValueTypeInvalid',
        'spec.network.ipv6.address',
        'Invalid value: "fd00::1/200": spec.network.ipv6.address in body must be of type cidr: "fd00::1/200"',
      ],
      ['FieldValueDuplicate', 'spec.tags[1]', 'Duplicate value: "a"'],
      ['FieldValueDuplicate', 'spec.disks[1]', 'Duplicate value: {"name":"root"}'],
    ]);
  });

  it('prunes unknown fields but keeps apiVersion, kind, metadata, preserved and additional properties', () => {
    const { object, causes } = validateCustomResource(
      proxmoxVmSchema,
      vm(
        {
          cpu: { cores: 1, sockets: 2 },
          bogus: true,
          labels: { a: 'b' },
          cloudInit: { user: 'u', anything: { deep: [1] } },
        },
        { extra: 1, status: { phase: 'Running', junk: 'x' } },
      ),
    );
    expect(causes).toEqual([]);
    expect(object).not.toHaveProperty('extra');
    expect(object.metadata).toEqual({ name: 'nr-1', namespace: 'a-operator', labels: { x: 'y' } });
    expect(object.status).toEqual({ phase: 'Running' });
    expect(object.spec).toMatchObject({
      cpu: { cores: 1, type: 'host' },
      labels: { a: 'b' },
      cloudInit: { user: 'u', anything: { deep: [1] } },
    });
    expect(object.spec).not.toHaveProperty('bogus');
  });

  it('validates typed fields inside a preserve-unknown object and additionalProperties values', () => {
    const { causes } = validateCustomResource(
      proxmoxVmSchema,
      vm({ cloudInit: { user: 7 }, labels: { a: 1 } }),
    );
    expect(causes.map((c) => c.field).sort()).toEqual(['spec.cloudInit.user', 'spec.labels.a']);
  });

  it('accepts integers and strings for int-or-string, and nothing else', () => {
    expect(validateCustomResource(proxmoxVmSchema, vm({ port: 8006 })).causes).toEqual([]);
    expect(validateCustomResource(proxmoxVmSchema, vm({ port: 'https' })).causes).toEqual([]);
    expect(validateCustomResource(proxmoxVmSchema, vm({ port: true })).causes).toEqual([
      {
        reason: 'FieldValueTypeInvalid',
        field: 'spec.port',
        message: 'Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"',
      },
    ]);
  });

  it('constrains metadata.name through the root metadata schema only', () => {
    const input = vm({});
    input.metadata = { name: 'a-name-that-is-far-too-long' };
    expect(validateCustomResource(proxmoxVmSchema, input).causes).toEqual([
      {
        reason: 'FieldValueTooLong',
        field: 'metadata.name',
        message: 'Too long: may not be more than 20 bytes',
      },
    ]);
  });

  it('checks anyOf branches', () => {
    const schema: JSONSchemaProps = {
      type: 'object',
      properties: { size: { type: 'string', anyOf: [{ pattern: '^\\d+G$' }, { pattern: '^\\d+M$' }] } },
    };
    expect(validateCustomResource(schema, { size: '10G' }).causes).toEqual([]);
    expect(validateCustomResource(schema, { size: '10T' }).causes[0]?.message).toBe(
      'Invalid value: "": "size" must validate at least one schema (anyOf)',
    );
  });

  it('never throws on malformed input', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 50_000; i += 1) deep = { a: deep };
    const inputs: unknown[] = [
      null,
      undefined,
      42,
      'x',
      [],
      [vm({})],
      vm({ cpu: [], network: null, tags: {} }),
      vm({ cloudInit: deep }),
      vm({ disks: [null, 3, []] }),
    ];
    for (const input of inputs) {
      expect(() => validateCustomResource(proxmoxVmSchema, input)).not.toThrow();
    }
    expect(validateCustomResource(proxmoxVmSchema, [1]).causes).toEqual([
      {
        reason: 'FieldValueTypeInvalid',
        field: '',
        message: 'Invalid value: "array": body must be of type object: "array"',
      },
    ]);
    expect(validateCustomResource(proxmoxVmSchema, vm({ cpu: [] })).causes[0]?.message).toBe(
      'Invalid value: "array": spec.cpu in body must be of type object: "array"',
    );
  });
});
