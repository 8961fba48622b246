/** The X11 keysyms a text console reacts to besides printable characters (X11 keysymdef.h values). */
export const Keysym = {
  BackSpace: 0xff08,
  Return: 0xff0d,
  KeypadEnter: 0xff8d,
} as const;

const FIRST_PRINTABLE = 0x20;
const LAST_PRINTABLE = 0x7e;

/** Printable ASCII keysyms equal their character codes, which is all a login prompt needs. */
export function characterForKeysym(keysym: number): string | undefined {
  return keysym >= FIRST_PRINTABLE && keysym <= LAST_PRINTABLE ? String.fromCharCode(keysym) : undefined;
}

/** The keysym a keyboard sends for a character; a newline is the Return key. */
export function keysymForCharacter(character: string): number | undefined {
  if (character === '\n') {
    return Keysym.Return;
  }
  const code = character.length === 1 ? character.charCodeAt(0) : -1;
  return characterForKeysym(code) === undefined ? undefined : code;
}
