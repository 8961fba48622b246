import { describe, expect, it } from 'vitest';

import { GLYPH_HEIGHT, GLYPH_WIDTH, fontCharacters, glyphRows } from './bitmap-font.js';

const PRINTABLE_ASCII = Array.from({ length: 0x7e - 0x20 + 1 }, (_, index) =>
  String.fromCharCode(0x20 + index),
);

describe('bitmap font', () => {
  it('draws every printable ASCII character and nothing else', () => {
    expect(fontCharacters().sort()).toEqual([...PRINTABLE_ASCII].sort());
    expect(glyphRows('\t')).toBeUndefined();
    expect(glyphRows('é')).toBeUndefined();
    expect(glyphRows('ab')).toBeUndefined();
  });

  it('gives every character a distinct glyph, so pixels read back unambiguously', () => {
    const owners = new Map<string, string>();
    for (const character of PRINTABLE_ASCII) {
      const key = (glyphRows(character) ?? []).join(',');
      expect(owners.get(key), `${character} looks like ${owners.get(key) ?? ''}`).toBeUndefined();
      owners.set(key, character);
    }
  });

  it('keeps glyphs inside their box with ink on every character but space', () => {
    for (const character of PRINTABLE_ASCII) {
      const rows = glyphRows(character) ?? [];
      expect(rows).toHaveLength(GLYPH_HEIGHT);
      expect(rows.every((mask) => mask >= 0 && mask < 2 ** GLYPH_WIDTH)).toBe(true);
      expect(rows.some((mask) => mask !== 0)).toBe(character !== ' ');
    }
  });

  it('uses the descender rows only for letters that descend', () => {
    const descending = PRINTABLE_ASCII.filter((character) =>
      (glyphRows(character) ?? []).slice(7).some((mask) => mask !== 0),
    );
    expect(descending.join('')).toBe(',;_gjpqy|');
  });
});
