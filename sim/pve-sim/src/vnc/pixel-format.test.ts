import { describe, expect, it } from 'vitest';

import {
  SERVER_PIXEL_FORMAT,
  decodePixel,
  encodePixel,
  encodePixelFormat,
  pixelFormatProblem,
  readPixelFormat,
} from './pixel-format.js';
import { RGB222, RGB565_BIG_ENDIAN } from './pixel-formats.test-support.js';

const GREY = { r: 0xaa, g: 0xaa, b: 0xaa };
const ORANGE = { r: 0xff, g: 0x80, b: 0x00 };

describe('pixel formats', () => {
  it('lays pixels out with the format’s shifts, maxes and byte order', () => {
    expect([...encodePixel(SERVER_PIXEL_FORMAT, ORANGE)]).toEqual([0x00, 0x80, 0xff, 0x00]);
    // 0xaa scales to 21 of 31 and 42 of 63: 21 << 11 | 42 << 5 | 21 = 0xad55.
    expect([...encodePixel(RGB565_BIG_ENDIAN, GREY)]).toEqual([0xad, 0x55]);
    expect([...encodePixel({ ...RGB565_BIG_ENDIAN, bigEndian: false }, GREY)]).toEqual([0x55, 0xad]);
    expect([...encodePixel(RGB222, GREY)]).toEqual([0b101010]);
  });

  it('decodes what it encodes, to within the precision of the format', () => {
    expect(decodePixel(SERVER_PIXEL_FORMAT, encodePixel(SERVER_PIXEL_FORMAT, GREY), 0)).toEqual(GREY);
    expect(decodePixel(RGB222, encodePixel(RGB222, GREY), 0)).toEqual(GREY);
    // Five bits cannot hold 0xaa: 21 of 31 stretches back to 173.
    expect(decodePixel(RGB565_BIG_ENDIAN, encodePixel(RGB565_BIG_ENDIAN, GREY), 0)).toEqual({
      r: 173,
      g: 170,
      b: 173,
    });
    expect(decodePixel(RGB565_BIG_ENDIAN, encodePixel(RGB565_BIG_ENDIAN, ORANGE), 0)).toEqual({
      r: 255,
      g: 130,
      b: 0,
    });
  });

  it('round-trips the 16-byte PIXEL_FORMAT structure', () => {
    expect(readPixelFormat(encodePixelFormat(RGB565_BIG_ENDIAN), 0)).toEqual(RGB565_BIG_ENDIAN);
  });

  it('names what makes a format unusable', () => {
    expect(pixelFormatProblem(SERVER_PIXEL_FORMAT)).toBeUndefined();
    expect(pixelFormatProblem(RGB222)).toBeUndefined();
    expect(pixelFormatProblem({ ...SERVER_PIXEL_FORMAT, bitsPerPixel: 24 })).toMatch(/8, 16 or 32/);
    expect(pixelFormatProblem({ ...SERVER_PIXEL_FORMAT, redShift: 30 })).toMatch(/red .* does not fit/);
    expect(pixelFormatProblem({ ...SERVER_PIXEL_FORMAT, blueMax: 200 })).toMatch(/power of two/);
  });
});
