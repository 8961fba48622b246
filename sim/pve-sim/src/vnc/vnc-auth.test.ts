import { describe, expect, it } from 'vitest';

import { vncAuthResponse, verifyVncAuthResponse } from './vnc-auth.js';

const CHALLENGE = Buffer.from('00112233445566778899aabbccddeeff', 'hex');

describe('VNC authentication', () => {
  it('encrypts with each key byte bit-mirrored (checked against the FIPS 46 DES example)', () => {
    // The textbook DES example uses key 13 34 57 79 9B BC DF F1; these password bytes mirror to it.
    const password = Buffer.from([0xc8, 0x2c, 0xea, 0x9e, 0xd9, 0x3d, 0xfb, 0x8f]).toString('latin1');
    const block = Buffer.from('0123456789abcdef', 'hex');
    const response = vncAuthResponse(password, Buffer.concat([block, block]));
    expect(response.toString('hex')).toBe('85e813540f0ab405'.repeat(2));
  });

  it('uses only the first eight characters of the password, zero-padding shorter ones', () => {
    expect(vncAuthResponse('Xq7kP2mwEXTRA', CHALLENGE)).toEqual(vncAuthResponse('Xq7kP2mw', CHALLENGE));
    expect(vncAuthResponse('abc', CHALLENGE)).toEqual(vncAuthResponse('abc\0\0\0\0\0', CHALLENGE));
    expect(vncAuthResponse('abc', CHALLENGE)).not.toEqual(vncAuthResponse('abd', CHALLENGE));
  });

  it('verifies the right response and rejects wrong passwords and malformed responses', () => {
    const response = vncAuthResponse('Xq7kP2mw', CHALLENGE);
    expect(verifyVncAuthResponse('Xq7kP2mw', CHALLENGE, response)).toBe(true);
    expect(verifyVncAuthResponse('Xq7kP2mX', CHALLENGE, response)).toBe(false);
    expect(verifyVncAuthResponse('Xq7kP2mw', CHALLENGE, response.subarray(0, 15))).toBe(false);
    expect(() => vncAuthResponse('Xq7kP2mw', CHALLENGE.subarray(0, 8))).toThrow(RangeError);
  });
});
