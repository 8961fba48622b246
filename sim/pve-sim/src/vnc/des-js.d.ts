// des.js ships no type declarations; this describes the part vnc-auth.ts uses.
declare module 'des.js' {
  interface DesCipher {
    update(data: ArrayLike<number>): number[];
  }

  interface DesOptions {
    type: 'encrypt' | 'decrypt';
    key: ArrayLike<number>;
    /** False for raw ECB blocks, which is what VNC authentication encrypts. */
    padding?: boolean;
  }

  export const DES: { create(options: DesOptions): DesCipher };
}
