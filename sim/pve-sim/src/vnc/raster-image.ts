/** Pixels as bytes, row by row: RGB (3 channels) from our RFB client, RGBA (4) from a browser canvas. */
export interface RasterImage {
  readonly width: number;
  readonly height: number;
  readonly channels: 3 | 4;
  readonly data: Uint8Array | Uint8ClampedArray;
}
