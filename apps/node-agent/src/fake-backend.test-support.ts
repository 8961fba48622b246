import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

import {
  ENROLL_PATH,
  type EnrollRequest,
  type EnrollResponse,
  type NatsCredentials,
  agentInboxPrefix,
  credentialsPath,
  verifyCredentialsRequest,
} from '@noderings/fleet';
import { issueAgentJwt } from '@noderings/fleet/nats-authority';

/** An answer the test scripts: a status and a JSON body. */
interface ScriptedAnswer {
  readonly status: number;
  readonly body: unknown;
}

export interface FakeBackendOptions {
  /** Issues real JWTs for this account (from a `startNatsServer()` authority); dummy ones without. */
  readonly accountSeed?: string;
  readonly natsUrl?: string;
  readonly jwtLifetimeMs?: number;
  readonly installToken?: string;
  readonly heartbeatIntervalSeconds?: number;
}

export interface FakeBackend {
  readonly url: string;
  /** Every enrollment request body, in order. */
  readonly enrollments: EnrollRequest[];
  /** The agent ids credentials were asked for, in order. */
  readonly credentialRequests: string[];
  /** Answers the next enrollments from this list first (then enrolls as usual). */
  scriptEnrollments(answers: readonly ScriptedAnswer[]): void;
  /** Answers every credentials request with this instead (undefined: issue credentials). */
  scriptCredentials(answer: ScriptedAnswer | undefined): void;
  close(): Promise<void>;
}

/**
 * The control plane's fleet endpoints as the agent sees them: enrollment idempotent by public key (the
 * same key gets the same agent id), credentials checked against the key's signature.
 */
export async function startFakeBackend(options: FakeBackendOptions = {}): Promise<FakeBackend> {
  const installToken = options.installToken ?? 'install-token-0123456789';
  const enrollments: EnrollRequest[] = [];
  const credentialRequests: string[] = [];
  const agents = new Map<string, { agentId: string; publicKey: string; name: string }>();
  let scripted: ScriptedAnswer[] = [];
  let credentialsAnswer: ScriptedAnswer | undefined;

  const credentials = async (publicKey: string, name: string): Promise<NatsCredentials> => {
    const expiresAt = new Date(Date.now() + (options.jwtLifetimeMs ?? 3_600_000));
    const jwt =
      options.accountSeed === undefined
        ? `dummy-jwt-${publicKey}`
        : (await issueAgentJwt(options.accountSeed, publicKey, name, expiresAt)).jwt;
    return {
      servers: [options.natsUrl ?? 'nats://127.0.0.1:1'],
      jwt,
      inboxPrefix: agentInboxPrefix(publicKey),
      expiresAt: expiresAt.toISOString(),
    };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const answer = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    if (req.method === 'POST' && req.url === ENROLL_PATH) {
      const request = JSON.parse(text) as EnrollRequest;
      enrollments.push(request);
      if (req.headers.authorization !== `Bearer ${installToken}`) {
        answer(401, { code: 'UNAUTHENTICATED', message: 'install token invalid or expired' });
        return;
      }
      const next = scripted.shift();
      if (next !== undefined) {
        answer(next.status, next.body);
        return;
      }
      const known = agents.get(request.publicKey);
      const agent = known ?? {
        agentId: `agent-${agents.size + 1}`,
        publicKey: request.publicKey,
        name: request.name,
      };
      agents.set(request.publicKey, agent);
      const response: EnrollResponse = {
        agentId: agent.agentId,
        environmentId: 'env-1',
        agentType: request.agentType,
        name: request.name,
        rebound: false,
        heartbeatIntervalSeconds: options.heartbeatIntervalSeconds ?? 30,
        nats: await credentials(request.publicKey, request.name),
      };
      answer(known === undefined ? 201 : 200, response);
      return;
    }
    const agent = [...agents.values()].find((a) => req.url === credentialsPath(a.agentId));
    if (req.method === 'POST' && agent !== undefined) {
      credentialRequests.push(agent.agentId);
      if (credentialsAnswer !== undefined) {
        answer(credentialsAnswer.status, credentialsAnswer.body);
        return;
      }
      const check = verifyCredentialsRequest(
        req.headers.authorization,
        agent.publicKey,
        agent.agentId,
        Math.floor(Date.now() / 1000),
      );
      if (check !== 'valid') {
        answer(401, { code: 'UNAUTHENTICATED', message: `signature ${check}` });
        return;
      }
      answer(200, { nats: await credentials(agent.publicKey, agent.name) });
      return;
    }
    answer(404, { code: 'NOT_FOUND', message: `no route ${req.method ?? ''} ${req.url ?? ''}` });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      res.writeHead(500).end(String(e));
    });
  });
  await new Promise<void>((resolve) => {
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    enrollments,
    credentialRequests,
    scriptEnrollments: (answers) => {
      scripted = [...answers];
    },
    scriptCredentials: (answer) => {
      credentialsAnswer = answer;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
        server.closeAllConnections();
      }),
  };
}
