import type { PixelFormat } from './pixel-format.js';

/** 16-bit big-endian true colour: a format a client may ask for instead of the server's 32-bit one. */
export const RGB565_BIG_ENDIAN: PixelFormat = {
  bitsPerPixel: 16,
  depth: 16,
  bigEndian: true,
  trueColour: true,
  redMax: 31,
  greenMax: 63,
  blueMax: 31,
  redShift: 11,
  greenShift: 5,
  blueShift: 0,
};

/** What noVNC asks for in its low-colour mode. */
export const RGB222: PixelFormat = {
  ...RGB565_BIG_ENDIAN,
  bitsPerPixel: 8,
  depth: 6,
  bigEndian: false,
  redMax: 3,
  greenMax: 3,
  blueMax: 3,
  redShift: 0,
  greenShift: 2,
  blueShift: 4,
};
