import type { IncomingMessage } from 'node:http';

export class BodyTooLargeError extends Error {}

/** Reads a request body as UTF-8, refusing (and stopping at) more than `limit` bytes. */
export async function readBodyText(req: IncomingMessage, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new BodyTooLargeError(`request body larger than ${limit} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
