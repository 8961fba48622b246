/** Where a server listens; port 0 lets the system pick a free one. */
export interface ListenAddress {
  readonly host: string;
  readonly port: number;
}

const MAX_PORT = 65_535;

/** `HOST:PORT` or `[IPV6]:PORT`; undefined when the text is neither. */
export function parseListenAddress(text: string): ListenAddress | undefined {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(text);
  if (match === null) return undefined;
  const port = Number(match[3]);
  const host = match[1] ?? match[2];
  if (host === undefined || port > MAX_PORT) return undefined;
  return { host, port };
}

/** The `host:port` form the simulators' `listen` option takes (IPv6 hosts in brackets). */
export function formatListenAddress(address: ListenAddress): string {
  const host = address.host.includes(':') ? `[${address.host}]` : address.host;
  return `${host}:${String(address.port)}`;
}
