import { timingSafeEqual } from 'node:crypto';
import { DES } from 'des.js';

/** VNC Authentication's challenge and response are both 16 bytes (RFC 6143 section 7.2.2). */
export const VNC_AUTH_CHALLENGE_LENGTH = 16;
const KEY_LENGTH = 8;

/**
 * The response a client sends to a VNC Authentication challenge: the challenge DES-encrypted (ECB, two
 * blocks) with a key made from the first eight bytes of the password, zero-padded, each byte's bits
 * mirrored. The mirroring is a historical quirk of the original VNC code that every implementation
 * copies; without it no real client interoperates. Passwords are taken byte per character (Latin-1),
 * as noVNC does.
 */
export function vncAuthResponse(password: string, challenge: Uint8Array): Buffer {
  if (challenge.length !== VNC_AUTH_CHALLENGE_LENGTH) {
    throw new RangeError(`a VNC challenge has ${VNC_AUTH_CHALLENGE_LENGTH} bytes, not ${challenge.length}`);
  }
  const cipher = DES.create({ type: 'encrypt', key: vncAuthKey(password), padding: false });
  return Buffer.from(cipher.update(challenge));
}

/** Whether `response` answers `challenge` for `password`, compared in constant time. */
export function verifyVncAuthResponse(
  password: string,
  challenge: Uint8Array,
  response: Uint8Array,
): boolean {
  return (
    response.length === VNC_AUTH_CHALLENGE_LENGTH &&
    timingSafeEqual(vncAuthResponse(password, challenge), response)
  );
}

function vncAuthKey(password: string): Uint8Array {
  const key = Buffer.alloc(KEY_LENGTH);
  Buffer.from(password, 'latin1').copy(key, 0, 0, KEY_LENGTH);
  return key.map(mirrorBits);
}

function mirrorBits(byte: number): number {
  let mirrored = 0;
  for (let bit = 0; bit < 8; bit++) {
    mirrored = (mirrored << 1) | ((byte >> bit) & 1);
  }
  return mirrored;
}
