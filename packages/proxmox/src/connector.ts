import type { Socket } from 'node:net';
import { TLSSocket } from 'node:tls';

import { buildConnector } from 'undici';

import { TlsFingerprintMismatchError } from './errors.js';
import { markFailedBeforeSend } from './network-failure.js';
import { peerFingerprint } from './tls-pinning.js';
import type { TlsVerification } from './tls-pinning.js';

export type Connector = buildConnector.connector;

/**
 * Opens the sockets for both the HTTP agent and the console WebSocket, so that both verify the server
 * the same way. A pinned certificate is checked after the handshake and before the socket is handed
 * back, so not one byte of a request (or its token) goes to a server with another certificate.
 */
export function createConnector(tls: TlsVerification, connectTimeoutMs: number): Connector {
  const base = buildConnector({
    timeout: connectTimeoutMs,
    rejectUnauthorized: tls.kind === 'system' || tls.kind === 'ca',
    ...(tls.kind === 'ca' ? { ca: tls.caPem } : {}),
    // A resumed session may not present the certificate again, and the pin must see it every time.
    ...(tls.kind === 'pinned' ? { maxCachedSessions: 0 } : {}),
  });
  return (options, callback) => {
    base(options, (...result: Parameters<buildConnector.Callback>) => {
      const [error, socket] = result;
      if (error !== null) {
        markFailedBeforeSend(error);
        callback(error, null);
        return;
      }
      if (tls.kind === 'pinned' && socket instanceof TLSSocket) {
        const actual = peerFingerprint(socket);
        if (actual !== tls.fingerprint) {
          socket.destroy();
          const mismatch = new TlsFingerprintMismatchError({ expected: tls.fingerprint, actual });
          markFailedBeforeSend(mismatch);
          callback(mismatch, null);
          return;
        }
      }
      callback(null, socket);
    });
  };
}

/** Connects like the HTTP agent does, for callers that need the raw socket (the WebSocket upgrade). */
export function connectSocket(connector: Connector, url: URL): Promise<Socket> {
  // URL keeps IPv6 literals in brackets; the connector wants the bare address, as undici passes it.
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return new Promise((resolve, reject) => {
    connector(
      { hostname, host: url.host, protocol: url.protocol, port: url.port },
      (...result: Parameters<buildConnector.Callback>) => {
        const [error, socket] = result;
        if (error === null) resolve(socket);
        else reject(error);
      },
    );
  });
}
