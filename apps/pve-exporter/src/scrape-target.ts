import { isIP } from 'node:net';

import { ExporterError } from './exporter-error.js';

/** proxmoxer's port for a target given without one. */
const PVE_API_PORT = 8006;
const MAX_PORT = 65_535;
const HOSTNAME = /^(?=.{1,253}$)[A-Za-z0-9_]([A-Za-z0-9_-]{0,62})(\.[A-Za-z0-9_]([A-Za-z0-9_-]{0,62}))*\.?$/;

/**
 * The API's base URL for a scrape's `target`: `host`, `host:port`, an IPv4 or IPv6 address, or
 * `[v6]:port`. Proxmox is always spoken to over HTTPS, on 8006 unless the target names a port.
 */
export function targetBaseUrl(target: string): string {
  const { host, port } = splitTarget(target);
  const v6 = isIP(host) === 6;
  if (!v6 && isIP(host) !== 4 && !HOSTNAME.test(host)) throw badTarget(target);
  return `https://${v6 ? `[${host}]` : host}:${port}`;
}

function splitTarget(target: string): { host: string; port: number } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(target);
  if (bracketed !== null) return { host: bracketed[1] ?? '', port: portOf(target, bracketed[2]) };
  // A bare IPv6 address has several colons and no port.
  if (isIP(target) === 6) return { host: target, port: PVE_API_PORT };
  const [host = '', port, ...rest] = target.split(':');
  if (rest.length > 0) throw badTarget(target);
  return { host, port: portOf(target, port) };
}

function portOf(target: string, text: string | undefined): number {
  if (text === undefined) return PVE_API_PORT;
  const port = Number(text);
  if (!/^\d{1,5}$/.test(text) || port < 1 || port > MAX_PORT) throw badTarget(target);
  return port;
}

function badTarget(target: string): ExporterError {
  return new ExporterError(
    'BAD_TARGET',
    `target '${target}' is not a host name or IP address with an optional :port`,
  );
}
