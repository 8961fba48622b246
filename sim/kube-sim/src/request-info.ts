/** What a request is about, parsed from its method and URL the way kube-apiserver does before authorizing it. */
export interface RequestInfo {
  resourceRequest: boolean;
  path: string;
  /** get, list, watch, create, update, patch, delete, deletecollection; the lower-case method otherwise. */
  verb: string;
  apiGroup: string;
  apiVersion: string;
  namespace?: string;
  resource?: string;
  subresource?: string;
  name?: string;
}

/** Subresources of a namespace, which `/api/v1/namespaces/NAME/…` may name instead of a resource. */
const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

/** Query values Go's strconv.ParseBool reads as true. */
const TRUE_VALUES = new Set(['1', 't', 'T', 'true', 'TRUE', 'True']);

export function isTrue(value: string | null): boolean {
  return value !== null && TRUE_VALUES.has(value);
}

export function parseRequestInfo(method: string, url: URL): RequestInfo {
  const path = url.pathname;
  const nonResource: RequestInfo = {
    resourceRequest: false,
    path,
    verb: method.toLowerCase(),
    apiGroup: '',
    apiVersion: '',
  };
  const segments = path.split('/').filter((s) => s !== '');
  let parts: string[];
  let apiGroup = '';
  let apiVersion: string;
  if (segments[0] === 'api' && segments.length >= 3) {
    apiVersion = segments[1] ?? '';
    parts = segments.slice(2);
  } else if (segments[0] === 'apis' && segments.length >= 4) {
    apiGroup = segments[1] ?? '';
    apiVersion = segments[2] ?? '';
    parts = segments.slice(3);
  } else {
    return nonResource;
  }
  let legacyWatch = false;
  if (parts[0] === 'watch') {
    legacyWatch = true;
    parts = parts.slice(1);
  }
  let namespace: string | undefined;
  if (parts[0] === 'namespaces' && parts.length > 1) {
    namespace = parts[1];
    if (parts.length > 2 && !NAMESPACE_SUBRESOURCES.has(parts[2] ?? '')) parts = parts.slice(2);
  }
  const [resource, name, subresource] = parts;
  const info: RequestInfo = {
    resourceRequest: true,
    path,
    verb: resourceVerb(method, name !== undefined, legacyWatch || isTrue(url.searchParams.get('watch'))),
    apiGroup,
    apiVersion,
    ...(namespace !== undefined ? { namespace } : {}),
    ...(resource !== undefined ? { resource } : {}),
    ...(name !== undefined ? { name } : {}),
    ...(subresource !== undefined ? { subresource } : {}),
  };
  return info;
}

function resourceVerb(method: string, named: boolean, watch: boolean): string {
  switch (method) {
    case 'GET':
    case 'HEAD':
      return watch ? 'watch' : named ? 'get' : 'list';
    case 'POST':
      return 'create';
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return named ? 'delete' : 'deletecollection';
    default:
      return method.toLowerCase();
  }
}
