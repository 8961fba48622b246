import type { TestControlPlane } from '../control-plane.test-support.js';
import type { RouteAccess } from './route-access.js';

/** JSON Schema as it appears in the OpenAPI document (the subset the route tests read). */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  format?: string;
  pattern?: string;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  $ref?: string;
  default?: unknown;
}

export interface Operation {
  readonly method: string;
  /** The path as documented, like `/v1/agents/{id}:generateInstallCommand`. */
  readonly path: string;
  readonly access: RouteAccess;
  readonly body: JsonSchema | undefined;
  readonly parameters: readonly { name: string; in: string; required?: boolean; schema: JsonSchema }[];
}

interface OpenApiDocument {
  paths: Record<string, Record<string, OperationObject>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

interface OperationObject {
  'x-noderings-access'?: RouteAccess;
  requestBody?: { content: { 'application/json'?: { schema: JsonSchema } } };
  parameters?: { name: string; in: string; required?: boolean; schema: JsonSchema }[];
}

/** Every operation the running server documents: the route tests cover new routes without being edited. */
export async function documentedOperations(
  t: TestControlPlane,
): Promise<{ operations: Operation[]; resolve: (s: JsonSchema) => JsonSchema }> {
  const document = (await t.call<OpenApiDocument>('GET', '/openapi.json')).body;
  const schemas = document.components?.schemas ?? {};
  const resolve = (schema: JsonSchema): JsonSchema => {
    const ref = schema.$ref?.replace('#/components/schemas/', '');
    return ref === undefined ? schema : resolve(schemas[ref] ?? {});
  };
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const access = operation['x-noderings-access'];
      if (access === undefined) throw new Error(`${method} ${path} does not document its access`);
      const body = operation.requestBody?.content['application/json']?.schema;
      operations.push({
        method: method.toUpperCase(),
        path,
        access,
        body: body === undefined ? undefined : resolve(body),
        parameters: operation.parameters ?? [],
      });
    }
  }
  return { operations, resolve };
}

export function isMutating(operation: Operation): boolean {
  return operation.method !== 'GET' && operation.method !== 'HEAD';
}

/** Fills `{param}` placeholders. */
export function fillPath(path: string, values: (name: string) => string): string {
  return path.replace(/\{(\w+)\}/g, (_match, name: string) => values(name));
}
