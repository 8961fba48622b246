import { GLYPH_HEIGHT, GLYPH_WIDTH, fontCharacters, glyphRows } from './bitmap-font.js';
import { ConsoleGrid } from './console-grid.js';
import type { RasterImage } from './raster-image.js';
import type { Rect } from './rect.js';

/** Shown for a cell whose pixels are not exactly one of our glyphs. */
export const UNREADABLE = '\uFFFD';

/** Ink is anything brighter than mid-grey, so the reader does not depend on the exact palette. */
const INK_THRESHOLD = 3 * 0x55;

const charactersByGlyph = new Map(
  fontCharacters().map((character) => [glyphKey(glyphRows(character)), character]),
);

/**
 * Reads a framebuffer drawn by ConsoleScreen back into text by matching every character cell exactly
 * against the bitmap font: one line per row without trailing blanks, trailing empty rows dropped, the
 * same shape ConsoleScreen.text() returns. The cursor band is ignored; any other stray pixel makes the
 * cell UNREADABLE.
 */
export function readConsoleText(
  image: RasterImage,
  grid = new ConsoleGrid(image.width, image.height),
): string {
  const lines: string[] = [];
  for (let row = 0; row < grid.rows; row++) {
    let line = '';
    for (let column = 0; column < grid.columns; column++) {
      line += readCell(image, grid, column, row);
    }
    lines.push(line.trimEnd());
  }
  while (lines.length > 0 && lines.at(-1) === '') {
    lines.pop();
  }
  return lines.join('\n');
}

function readCell(image: RasterImage, grid: ConsoleGrid, column: number, row: number): string {
  const cell = grid.cell(column, row);
  const cursor = grid.cursor(column, row);
  const origin = grid.glyphOrigin(column, row);
  const masks = new Array<number>(GLYPH_HEIGHT).fill(0);
  for (let y = cell.y; y < cell.y + cell.height; y++) {
    for (let x = cell.x; x < cell.x + cell.width; x++) {
      if (inside(cursor, x, y)) {
        continue;
      }
      const glyphX = Math.floor((x - origin.x) / grid.scale);
      const glyphY = Math.floor((y - origin.y) / grid.scale);
      const inGlyph = glyphX >= 0 && glyphX < GLYPH_WIDTH && glyphY >= 0 && glyphY < GLYPH_HEIGHT;
      const ink = isInk(image, x, y);
      if (!inGlyph) {
        if (ink) {
          return UNREADABLE;
        }
        continue;
      }
      const bit = 1 << (GLYPH_WIDTH - 1 - glyphX);
      const isFirstPixelOfBlock = (x - origin.x) % grid.scale === 0 && (y - origin.y) % grid.scale === 0;
      if (isFirstPixelOfBlock) {
        masks[glyphY] = (masks[glyphY] ?? 0) | (ink ? bit : 0);
      } else if (ink !== (((masks[glyphY] ?? 0) & bit) !== 0)) {
        // Every pixel of a scaled font pixel must agree; a blend means this is not our glyph.
        return UNREADABLE;
      }
    }
  }
  return charactersByGlyph.get(glyphKey(masks)) ?? UNREADABLE;
}

function isInk(image: RasterImage, x: number, y: number): boolean {
  const offset = (y * image.width + x) * image.channels;
  const { data } = image;
  return (data[offset] ?? 0) + (data[offset + 1] ?? 0) + (data[offset + 2] ?? 0) > INK_THRESHOLD;
}

function inside(rect: Rect, x: number, y: number): boolean {
  return x >= rect.x && x < rect.x + rect.width && y >= rect.y && y < rect.y + rect.height;
}

function glyphKey(masks: readonly number[] | undefined): string {
  return (masks ?? []).join(',');
}
