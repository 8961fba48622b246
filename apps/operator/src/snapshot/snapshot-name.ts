/** Proxmox's `pve-configid` format, which snapshot names must have. */
const CONFIG_ID = /^[a-z][a-z0-9_-]+$/i;
const MAX_LENGTH = 40;
/** Names Proxmox keeps for itself: `current` is the live state, `pending` its queued changes. */
const RESERVED = new Set(['current', 'pending']);

/** Why `name` cannot be a Proxmox snapshot name, or undefined when it can. */
export function snapshotNameProblem(name: string): string | undefined {
  if (!CONFIG_ID.test(name) || name.length > MAX_LENGTH) {
    return `snapshot name '${name}' is not a Proxmox config id (a letter, then letters, digits, - or _; at most ${MAX_LENGTH} characters)`;
  }
  if (RESERVED.has(name.toLowerCase())) return `snapshot name '${name}' is reserved by Proxmox`;
  return undefined;
}
