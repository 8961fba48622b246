import type { Rgb } from './console-screen.js';

/** RFB's PIXEL_FORMAT (RFC 6143 section 7.4): how one pixel is laid out on the wire. */
export interface PixelFormat {
  readonly bitsPerPixel: number;
  readonly depth: number;
  readonly bigEndian: boolean;
  readonly trueColour: boolean;
  readonly redMax: number;
  readonly greenMax: number;
  readonly blueMax: number;
  readonly redShift: number;
  readonly greenShift: number;
  readonly blueShift: number;
}

const PIXEL_FORMAT_LENGTH = 16;

/** 32-bit little-endian with red in bits 16-23: what QEMU announces on x86 hosts. */
export const SERVER_PIXEL_FORMAT: PixelFormat = {
  bitsPerPixel: 32,
  depth: 24,
  bigEndian: false,
  trueColour: true,
  redMax: 255,
  greenMax: 255,
  blueMax: 255,
  redShift: 16,
  greenShift: 8,
  blueShift: 0,
};

const SUPPORTED_BITS_PER_PIXEL = [8, 16, 32];

export function readPixelFormat(buffer: Buffer, offset: number): PixelFormat {
  return {
    bitsPerPixel: buffer.readUInt8(offset),
    depth: buffer.readUInt8(offset + 1),
    bigEndian: buffer.readUInt8(offset + 2) !== 0,
    trueColour: buffer.readUInt8(offset + 3) !== 0,
    redMax: buffer.readUInt16BE(offset + 4),
    greenMax: buffer.readUInt16BE(offset + 6),
    blueMax: buffer.readUInt16BE(offset + 8),
    redShift: buffer.readUInt8(offset + 10),
    greenShift: buffer.readUInt8(offset + 11),
    blueShift: buffer.readUInt8(offset + 12),
  };
}

/** The 16 bytes of a PIXEL_FORMAT, padding included. */
export function encodePixelFormat(format: PixelFormat): Buffer {
  const buffer = Buffer.alloc(PIXEL_FORMAT_LENGTH);
  buffer.writeUInt8(format.bitsPerPixel, 0);
  buffer.writeUInt8(format.depth, 1);
  buffer.writeUInt8(format.bigEndian ? 1 : 0, 2);
  buffer.writeUInt8(format.trueColour ? 1 : 0, 3);
  buffer.writeUInt16BE(format.redMax, 4);
  buffer.writeUInt16BE(format.greenMax, 6);
  buffer.writeUInt16BE(format.blueMax, 8);
  buffer.writeUInt8(format.redShift, 10);
  buffer.writeUInt8(format.greenShift, 11);
  buffer.writeUInt8(format.blueShift, 12);
  return buffer;
}

/** Why a true-colour format cannot be used as sent, or undefined when it can. */
export function pixelFormatProblem(format: PixelFormat): string | undefined {
  const bits = format.bitsPerPixel;
  if (!SUPPORTED_BITS_PER_PIXEL.includes(bits)) {
    return `bits-per-pixel must be 8, 16 or 32, not ${bits}`;
  }
  const channels = [
    ['red', format.redMax, format.redShift],
    ['green', format.greenMax, format.greenShift],
    ['blue', format.blueMax, format.blueShift],
  ] as const;
  for (const [name, max, shift] of channels) {
    if ((max & (max + 1)) !== 0) {
      return `${name}-max must be one less than a power of two, not ${max}`;
    }
    // Multiplying instead of shifting keeps 32-bit values out of JavaScript's signed shift range.
    if (max * 2 ** shift >= 2 ** bits) {
      return `${name} (max ${max}, shift ${shift}) does not fit in ${bits} bits`;
    }
  }
  return undefined;
}

export function bytesPerPixel(format: PixelFormat): number {
  return format.bitsPerPixel / 8;
}

/** One colour as the bytes of a pixel in a true-colour format. */
export function encodePixel(format: PixelFormat, colour: Rgb): Buffer {
  const value =
    scale(colour.r, format.redMax) * 2 ** format.redShift +
    scale(colour.g, format.greenMax) * 2 ** format.greenShift +
    scale(colour.b, format.blueMax) * 2 ** format.blueShift;
  const buffer = Buffer.alloc(bytesPerPixel(format));
  if (format.bigEndian) {
    buffer.writeUIntBE(value, 0, buffer.length);
  } else {
    buffer.writeUIntLE(value, 0, buffer.length);
  }
  return buffer;
}

/** The colour of the true-colour pixel at `offset`, each channel stretched back to 0-255. */
export function decodePixel(format: PixelFormat, buffer: Uint8Array, offset: number): Rgb {
  const size = bytesPerPixel(format);
  let value = 0;
  for (let index = 0; index < size; index++) {
    value = value * 256 + (buffer[offset + (format.bigEndian ? index : size - 1 - index)] ?? 0);
  }
  return {
    r: unscale(channel(value, format.redMax, format.redShift), format.redMax),
    g: unscale(channel(value, format.greenMax, format.greenShift), format.greenMax),
    b: unscale(channel(value, format.blueMax, format.blueShift), format.blueMax),
  };
}

function scale(component: number, max: number): number {
  return Math.round((component * max) / 255);
}

function unscale(component: number, max: number): number {
  return max === 0 ? 0 : Math.round((component * 255) / max);
}

function channel(value: number, max: number, shift: number): number {
  // An unsigned shift reads all 32 bits; the signed one would turn the top bit into a sign.
  return (value >>> shift) & max;
}
