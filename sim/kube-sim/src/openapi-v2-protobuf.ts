import { isRecord } from './json-value.js';

/**
 * `/openapi/v2` in the protobuf form kubectl asks for (`Accept: application/com.github.proto-openapi.spec.v2@v1.0+protobuf`,
 * with no JSON fallback): gnostic's `openapi.v2.Document`. The answer's Content-Type is the spelling
 * without `@`, as kube-apiserver sends it, because Go's MIME parser (which kubectl runs on it) refuses `@`. Only the messages a Kubernetes document
 * uses are written; the numbers below are the field numbers of gnostic's OpenAPIv2.proto. Values
 * kept as `Any` (defaults, enums, vendor extensions) travel as YAML text, of which JSON is a subset.
 */
export const OPENAPI_V2_PROTOBUF = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

type Json = Record<string, unknown>;
type Chunk = Uint8Array;

const VARINT = 0;
const FIXED64 = 1;
const LENGTH = 2;

function varint(value: number): Chunk {
  const out: number[] = [];
  let v = value;
  while (v > 0x7f) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
  return Uint8Array.from(out);
}

function tag(field: number, wire: number): Chunk {
  return varint(field * 8 + wire);
}

/** A length-delimited field: a string, or a message even when it is empty (presence matters in oneofs). */
function bytesField(field: number, body: Chunk): Chunk[] {
  return [tag(field, LENGTH), varint(body.length), body];
}

function message(parts: Chunk[][]): Chunk {
  return Buffer.concat(parts.flat());
}

function str(field: number, value: unknown): Chunk[] {
  return typeof value === 'string' && value !== '' ? bytesField(field, Buffer.from(value, 'utf8')) : [];
}

function strings(field: number, value: unknown): Chunk[] {
  return Array.isArray(value) ? value.flatMap((v) => str(field, v)) : [];
}

function bool(field: number, value: unknown): Chunk[] {
  return value === true ? [tag(field, VARINT), varint(1)] : [];
}

function uint(field: number, value: unknown): Chunk[] {
  return typeof value === 'number' && Number.isInteger(value) && value > 0
    ? [tag(field, VARINT), varint(value)]
    : [];
}

function double(field: number, value: unknown): Chunk[] {
  if (typeof value !== 'number' || value === 0) return [];
  const body = Buffer.alloc(8);
  body.writeDoubleLE(value);
  return [tag(field, FIXED64), body];
}

function sub(field: number, body: Chunk | undefined): Chunk[] {
  return body ? bytesField(field, body) : [];
}

/** `Any { string yaml = 2 }`. */
function any(value: unknown): Chunk {
  return message([str(2, JSON.stringify(value))]);
}

/** `NamedX { string name = 1; X value = 2 }`, one per entry. */
function named(field: number, entries: [string, Chunk][]): Chunk[] {
  return entries.flatMap(([name, value]) => bytesField(field, message([str(1, name), bytesField(2, value)])));
}

function vendorExtensions(field: number, value: Json): Chunk[] {
  return named(
    field,
    Object.entries(value)
      .filter(([key]) => key.startsWith('x-'))
      .map(([key, v]) => [key, any(v)]),
  );
}

function schema(value: Json): Chunk {
  const properties = isRecord(value.properties) ? value.properties : undefined;
  const items = value.items;
  const additional = value.additionalProperties;
  return message([
    str(1, value.$ref),
    str(2, value.format),
    str(3, value.title),
    str(4, value.description),
    value.default !== undefined ? bytesField(5, any(value.default)) : [],
    double(6, value.multipleOf),
    double(7, value.maximum),
    bool(8, value.exclusiveMaximum),
    double(9, value.minimum),
    bool(10, value.exclusiveMinimum),
    uint(11, value.maxLength),
    uint(12, value.minLength),
    str(13, value.pattern),
    uint(14, value.maxItems),
    uint(15, value.minItems),
    bool(16, value.uniqueItems),
    uint(17, value.maxProperties),
    uint(18, value.minProperties),
    strings(19, value.required),
    Array.isArray(value.enum) ? value.enum.flatMap((v) => bytesField(20, any(v))) : [],
    isRecord(additional)
      ? bytesField(21, message([bytesField(1, schema(additional))]))
      : typeof additional === 'boolean'
        ? bytesField(21, message([[tag(2, VARINT), varint(additional ? 1 : 0)]]))
        : [],
    typeof value.type === 'string' ? bytesField(22, message([str(1, value.type)])) : [],
    isRecord(items) ? bytesField(23, message([bytesField(1, schema(items))])) : [],
    Array.isArray(value.allOf) ? value.allOf.filter(isRecord).flatMap((s) => bytesField(24, schema(s))) : [],
    properties
      ? bytesField(
          25,
          message([
            named(
              1,
              Object.entries(properties).map(([k, v]) => [k, schema(isRecord(v) ? v : {})]),
            ),
          ]),
        )
      : [],
    bool(27, value.readOnly),
    value.example !== undefined ? bytesField(30, any(value.example)) : [],
    vendorExtensions(31, value),
  ]);
}

/** `ParametersItem { Parameter parameter = 1 }` for a body or a query parameter. */
function parameter(value: Json): Chunk {
  const inner =
    value.in === 'body'
      ? bytesField(
          1,
          message([
            str(1, value.description),
            str(2, value.name),
            str(3, value.in),
            bool(4, value.required),
            sub(5, isRecord(value.schema) ? schema(value.schema) : undefined),
          ]),
        )
      : bytesField(
          2,
          message([
            bytesField(
              value.in === 'path' ? 4 : 3,
              message(
                value.in === 'path'
                  ? [
                      bool(1, value.required),
                      str(2, value.in),
                      str(4, value.name),
                      str(5, value.type),
                      bool(19, value.uniqueItems),
                    ]
                  : [
                      bool(1, value.required),
                      str(2, value.in),
                      str(4, value.name),
                      str(6, value.type),
                      bool(20, value.uniqueItems),
                    ],
              ),
            ),
          ]),
        );
  return message([bytesField(1, message([inner]))]);
}

function responses(value: Json): Chunk {
  return message([
    named(
      1,
      Object.entries(value).map(([code, response]) => {
        const r = isRecord(response) ? response : {};
        const body = message([
          str(1, r.description),
          sub(2, isRecord(r.schema) ? message([bytesField(1, schema(r.schema))]) : undefined),
        ]);
        return [code, message([bytesField(1, body)])];
      }),
    ),
  ]);
}

function operation(value: unknown): Chunk | undefined {
  if (!isRecord(value)) return undefined;
  return message([
    str(3, value.description),
    str(5, value.operationId),
    strings(6, value.produces),
    strings(7, value.consumes),
    Array.isArray(value.parameters)
      ? value.parameters.filter(isRecord).flatMap((p) => bytesField(8, parameter(p)))
      : [],
    sub(9, isRecord(value.responses) ? responses(value.responses) : undefined),
    vendorExtensions(13, value),
  ]);
}

function pathItem(value: Json): Chunk {
  return message([
    sub(2, operation(value.get)),
    sub(3, operation(value.put)),
    sub(4, operation(value.post)),
    sub(5, operation(value.delete)),
    sub(8, operation(value.patch)),
  ]);
}

/** Encodes a Swagger 2.0 document (as `openApiV2Document` builds it) as gnostic's `openapi.v2.Document`. */
export function encodeOpenApiV2(document: Json): Uint8Array {
  const info = isRecord(document.info) ? document.info : {};
  const paths = isRecord(document.paths) ? document.paths : {};
  const definitions = isRecord(document.definitions) ? document.definitions : {};
  return message([
    str(1, document.swagger),
    bytesField(2, message([str(1, info.title), str(2, info.version)])),
    bytesField(
      8,
      message([
        named(
          2,
          Object.entries(paths).map(([p, item]) => [p, pathItem(isRecord(item) ? item : {})]),
        ),
      ]),
    ),
    bytesField(
      9,
      message([
        named(
          1,
          Object.entries(definitions).map(([name, s]) => [name, schema(isRecord(s) ? s : {})]),
        ),
      ]),
    ),
  ]);
}
