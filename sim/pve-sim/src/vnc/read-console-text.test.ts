import { describe, expect, it } from 'vitest';

import { ConsoleScreen } from './console-screen.js';
import type { RasterImage } from './raster-image.js';
import { UNREADABLE, readConsoleText } from './read-console-text.js';

function rgba(screen: ConsoleScreen): RasterImage & { data: Uint8Array } {
  const data = new Uint8Array(screen.width * screen.height * 4);
  for (let y = 0; y < screen.height; y++) {
    for (let x = 0; x < screen.width; x++) {
      const { r, g, b } = screen.colourAt(x, y);
      data.set([r, g, b, 255], (y * screen.width + x) * 4);
    }
  }
  return { width: screen.width, height: screen.height, channels: 4, data };
}

describe('readConsoleText', () => {
  it('reads RGBA canvases and ignores the cursor', () => {
    const screen = new ConsoleScreen({ lines: ['NR-1 login: '] });
    expect(readConsoleText(rgba(screen))).toBe('NR-1 login:');
  });

  it('refuses to guess when a cell is not exactly one of the glyphs', () => {
    const screen = new ConsoleScreen({ lines: ['AB'] });
    const image = rgba(screen);
    const cell = screen.grid.cell(1, 0);
    // One bright pixel in the paper between rows of B's glyph.
    image.data.set([255, 255, 255], (cell.y * screen.width + cell.x + 2) * 4);
    expect(readConsoleText(image)).toBe(`A${UNREADABLE}`);
  });
});
