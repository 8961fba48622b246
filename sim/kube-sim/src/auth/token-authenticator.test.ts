import { describe, expect, it } from 'vitest';
import { TokenAuthenticator } from './token-authenticator.js';
import { validateTokenRequest } from './token-request.js';

const NOW = new Date('2025-06-01T12:00:00Z');
const KEY = new Uint8Array(32).fill(7);
const SA = { namespace: 'a-operator', name: 'cp', uid: '6f1c1a52-0000-4000-8000-000000000001' };

function authenticator(): TokenAuthenticator {
  return new TokenAuthenticator({
    staticTokens: [
      { token: 'admin-token', username: 'admin', uid: '1', groups: ['system:masters'] },
      { token: 'bob-token', username: 'bob' },
    ],
    signingKey: KEY,
  });
}

function decodePart(token: string, index: number): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[index] ?? '', 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
}

describe('TokenAuthenticator.parseTokenFile', () => {
  it('reads token,user,uid,"groups" lines like kube-apiserver', () => {
    const text =
      'admin-token,admin,1,"system:masters,ops"\n\n bob-token, bob, 2\n,skipped,3\nbob-token,bob2,4\n';
    expect(TokenAuthenticator.parseTokenFile(text)).toEqual([
      { token: 'admin-token', username: 'admin', uid: '1', groups: ['system:masters', 'ops'] },
      { token: 'bob-token', username: 'bob2', uid: '4' },
    ]);
  });

  it('throws a clear error on bad lines', () => {
    expect(() => TokenAuthenticator.parseTokenFile('tok,user\n')).toThrow(
      'token file line 1 must have at least 3 columns (token, user name, user uid), found 2',
    );
    expect(() => TokenAuthenticator.parseTokenFile('a,b,c\ntok,user,1,"unterminated\n')).toThrow(
      'token file line 2: unterminated quoted field',
    );
  });
});

describe('TokenAuthenticator.authenticate', () => {
  it('authenticates static tokens and adds system:authenticated', () => {
    const auth = authenticator();
    expect(auth.authenticate('Bearer admin-token', NOW)).toEqual({
      username: 'admin',
      uid: '1',
      groups: ['system:masters', 'system:authenticated'],
    });
    expect(auth.authenticate('bearer bob-token', NOW)).toEqual({
      username: 'bob',
      groups: ['system:authenticated'],
    });
  });

  it('rejects absent, non-bearer and unknown credentials', () => {
    const auth = authenticator();
    for (const header of [
      undefined,
      '',
      'Bearer',
      'Bearer ',
      'Basic YWRtaW46eA==',
      'Bearer nope',
      'admin-token',
    ]) {
      expect(auth.authenticate(header, NOW)).toBeUndefined();
    }
  });

  it('authenticates an issued service-account token as the service account', () => {
    const auth = authenticator();
    const { token } = auth.issueServiceAccountToken(SA, NOW);
    expect(auth.authenticate(`Bearer ${token}`, NOW)).toEqual({
      username: 'system:serviceaccount:a-operator:cp',
      uid: SA.uid,
      groups: ['system:serviceaccounts', 'system:serviceaccounts:a-operator', 'system:authenticated'],
    });
  });

  it('rejects tokens after expiry (allowing kube’s one-minute leeway), before nbf and when tampered', () => {
    const auth = authenticator();
    const { token } = auth.issueServiceAccountToken({ ...SA, expirationSeconds: 600 }, NOW);
    const at = (seconds: number): Date => new Date(NOW.getTime() + seconds * 1000);
    expect(auth.authenticate(`Bearer ${token}`, at(600 + 59))).toBeDefined();
    expect(auth.authenticate(`Bearer ${token}`, at(600 + 61))).toBeUndefined();
    expect(auth.authenticate(`Bearer ${token}`, at(-120))).toBeUndefined();
    const [header, , signature] = token.split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...decodePart(token, 1), sub: 'system:serviceaccount:kube-system:admin' }),
    ).toString('base64url');
    expect(auth.authenticate(`Bearer ${header ?? ''}.${forged}.${signature ?? ''}`, NOW)).toBeUndefined();
  });

  it('rejects tokens of another signer, issuer or audience', () => {
    const { token } = authenticator().issueServiceAccountToken(SA, NOW);
    const otherKey = new TokenAuthenticator({ staticTokens: [], signingKey: new Uint8Array(32).fill(8) });
    const otherIssuer = new TokenAuthenticator({
      staticTokens: [],
      signingKey: KEY,
      issuer: 'https://elsewhere',
    });
    expect(otherKey.authenticate(`Bearer ${token}`, NOW)).toBeUndefined();
    expect(otherIssuer.authenticate(`Bearer ${token}`, NOW)).toBeUndefined();
    const vaultToken = authenticator().issueServiceAccountToken({ ...SA, audiences: ['vault'] }, NOW).token;
    expect(authenticator().authenticate(`Bearer ${vaultToken}`, NOW)).toBeUndefined();
  });

  it('rejects tokens of deleted or recreated service accounts', () => {
    const auth = authenticator();
    const { token } = auth.issueServiceAccountToken(SA, NOW);
    const exists = (uid: string) => (ns: string, name: string, tokenUid: string) =>
      ns === SA.namespace && name === SA.name && tokenUid === uid;
    expect(auth.authenticate(`Bearer ${token}`, NOW, exists(SA.uid))).toBeDefined();
    expect(auth.authenticate(`Bearer ${token}`, NOW, exists('recreated-uid'))).toBeUndefined();
    expect(auth.authenticate(`Bearer ${token}`, NOW, () => false)).toBeUndefined();
  });
});

describe('TokenAuthenticator.issueServiceAccountToken', () => {
  it('issues a JWT with kube’s claims and an RFC 3339 expiration', () => {
    const { token, expirationTimestamp } = authenticator().issueServiceAccountToken(SA, NOW);
    expect(expirationTimestamp).toBe('2025-06-01T13:00:00Z');
    expect(decodePart(token, 0)).toMatchObject({ alg: 'HS256', typ: 'JWT' });
    const iat = NOW.getTime() / 1000;
    expect(decodePart(token, 1)).toEqual({
      aud: ['https://kubernetes.default.svc'],
      exp: iat + 3600,
      iat,
      nbf: iat,
      iss: 'https://kubernetes.default.svc',
      jti: expect.any(String) as unknown,
      sub: 'system:serviceaccount:a-operator:cp',
      'kubernetes.io': { namespace: 'a-operator', serviceaccount: { name: 'cp', uid: SA.uid } },
    });
  });

  it('refuses expirations shorter than ten minutes, as TokenRequest validation does', () => {
    expect(validateTokenRequest({ expirationSeconds: 599 })).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: 'spec.expirationSeconds',
        message: 'Invalid value: 599: may not specify a duration less than 10 minutes',
      },
    ]);
    expect(validateTokenRequest({ expirationSeconds: 600 })).toEqual([]);
    expect(() => authenticator().issueServiceAccountToken({ ...SA, expirationSeconds: 60 }, NOW)).toThrow(
      RangeError,
    );
  });
});
