import { GLYPH_HEIGHT, GLYPH_WIDTH } from './bitmap-font.js';
import type { Rect } from './rect.js';

/** Each font pixel becomes a SCALE x SCALE block, so the small glyphs read comfortably at VGA sizes. */
const SCALE = 2;
/** Font pixels of blank paper right of each glyph, so neighbouring characters do not touch. */
const LETTER_SPACING = 1;
/** Font pixels of blank paper above each glyph, so lines do not touch. */
const LEADING = 1;
/** Font pixels below the descenders where the underline cursor lives, out of every glyph's way. */
const CURSOR_BAND = 1;

/**
 * Where the console's character cells sit in a framebuffer of a given size. The screen draws with it and
 * readConsoleText reads with it, so the two always agree on the layout.
 */
export class ConsoleGrid {
  readonly scale = SCALE;
  readonly cellWidth = (GLYPH_WIDTH + LETTER_SPACING) * SCALE;
  readonly cellHeight = (LEADING + GLYPH_HEIGHT + CURSOR_BAND) * SCALE;
  readonly columns: number;
  readonly rows: number;
  private readonly originX: number;
  private readonly originY: number;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.columns = Math.floor(width / this.cellWidth);
    this.rows = Math.floor(height / this.cellHeight);
    if (this.columns < 1 || this.rows < 1) {
      throw new RangeError(
        `a ${width}x${height} framebuffer cannot hold one ${this.cellWidth}x${this.cellHeight} cell`,
      );
    }
    // The leftover pixels are split evenly, as a monitor centres a text mode that does not fill it.
    this.originX = Math.floor((width - this.columns * this.cellWidth) / 2);
    this.originY = Math.floor((height - this.rows * this.cellHeight) / 2);
  }

  cell(column: number, row: number): Rect {
    return {
      x: this.originX + column * this.cellWidth,
      y: this.originY + row * this.cellHeight,
      width: this.cellWidth,
      height: this.cellHeight,
    };
  }

  /** Top-left pixel of the glyph inside a cell. */
  glyphOrigin(column: number, row: number): { x: number; y: number } {
    const cell = this.cell(column, row);
    return { x: cell.x, y: cell.y + LEADING * SCALE };
  }

  cursor(column: number, row: number): Rect {
    const glyph = this.glyphOrigin(column, row);
    return {
      x: glyph.x,
      y: glyph.y + GLYPH_HEIGHT * SCALE,
      width: GLYPH_WIDTH * SCALE,
      height: CURSOR_BAND * SCALE,
    };
  }
}
