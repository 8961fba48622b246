import { badRequest } from './status-error.js';

/**
 * Request bodies in kube's protobuf encoding, which kubectl's typed commands send for built-in kinds
 * (`create serviceaccount|role|rolebinding|namespace|secret|configmap|token`, `auth can-i`) with no
 * fallback to JSON. Only decoding is needed: answers are JSON, which those clients also accept.
 * The message layouts below are the field numbers of the Kubernetes API's protobuf definitions.
 */
export const PROTOBUF_CONTENT_TYPE = 'application/vnd.kubernetes.protobuf';
const MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

type Scalar = 'string' | 'bytes' | 'int' | 'bool' | 'time';
interface Field {
  name: string;
  type: Scalar | Layout | 'map' | 'bytes-map';
  repeated?: boolean;
}
type Layout = Record<number, Field>;

const s = (name: string, repeated = false): Field => ({ name, type: 'string', repeated });
const m = (name: string, type: Layout, repeated = false): Field => ({ name, type, repeated });

const OWNER_REFERENCE: Layout = {
  1: s('kind'),
  3: s('name'),
  4: s('uid'),
  5: s('apiVersion'),
  6: { name: 'controller', type: 'bool' },
  7: { name: 'blockOwnerDeletion', type: 'bool' },
};
const OBJECT_META: Layout = {
  1: s('name'),
  2: s('generateName'),
  3: s('namespace'),
  5: s('uid'),
  6: s('resourceVersion'),
  7: { name: 'generation', type: 'int' },
  8: { name: 'creationTimestamp', type: 'time' },
  11: { name: 'labels', type: 'map' },
  12: { name: 'annotations', type: 'map' },
  13: m('ownerReferences', OWNER_REFERENCE, true),
  14: s('finalizers', true),
};
const OBJECT_REFERENCE: Layout = {
  1: s('kind'),
  2: s('namespace'),
  3: s('name'),
  4: s('uid'),
  5: s('apiVersion'),
};
const POLICY_RULE: Layout = {
  1: s('verbs', true),
  2: s('apiGroups', true),
  3: s('resources', true),
  4: s('resourceNames', true),
  5: s('nonResourceURLs', true),
};
const SUBJECT: Layout = { 1: s('kind'), 2: s('apiGroup'), 3: s('name'), 4: s('namespace') };
const ROLE_REF: Layout = { 1: s('apiGroup'), 2: s('kind'), 3: s('name') };
const ROLE: Layout = { 1: m('metadata', OBJECT_META), 2: m('rules', POLICY_RULE, true) };
const BINDING: Layout = {
  1: m('metadata', OBJECT_META),
  2: m('subjects', SUBJECT, true),
  3: m('roleRef', ROLE_REF),
};

const LAYOUTS: Record<string, Layout> = {
  Namespace: {
    1: m('metadata', OBJECT_META),
    2: m('spec', { 1: s('finalizers', true) }),
    3: m('status', { 1: s('phase') }),
  },
  ServiceAccount: {
    1: m('metadata', OBJECT_META),
    2: m('secrets', OBJECT_REFERENCE, true),
    3: m('imagePullSecrets', { 1: s('name') }, true),
    4: { name: 'automountServiceAccountToken', type: 'bool' },
  },
  Secret: {
    1: m('metadata', OBJECT_META),
    2: { name: 'data', type: 'bytes-map' },
    3: s('type'),
    4: { name: 'stringData', type: 'map' },
    5: { name: 'immutable', type: 'bool' },
  },
  ConfigMap: {
    1: m('metadata', OBJECT_META),
    2: { name: 'data', type: 'map' },
    3: { name: 'binaryData', type: 'bytes-map' },
    4: { name: 'immutable', type: 'bool' },
  },
  Role: ROLE,
  ClusterRole: { ...ROLE, 3: m('aggregationRule', {}) },
  RoleBinding: BINDING,
  ClusterRoleBinding: BINDING,
  TokenRequest: {
    1: m('metadata', OBJECT_META),
    2: m('spec', {
      1: s('audiences', true),
      3: m('boundObjectRef', { 1: s('kind'), 2: s('apiVersion'), 3: s('name'), 4: s('uid') }),
      4: { name: 'expirationSeconds', type: 'int' },
    }),
  },
  SelfSubjectAccessReview: {
    1: m('metadata', OBJECT_META),
    2: m('spec', {
      1: m('resourceAttributes', {
        1: s('namespace'),
        2: s('verb'),
        3: s('group'),
        4: s('version'),
        5: s('resource'),
        6: s('subresource'),
        7: s('name'),
      }),
      2: m('nonResourceAttributes', { 1: s('path'), 2: s('verb') }),
    }),
  },
  SelfSubjectReview: { 1: m('metadata', OBJECT_META) },
  DeleteOptions: {
    1: { name: 'gracePeriodSeconds', type: 'int' },
    2: m('preconditions', { 1: s('uid'), 2: s('resourceVersion') }),
    3: { name: 'orphanDependents', type: 'bool' },
    4: s('propagationPolicy'),
    5: s('dryRun', true),
  },
};

/** Decodes a `k8s\0`-prefixed protobuf body into the JSON object it stands for. */
export function decodeKubeProtobuf(body: Buffer): Record<string, unknown> {
  if (body.length < MAGIC.length || !body.subarray(0, MAGIC.length).equals(MAGIC)) {
    throw badRequest('provided object is not a valid protobuf message: missing the k8s\\0 prefix');
  }
  const unknown = decodeMessage(body.subarray(MAGIC.length), {
    1: m('typeMeta', { 1: s('apiVersion'), 2: s('kind') }),
    2: { name: 'raw', type: 'bytes' },
  });
  const typeMeta = (unknown.typeMeta ?? {}) as { apiVersion?: string; kind?: string };
  const layout = LAYOUTS[typeMeta.kind ?? ''];
  if (!layout)
    throw badRequest(`no protobuf decoding for kind "${typeMeta.kind ?? ''}"; send application/json`);
  const raw = Buffer.from(typeof unknown.raw === 'string' ? unknown.raw : '', 'base64');
  return { apiVersion: typeMeta.apiVersion, kind: typeMeta.kind, ...decodeMessage(raw, layout) };
}

function decodeMessage(buf: Buffer, layout: Layout): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const reader = new Reader(buf);
  while (!reader.done) {
    const tag = reader.varint();
    const number = Math.floor(tag / 8);
    const wire = tag % 8;
    const field = layout[number];
    const value = reader.value(wire);
    if (!field) continue;
    const decoded = decodeField(field, value);
    // gogo-protobuf writes empty strings, zeros and false; the JSON form omits them.
    if (!field.repeated && (decoded === '' || decoded === 0 || decoded === false || decoded === undefined))
      continue;
    if (field.type === 'map' || field.type === 'bytes-map') {
      const [k, v] = decoded as [string, unknown];
      out[field.name] = { ...(out[field.name] as object | undefined), [k]: v };
    } else if (field.repeated) {
      out[field.name] = [...((out[field.name] as unknown[] | undefined) ?? []), decoded];
    } else {
      out[field.name] = decoded;
    }
  }
  return out;
}

function decodeField(field: Field, value: number | Buffer): unknown {
  const bytes = (): Buffer => {
    if (typeof value === 'number')
      throw badRequest(`protobuf field ${field.name}: expected length-delimited data`);
    return value;
  };
  switch (field.type) {
    case 'string':
      return bytes().toString('utf8');
    case 'bytes':
      return bytes().toString('base64');
    case 'int':
      return typeof value === 'number' ? value : 0;
    case 'bool':
      return value === 1;
    case 'time': {
      const t = decodeMessage(bytes(), { 1: { name: 'seconds', type: 'int' } });
      if (!t.seconds) return undefined;
      return new Date(Number(t.seconds) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    }
    case 'map':
    case 'bytes-map': {
      const entry = decodeMessage(bytes(), {
        1: s('key'),
        2: { name: 'value', type: field.type === 'map' ? 'string' : 'bytes' },
      });
      return [entry.key ?? '', entry.value ?? ''];
    }
    default:
      return decodeMessage(bytes(), field.type);
  }
}

class Reader {
  private pos = 0;

  constructor(private readonly buf: Buffer) {}

  get done(): boolean {
    return this.pos >= this.buf.length;
  }

  varint(): number {
    let result = 0;
    let factor = 1;
    for (;;) {
      if (this.pos >= this.buf.length)
        throw badRequest('provided object is not a valid protobuf message: truncated varint');
      const byte = this.buf[this.pos++] ?? 0;
      result += (byte & 0x7f) * factor;
      if (byte < 0x80) return result;
      factor *= 128;
      if (factor > 2 ** 63)
        throw badRequest('provided object is not a valid protobuf message: varint too long');
    }
  }

  value(wire: number): number | Buffer {
    switch (wire) {
      case 0:
        return this.varint();
      case 1:
        return this.take(8);
      case 2:
        return this.take(this.varint());
      case 5:
        return this.take(4);
      default:
        throw badRequest(`provided object is not a valid protobuf message: wire type ${wire}`);
    }
  }

  private take(n: number): Buffer {
    if (this.pos + n > this.buf.length)
      throw badRequest('provided object is not a valid protobuf message: truncated field');
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
}
