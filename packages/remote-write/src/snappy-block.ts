import { uncompressSync } from 'snappy';
import { RemoteWriteError } from './remote-write-error.js';

/** A snappy block's preamble: the uncompressed length as a base-128 varint of at most 32 bits. */
const MAX_PREAMBLE_BYTES = 5;

/** The uncompressed length a snappy block declares, or undefined when its preamble is malformed. */
function declaredLength(block: Uint8Array): number | undefined {
  let length = 0;
  for (let i = 0; i < MAX_PREAMBLE_BYTES; i++) {
    const byte = block[i];
    if (byte === undefined) return undefined;
    length += (byte & 0x7f) * 2 ** (7 * i);
    if (byte < 0x80) return length <= 0xffffffff ? length : undefined;
  }
  return undefined;
}

/**
 * Decompresses a snappy block (not the framed format), refusing it before any allocation when the body
 * or the length it declares is over a limit.
 */
export function uncompressBlock(
  block: Uint8Array,
  maxCompressedBytes: number,
  maxDecompressedBytes: number,
): Uint8Array {
  if (block.length > maxCompressedBytes)
    throw new RemoteWriteError(
      'REMOTE_WRITE_TOO_LARGE',
      'body',
      `${block.length} bytes compressed, over the limit of ${maxCompressedBytes}`,
    );
  const length = declaredLength(block);
  if (length === undefined)
    throw new RemoteWriteError(
      'REMOTE_WRITE_MALFORMED',
      'body',
      block.length === 0 ? 'empty' : 'not snappy-compressed: bad length preamble',
    );
  if (length > maxDecompressedBytes)
    throw new RemoteWriteError(
      'REMOTE_WRITE_TOO_LARGE',
      'body',
      `declares ${length} bytes decompressed, over the limit of ${maxDecompressedBytes}`,
    );
  let data: string | Buffer;
  try {
    data = uncompressSync(block, { asBuffer: true });
  } catch (e: unknown) {
    throw new RemoteWriteError('REMOTE_WRITE_MALFORMED', 'body', 'not valid snappy-compressed data', {
      cause: e,
    });
  }
  if (typeof data === 'string' || data.length !== length)
    throw new RemoteWriteError('REMOTE_WRITE_MALFORMED', 'body', 'not valid snappy-compressed data');
  return data;
}
