import type { TLSSocket } from 'node:tls';

import { PveInvalidArgumentError } from './errors.js';

/** How the server's certificate is checked; resolved once from the client options. */
export type TlsVerification =
  | { kind: 'system' }
  | { kind: 'ca'; caPem: string }
  | { kind: 'pinned'; fingerprint: string }
  | { kind: 'insecure' };

/**
 * The canonical form of a SHA-256 certificate fingerprint, the one Proxmox shows (`AB:CD:…`, 32
 * colon-separated upper-case hex pairs). Lower case and missing colons are accepted.
 */
export function normalizeFingerprint(text: string): string {
  const hex = text.trim().replace(/:/g, '').toUpperCase();
  if (!/^[0-9A-F]{64}$/.test(hex)) {
    throw new PveInvalidArgumentError({
      pveMessage: `tls.fingerprint must be a SHA-256 fingerprint (64 hex digits, colons optional), got '${text}'`,
    });
  }
  return hex.replace(/(..)(?!$)/g, '$1:');
}

/** The SHA-256 fingerprint of the leaf certificate the peer presented, or '' when it presented none. */
export function peerFingerprint(socket: TLSSocket): string {
  const certificate = socket.getPeerCertificate() as Partial<ReturnType<TLSSocket['getPeerCertificate']>>;
  return certificate.fingerprint256 ?? '';
}
