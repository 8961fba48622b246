/** The `nodes/<subresource>` permissions a kubelet client can hold. */
export type KubeletSubresource = 'stats' | 'metrics' | 'pods' | 'proxy';

export interface KubeletSimToken {
  token: string;
  /** Default `system:serviceaccount:default:default`. */
  user?: string;
  /** Default `stats`, `metrics` and `pods`. */
  subresources?: readonly KubeletSubresource[];
}

interface Identity {
  user: string;
  subresources: ReadonlySet<KubeletSubresource>;
}

const SUBRESOURCES: readonly KubeletSubresource[] = ['stats', 'metrics', 'pods', 'proxy'];
const DEFAULT_SUBRESOURCES: readonly KubeletSubresource[] = ['stats', 'metrics', 'pods'];
export const DEFAULT_USER = 'system:serviceaccount:default:default';

/**
 * Bearer tokens and what each may read, as the kubelet learns them from TokenReview and
 * SubjectAccessReview. Replaced wholesale when tokens rotate.
 */
export class KubeletAuth {
  private identities = new Map<string, Identity>();

  constructor(tokens: readonly KubeletSimToken[]) {
    this.replace(tokens);
  }

  replace(tokens: readonly KubeletSimToken[]): void {
    const next = new Map<string, Identity>();
    for (const t of tokens) {
      if (t.token.trim() === '' || /\s/.test(t.token))
        throw new Error('a token must be non-empty, without spaces');
      const subresources = t.subresources ?? DEFAULT_SUBRESOURCES;
      const unknown = subresources.filter((s) => !SUBRESOURCES.includes(s));
      if (unknown.length)
        throw new Error(`unknown subresource ${unknown.join(', ')}; known: ${SUBRESOURCES.join(', ')}`);
      next.set(t.token, { user: t.user ?? DEFAULT_USER, subresources: new Set(subresources) });
    }
    this.identities = next;
  }

  /** The identity behind an `Authorization: Bearer …` header, if it names a known token. */
  authenticate(authorization: string | undefined): Identity | undefined {
    const m = /^bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    return m?.[1] === undefined ? undefined : this.identities.get(m[1]);
  }
}

/**
 * What the kubelet asks a SubjectAccessReview for (KEP-2862, on by default since 1.33): the
 * fine-grained subresource first and, for /pods and /healthz, `proxy` after it.
 */
export function subresourcesFor(path: string): readonly string[] {
  if (path.startsWith('/stats/') || path === '/stats') return ['stats'];
  if (path.startsWith('/metrics/') || path === '/metrics') return ['metrics'];
  if (path === '/pods' || path.startsWith('/runningpods')) return ['pods', 'proxy'];
  if (path === '/healthz' || path.startsWith('/healthz/')) return ['healthz', 'proxy'];
  return ['proxy'];
}

export function isAllowed(identity: Identity, subresources: readonly string[]): boolean {
  return subresources.some((s) => identity.subresources.has(s as KubeletSubresource));
}

/** The kubelet's 403 text; with fine-grained authorization it lists every subresource it tried. */
export function forbiddenMessage(identity: Identity, verb: string, subresources: readonly string[]): string {
  return `Forbidden (user=${identity.user}, verb=${verb}, resource=nodes, subresource=[${subresources.join(' ')}])`;
}

export function verbOf(method: string | undefined): string {
  switch (method) {
    case 'POST':
      return 'create';
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return 'delete';
    default:
      return 'get';
  }
}
