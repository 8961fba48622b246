import { Algorithms, encodeAccount, encodeOperator, encodeUser } from '@nats-io/jwt';
import { createAccount, createOperator, createUser, fromSeed } from '@nats-io/nkeys';

import { agentInboxPrefix, agentPublishPermission } from './subjects.js';

/**
 * NATS decentralised authentication (operator mode) for the fleet: an operator, a system account and
 * one `fleet` account whose signing key the control plane holds. The server only trusts the operator and
 * the two account JWTs; every user (each agent, each control-plane replica) carries a user JWT signed by
 * the account, so authorising a new agent needs no change on the server, and a JWT alone is useless
 * without the private nkey whose public key it names (the server has the client sign a nonce).
 */

export interface NatsAuthority {
  readonly operatorJwt: string;
  readonly systemAccountPublicKey: string;
  readonly systemAccountJwt: string;
  readonly accountPublicKey: string;
  readonly accountJwt: string;
  /** The fleet account's private seed (`SA…`): the control plane's secret, never sent anywhere. */
  readonly accountSeed: string;
}

const UNLIMITED = -1;
const decoder = new TextDecoder();

/** A new operator, system account and fleet account with JetStream enabled. */
export async function createNatsAuthority(): Promise<NatsAuthority> {
  const operator = createOperator();
  const system = createAccount();
  const account = createAccount();
  const operatorJwt = await encodeOperator('noderings', operator, {
    system_account: system.getPublicKey(),
  });
  const systemAccountJwt = await encodeAccount('SYS', system, {}, { signer: operator });
  const accountJwt = await encodeAccount(
    'fleet',
    account,
    {
      limits: {
        subs: UNLIMITED,
        data: UNLIMITED,
        payload: UNLIMITED,
        conn: UNLIMITED,
        leaf: UNLIMITED,
        imports: UNLIMITED,
        exports: UNLIMITED,
        wildcards: true,
        mem_storage: UNLIMITED,
        disk_storage: UNLIMITED,
        streams: UNLIMITED,
        consumer: UNLIMITED,
      },
    },
    { signer: operator },
  );
  return {
    operatorJwt,
    systemAccountPublicKey: system.getPublicKey(),
    systemAccountJwt,
    accountPublicKey: account.getPublicKey(),
    accountJwt,
    accountSeed: decoder.decode(account.getSeed()),
  };
}

export interface NatsServerListen {
  readonly host: string;
  /** -1 lets the server pick a free port (it logs which). */
  readonly port: number;
  /** JetStream's file store. */
  readonly storeDir: string;
}

/** A nats-server configuration (2.9 or later) trusting the authority, with JetStream for the fleet. */
export function renderNatsServerConfig(authority: NatsAuthority, listen: NatsServerListen): string {
  return [
    `host: ${JSON.stringify(listen.host)}`,
    `port: ${listen.port}`,
    `jetstream { store_dir: ${JSON.stringify(listen.storeDir)} }`,
    `operator: ${authority.operatorJwt}`,
    `system_account: ${authority.systemAccountPublicKey}`,
    'resolver: MEMORY',
    'resolver_preload: {',
    `  ${authority.systemAccountPublicKey}: ${authority.systemAccountJwt}`,
    `  ${authority.accountPublicKey}: ${authority.accountJwt}`,
    '}',
    '',
  ].join('\n');
}

export interface IssuedJwt {
  readonly jwt: string;
  readonly expiresAt: Date;
}

/**
 * A user JWT for an agent's public key: it may publish under `fleet.<key>.>` and read its own reply inbox,
 * nothing else, until it expires (the agent asks for a new one, signed with its key, before then).
 */
export async function issueAgentJwt(
  accountSeed: string,
  publicKey: string,
  name: string,
  expiresAt: Date,
): Promise<IssuedJwt> {
  const account = fromSeed(new TextEncoder().encode(accountSeed));
  const jwt = await encodeUser(
    name,
    publicKey,
    account,
    {
      pub: { allow: [agentPublishPermission(publicKey)] },
      sub: { allow: [`${agentInboxPrefix(publicKey)}.>`] },
    },
    { algorithm: Algorithms.v2, exp: Math.floor(expiresAt.getTime() / 1000) },
  );
  return { jwt, expiresAt };
}

export interface ServiceCredentials {
  readonly jwt: string;
  /** The user seed to sign the server's nonce with. */
  readonly seed: Uint8Array;
}

/** Credentials for a control-plane replica: the JetStream API, acknowledgements and its own inbox. */
export async function issueServiceCredentials(
  accountSeed: string,
  name: string,
): Promise<ServiceCredentials> {
  const account = fromSeed(new TextEncoder().encode(accountSeed));
  const user = createUser();
  const jwt = await encodeUser(
    name,
    user,
    account,
    { pub: { allow: ['$JS.API.>', '$JS.ACK.>'] }, sub: { allow: ['_INBOX.>'] } },
    { algorithm: Algorithms.v2 },
  );
  return { jwt, seed: user.getSeed() };
}
