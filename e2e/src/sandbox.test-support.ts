import { request } from 'node:https';
import { createServer, type AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { TLSSocket } from 'node:tls';

import { expect } from 'vitest';

import type { Sandbox } from './sandbox.js';

/** The sandbox as a newcomer meets it: over HTTP, with the printed credentials and nothing else. */
export async function api(
  sandbox: { readonly controlPlaneUrl: string },
  method: 'GET' | 'POST',
  path: string,
  options: { token?: string; body?: unknown } = {},
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${sandbox.controlPlaneUrl}${path}`, {
    method,
    headers: {
      ...(options.token !== undefined && { authorization: `Bearer ${options.token}` }),
      ...(options.body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
  });
  return { status: response.status, body: await response.json() };
}

export async function signIn(
  sandbox: { readonly controlPlaneUrl: string },
  account: { readonly email: string; readonly password: string },
): Promise<{ token: string; organizationId: string }> {
  const login = await api(sandbox, 'POST', '/v1/auth/login', {
    body: { email: account.email, password: account.password },
  });
  expect(login.status, `${account.email}: ${JSON.stringify(login.body)}`).toBe(200);
  return login.body as { token: string; organizationId: string };
}

export interface VmView {
  readonly id: string;
  readonly provisioningState: string;
  readonly statusMessage: string;
  readonly ipv4: string | null;
  readonly ipv6: string | null;
}

/** Polls the customer's view of a VM until it is in `state`; fails at once if it FAILED. */
export async function waitForVm(
  sandbox: { readonly controlPlaneUrl: string },
  token: string,
  id: string,
  state: string,
  timeoutMs: number,
): Promise<VmView> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await api(sandbox, 'GET', `/v1/virtual-machines/${id}`, { token });
    const vm = (answer.body as { virtualMachine: VmView }).virtualMachine;
    if (vm.provisioningState === state) return vm;
    if (vm.provisioningState === 'FAILED' || Date.now() > deadline)
      throw new Error(`VM ${id} is ${vm.provisioningState}, not ${state}: ${vm.statusMessage}`);
    await sleep(250);
  }
}

/** A port nothing listens on now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A GET on pve-sim with the printed token; the answer has the certificate fingerprint, to compare with the printed one. */
export function pveGet(
  s: Pick<Sandbox, 'pveUrl' | 'pveToken'>,
  path: string,
): Promise<{ status: number; fingerprint: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${s.pveUrl}/api2/json${path}`,
      {
        headers: { authorization: `PVEAPIToken=${s.pveToken.id}=${s.pveToken.secret}` },
        // The certificate is self-signed: the printed fingerprint is how a client pins it.
        rejectUnauthorized: false,
        agent: false,
      },
      (res) => {
        const fingerprint =
          res.socket instanceof TLSSocket ? res.socket.getPeerCertificate().fingerprint256 : '';
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, fingerprint, body });
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}
