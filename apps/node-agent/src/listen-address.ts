/** Where a server listens; `host` undefined means every interface. */
export interface ListenAddress {
  readonly host: string | undefined;
  readonly port: number;
}

const MAX_PORT = 65_535;

/** `HOST:PORT`, `[V6]:PORT`, or `:PORT` for every interface; port 0 picks a free one. Undefined if not. */
export function parseListenAddress(text: string): ListenAddress | undefined {
  const colon = text.lastIndexOf(':');
  const portText = text.slice(colon + 1);
  const host = text.slice(0, colon).replace(/^\[(.*)\]$/, '$1');
  const port = Number(portText);
  if (colon < 0 || !/^\d{1,5}$/.test(portText) || port > MAX_PORT || /[\s/]/.test(host)) return undefined;
  return { host: host === '' ? undefined : host, port };
}
