import { describe, expect, it, vi } from 'vitest';

import { ConsoleScreen } from './console-screen.js';
import { Keysym } from './keysym.js';
import type { RasterImage } from './raster-image.js';
import { readConsoleText } from './read-console-text.js';

const VM = 'NR-5b2e9f01';

function loginScreen(): ConsoleScreen {
  return new ConsoleScreen({ lines: [`Ubuntu 24.04 LTS ${VM} tty1`, '', `${VM} login: `] });
}

function type(screen: ConsoleScreen, text: string): void {
  for (const character of text) {
    screen.typeKey(character === '\n' ? Keysym.Return : character.charCodeAt(0));
  }
}

function snapshot(screen: ConsoleScreen): RasterImage {
  const data = new Uint8Array(screen.width * screen.height * 3);
  for (let y = 0; y < screen.height; y++) {
    for (let x = 0; x < screen.width; x++) {
      const { r, g, b } = screen.colourAt(x, y);
      data.set([r, g, b], (y * screen.width + x) * 3);
    }
  }
  return { width: screen.width, height: screen.height, channels: 3, data };
}

describe('ConsoleScreen', () => {
  it('shows the given lines as text and as pixels that read back to the same text', () => {
    const screen = loginScreen();
    expect(screen.text()).toBe(`Ubuntu 24.04 LTS ${VM} tty1\n\n${VM} login:`);
    expect(readConsoleText(snapshot(screen))).toBe(screen.text());
  });

  it('types printable keys on the input line, Enter starts a new line, Backspace stops at the prompt', () => {
    const screen = loginScreen();
    type(screen, 'roox');
    screen.typeKey(Keysym.BackSpace);
    type(screen, 't\n');
    screen.typeKey(Keysym.BackSpace);
    expect(screen.text()).toBe(`Ubuntu 24.04 LTS ${VM} tty1\n\n${VM} login: root`);
    type(screen, 'Password: ');
    for (let index = 0; index < 20; index++) {
      screen.typeKey(Keysym.BackSpace);
    }
    screen.typeKey(0xffe1); // Shift alone types nothing
    expect(screen.text()).toBe(`Ubuntu 24.04 LTS ${VM} tty1\n\n${VM} login: root`);
    expect(readConsoleText(snapshot(screen))).toBe(screen.text());
  });

  it('never lets Backspace eat the prompt that setLines drew', () => {
    const screen = loginScreen();
    type(screen, 'ab');
    for (let index = 0; index < 5; index++) {
      screen.typeKey(Keysym.BackSpace);
    }
    expect(screen.text().split('\n').at(-1)).toBe(`${VM} login:`);
  });

  it('wraps long lines and scrolls, keeping the cursor line on screen', () => {
    const screen = loginScreen();
    const { columns, rows } = screen.grid;
    const prompt = `${VM} login: `;
    type(screen, `${'x'.repeat(columns + 3)}\n`);
    expect(screen.text().split('\n').slice(-2)).toEqual([
      prompt + 'x'.repeat(columns - prompt.length),
      'x'.repeat(prompt.length + 3),
    ]);
    for (let line = 0; line < rows + 5; line++) {
      type(screen, `line ${line}\n`);
    }
    const shown = screen.text().split('\n');
    expect(shown).toHaveLength(rows - 1);
    expect(shown.at(-1)).toBe(`line ${rows + 4}`);
    expect(readConsoleText(snapshot(screen))).toBe(screen.text());
  });

  it('shows characters the font lacks as question marks, in text and pixels alike', () => {
    const screen = new ConsoleScreen({ lines: ['caf\u00e9\tok', 'two\nlines'] });
    expect(screen.text()).toBe('caf??ok\ntwo\nlines');
    expect(readConsoleText(snapshot(screen))).toBe(screen.text());
  });

  it('tells viewers about changes only when pixels change, and evicts them for an exclusive viewer', () => {
    const screen = loginScreen();
    const first = { changed: vi.fn(), evict: vi.fn() };
    const detach = screen.attach(first, false);
    screen.typeKey(0x61);
    screen.typeKey(0xffff); // Delete: nothing to draw
    expect(first.changed).toHaveBeenCalledTimes(1);
    const second = { changed: vi.fn(), evict: vi.fn() };
    screen.attach(second, true);
    expect(first.evict).toHaveBeenCalledTimes(1);
    detach();
    expect(screen.viewerCount).toBe(1);
  });

  it('rejects a framebuffer too small for a single character', () => {
    expect(() => new ConsoleScreen({ width: 8, height: 8 })).toThrow(RangeError);
  });
});
