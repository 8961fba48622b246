import { type Server, type Socket, createConnection, createServer } from 'node:net';

/** What the proxy does with traffic: pass it, cut every connection (refusing new ones), or delay answers. */
type ProxyMode = 'pass' | 'down' | { readonly delayAnswersMs: number };

export interface TcpProxy {
  /** `nats://127.0.0.1:<port>` */
  readonly url: string;
  setMode(mode: ProxyMode): void;
  close(): Promise<void>;
}

/** A loopback TCP proxy in front of a server, to take the network away from a client and give it back. */
export async function startTcpProxy(upstreamUrl: string): Promise<TcpProxy> {
  const upstream = new URL(upstreamUrl);
  let mode: ProxyMode = 'pass';
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    if (mode === 'down') {
      client.destroy();
      return;
    }
    const target = createConnection({ host: upstream.hostname, port: Number(upstream.port) });
    sockets.add(client).add(target);
    const forget = (): void => {
      client.destroy();
      target.destroy();
      sockets.delete(client);
      sockets.delete(target);
    };
    client.on('error', forget).on('close', forget);
    target.on('error', forget).on('close', forget);
    client.on('data', (chunk) => target.write(chunk));
    target.on('data', (chunk) => {
      const current = mode;
      if (typeof current === 'object') {
        setTimeout(() => {
          if (!client.destroyed) client.write(chunk);
        }, current.delayAnswersMs);
      } else {
        client.write(chunk);
      }
    });
  });
  await new Promise<void>((resolve) => {
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    url: `nats://127.0.0.1:${address.port}`,
    setMode: (next) => {
      mode = next;
      if (next === 'down') for (const socket of sockets) socket.destroy();
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      });
    },
  };
}
