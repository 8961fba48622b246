import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const ALGORITHM = 'aes-256-gcm';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const FORMAT_VERSION = 'v1';

/**
 * Seals values at rest with AES-256-GCM. The associated data binds a ciphertext to the row it belongs to
 * (organisation and key), so a ciphertext copied onto another row does not open.
 */
export class SecretBox {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== KEY_BYTES) throw new Error(`the secret key must be ${String(KEY_BYTES)} bytes`);
    this.#key = Buffer.from(key);
  }

  seal(plaintext: string, associatedData: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.#key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(associatedData, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [FORMAT_VERSION, iv, cipher.getAuthTag(), body]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64')))
      .join('.');
  }

  open(sealed: string, associatedData: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== FORMAT_VERSION || iv === undefined || tag === undefined || body === undefined) {
      throw new Error('not a sealed value');
    }
    const decipher = createDecipheriv(ALGORITHM, this.#key, Buffer.from(iv, 'base64'), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAAD(Buffer.from(associatedData, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
  }
}

export const SECRET_KEY_BYTES = KEY_BYTES;
