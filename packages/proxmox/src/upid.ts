import { InvalidUpidError } from './errors.js';

/** The fields of a task id: `UPID:<node>:<pid>:<pstart>:<starttime>:<type>:<id>:<user>:`. */
export interface Upid {
  node: string;
  pid: number;
  /** Process start time in clock ticks since boot; 8 or 9 hex digits on the wire. */
  pstart: number;
  /** Unix seconds. */
  starttime: number;
  /** `qmclone`, `qmstart`, `vzdump`, … */
  type: string;
  /** Usually the VMID (for `qmclone` the source VMID); empty for tasks about no single guest. */
  id: string;
  /** `user@realm`, or `user@realm!tokenid` for a task started with an API token. */
  user: string;
}

const UPID_PATTERN =
  /^UPID:([a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?):([0-9A-Fa-f]{8}):([0-9A-Fa-f]{8,9}):([0-9A-Fa-f]{8}):([^:\s]+):([^:\s]*):([^:\s]+):$/;

export function parseUpid(text: string): Upid {
  const match = UPID_PATTERN.exec(text);
  if (match === null) throw new InvalidUpidError({ pveMessage: `not a task id: '${text}'` });
  const [, node = '', pid = '', pstart = '', starttime = '', type = '', id = '', user = ''] = match;
  return {
    node,
    pid: parseInt(pid, 16),
    pstart: parseInt(pstart, 16),
    starttime: parseInt(starttime, 16),
    type,
    id,
    user,
  };
}

export function isUpid(text: string): boolean {
  return UPID_PATTERN.test(text);
}

export function formatUpid(upid: Upid): string {
  const hex = (value: number): string => value.toString(16).toUpperCase().padStart(8, '0');
  const text = `UPID:${upid.node}:${hex(upid.pid)}:${hex(upid.pstart)}:${hex(upid.starttime)}:${upid.type}:${upid.id}:${upid.user}:`;
  if (!isUpid(text)) throw new InvalidUpidError({ pveMessage: `fields do not make a task id: '${text}'` });
  return text;
}
