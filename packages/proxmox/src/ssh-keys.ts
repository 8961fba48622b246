/**
 * The `sshkeys` config value: Proxmox stores it URI-encoded (it must match `^[-%a-zA-Z0-9_.!~*'()]*$`),
 * keys separated by an encoded newline. The result is then form-encoded again like any other value.
 */
export function encodeSshKeys(keys: readonly string[]): string {
  return encodeURIComponent(
    keys
      .map((key) => key.trim())
      .filter((key) => key !== '')
      .join('\n'),
  );
}

/** The keys of a stored `sshkeys` value, as `GET config` returns it. */
export function decodeSshKeys(value: string): string[] {
  return decodeURIComponent(value)
    .split('\n')
    .map((key) => key.trim())
    .filter((key) => key !== '');
}
