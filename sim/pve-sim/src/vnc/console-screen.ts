import { GLYPH_HEIGHT, GLYPH_WIDTH, glyphRows } from './bitmap-font.js';
import { ConsoleGrid } from './console-grid.js';
import { Keysym, characterForKeysym } from './keysym.js';
import type { Rect } from './rect.js';

export interface Rgb {
  readonly r: number;
  readonly g: number;
  readonly b: number;
}

/** Something showing the screen (a VNC session): told when pixels change, and told to go when evicted. */
export interface ConsoleViewer {
  changed(): void;
  evict(): void;
}

export interface ConsoleScreenOptions {
  /** Framebuffer width in pixels; 720x400 is the VGA text mode a freshly booted VM shows. */
  width?: number;
  height?: number;
  /** Initial lines, top first; typing goes to the end of the last one. */
  lines?: readonly string[];
}

const DEFAULT_WIDTH = 720;
const DEFAULT_HEIGHT = 400;
const PAPER = 0;
const INK = 1;
/** The VGA text-mode defaults: light grey on black. */
const PALETTE: readonly Rgb[] = [
  { r: 0x00, g: 0x00, b: 0x00 },
  { r: 0xaa, g: 0xaa, b: 0xaa },
];
/** Linux's canonical-mode line buffer holds 4095 characters; a tty drops what is typed beyond that. */
const MAX_INPUT_LENGTH = 4095;
const REPLACEMENT = '?';

interface Layout {
  rows: string[];
  cursor: { column: number; row: number };
}

/**
 * The text console of a simulated VM: lines of text drawn with our bitmap font into a palette-indexed
 * framebuffer, a cursor at the end of the last line, and typing that behaves like a tty in canonical mode.
 */
export class ConsoleScreen {
  readonly width: number;
  readonly height: number;
  readonly grid: ConsoleGrid;
  readonly palette: readonly Rgb[] = PALETTE;
  /**
   * One palette index per pixel, row by row. A live view for the VNC server to encode from; only the
   * screen writes it.
   */
  readonly pixels: Uint8Array;
  private lines: string[] = [''];
  /** Where typed input starts on the last line: backspace stops there, as it does before a prompt. */
  private inputStart = 0;
  private shown: string[] = [];
  private cursor: Layout['cursor'] | undefined;
  private readonly viewers = new Set<ConsoleViewer>();

  constructor(options: ConsoleScreenOptions = {}) {
    this.width = options.width ?? DEFAULT_WIDTH;
    this.height = options.height ?? DEFAULT_HEIGHT;
    this.grid = new ConsoleGrid(this.width, this.height);
    this.pixels = new Uint8Array(this.width * this.height).fill(PAPER);
    this.setLines(options.lines ?? ['']);
  }

  /** Replaces everything on screen. Characters the font lacks show as `?`; embedded newlines split lines. */
  setLines(lines: readonly string[]): void {
    const split = lines.flatMap((line) => line.split(/\r?\n/)).map(sanitize);
    this.lines = split.length > 0 ? split : [''];
    this.inputStart = this.lastLine().length;
    this.render();
  }

  /** A key press (X11 keysym) as the console's keyboard would deliver it. Unknown keys do nothing. */
  typeKey(keysym: number): void {
    const line = this.lastLine();
    if (keysym === Keysym.Return || keysym === Keysym.KeypadEnter) {
      this.lines.push('');
      this.inputStart = 0;
    } else if (keysym === Keysym.BackSpace) {
      if (line.length <= this.inputStart) {
        return;
      }
      this.replaceLastLine(line.slice(0, -1));
    } else {
      const character = characterForKeysym(keysym);
      if (character === undefined || line.length - this.inputStart >= MAX_INPUT_LENGTH) {
        return;
      }
      this.replaceLastLine(line + character);
    }
    this.render();
  }

  /** What is visible, one line per row without trailing blanks, as readConsoleText reads the pixels. */
  text(): string {
    const rows = this.shown.map((row) => row.trimEnd());
    while (rows.length > 0 && rows.at(-1) === '') {
      rows.pop();
    }
    return rows.join('\n');
  }

  colourAt(x: number, y: number): Rgb {
    const colour = x >= 0 && x < this.width ? this.palette[this.pixels[y * this.width + x] ?? -1] : undefined;
    if (colour === undefined) {
      throw new RangeError(`no pixel at ${x},${y}`);
    }
    return colour;
  }

  /**
   * Starts telling a viewer about changes; returns the function that stops. An exclusive viewer evicts
   * all others first (an RFB client that asks not to share the desktop).
   */
  attach(viewer: ConsoleViewer, exclusive: boolean): () => void {
    if (exclusive) {
      for (const other of [...this.viewers]) {
        other.evict();
      }
    }
    this.viewers.add(viewer);
    return () => {
      this.viewers.delete(viewer);
    };
  }

  get viewerCount(): number {
    return this.viewers.size;
  }

  private lastLine(): string {
    return this.lines.at(-1) ?? '';
  }

  private replaceLastLine(line: string): void {
    this.lines[this.lines.length - 1] = line;
  }

  /** Redraws only the cells whose character or cursor changed, then tells viewers if any did. */
  private render(): void {
    const layout = this.layout();
    let changed = false;
    for (let row = 0; row < this.grid.rows; row++) {
      for (let column = 0; column < this.grid.columns; column++) {
        const before = this.shown[row]?.[column] ?? ' ';
        const after = layout.rows[row]?.[column] ?? ' ';
        const hadCursor = this.cursor?.row === row && this.cursor.column === column;
        const hasCursor = layout.cursor.row === row && layout.cursor.column === column;
        if (before !== after || hadCursor !== hasCursor) {
          this.drawCell(column, row, after, hasCursor);
          changed = true;
        }
      }
    }
    this.shown = layout.rows;
    this.cursor = layout.cursor;
    if (changed) {
      for (const viewer of [...this.viewers]) {
        viewer.changed();
      }
    }
  }

  /**
   * Wraps lines at the screen width and scrolls so the cursor row is visible; lines that scrolled
   * entirely out of view are forgotten so a long session does not grow without bound.
   */
  private layout(): Layout {
    const { columns, rows } = this.grid;
    const wrapped = this.lines.map((line) => wrap(line, columns));
    const last = this.lastLine();
    const lastRows = wrapped.at(-1);
    // A full last row pushes the cursor to the start of the next one, as a terminal wraps.
    if (lastRows !== undefined && last.length > 0 && last.length % columns === 0) {
      lastRows.push('');
    }
    let total = wrapped.reduce((sum, lineRows) => sum + lineRows.length, 0);
    while (wrapped.length > 1 && total - (wrapped[0]?.length ?? 0) >= rows) {
      total -= wrapped.shift()?.length ?? 0;
      this.lines.shift();
    }
    const all = wrapped.flat();
    const visible = all.slice(Math.max(0, all.length - rows));
    return {
      rows: visible,
      cursor: { column: last.length % columns, row: visible.length - 1 },
    };
  }

  private drawCell(column: number, row: number, character: string, withCursor: boolean): void {
    this.fill(this.grid.cell(column, row), PAPER);
    const glyph = glyphRows(character) ?? [];
    const origin = this.grid.glyphOrigin(column, row);
    const scale = this.grid.scale;
    for (let y = 0; y < GLYPH_HEIGHT; y++) {
      const mask = glyph[y] ?? 0;
      for (let x = 0; x < GLYPH_WIDTH; x++) {
        if (((mask >> (GLYPH_WIDTH - 1 - x)) & 1) !== 0) {
          this.fill({ x: origin.x + x * scale, y: origin.y + y * scale, width: scale, height: scale }, INK);
        }
      }
    }
    if (withCursor) {
      this.fill(this.grid.cursor(column, row), INK);
    }
  }

  private fill(rect: Rect, colour: number): void {
    for (let y = rect.y; y < rect.y + rect.height; y++) {
      this.pixels.fill(colour, y * this.width + rect.x, y * this.width + rect.x + rect.width);
    }
  }
}

/** The font draws printable ASCII only; anything else (tabs, accents, emoji) shows as one `?` per code point. */
function sanitize(line: string): string {
  return line.replace(/[^\x20-\x7e]/gu, REPLACEMENT);
}

function wrap(line: string, columns: number): string[] {
  const rows: string[] = [];
  for (let start = 0; start < line.length; start += columns) {
    rows.push(line.slice(start, start + columns));
  }
  return rows.length > 0 ? rows : [''];
}
