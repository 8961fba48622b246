import { formatPropertyString, parsePropertyString } from './property-string.js';
import { formatError } from './net-device.js';
import { parseSize } from './pve-formats.js';

export const DRIVE_KEY_RE =
  /^(ide[0-3]|sata[0-5]|scsi([0-9]|[1-2][0-9]|30)|virtio([0-9]|1[0-5])|efidisk0|tpmstate0)$/;
export const UNUSED_KEY_RE = /^unused\d+$/;

export interface Drive {
  /** `storage:volume`, `none`, `cdrom`, `storage:cloudinit` or `storage:<GiB>` (allocate). */
  file: string;
  options: Map<string, string>;
}

export function parseDrive(key: string, value: string): Drive {
  let map: Map<string, string>;
  try {
    map = parsePropertyString(value, 'file');
  } catch (e: unknown) {
    throw formatError(key, 'file', (e as Error).message);
  }
  const file = map.get('file');
  if (file === undefined) throw formatError(key, 'file', 'property is missing and it is not optional');
  map.delete('file');
  if (!/^(none|cdrom|[a-z][a-z0-9\-_.]*[a-z0-9]:.+)$/i.test(file)) {
    throw formatError(key, 'file', `unable to parse volume ID '${file}'`);
  }
  const size = map.get('size');
  if (size !== undefined && parseSize(size) === undefined)
    throw formatError(key, 'size', `unable to parse size '${size}'`);
  const media = map.get('media');
  if (media !== undefined && media !== 'cdrom' && media !== 'disk') {
    throw formatError(
      key,
      'media',
      `value '${media}' does not have a value in the enumeration 'cdrom, disk'`,
    );
  }
  return { file, options: map };
}

export function formatDrive(drive: Drive): string {
  const rest = formatPropertyString(drive.options);
  return `${drive.file}${rest ? `,${rest}` : ''}`;
}

export function isCdrom(drive: Drive): boolean {
  return drive.options.get('media') === 'cdrom';
}

export function isCloudInit(drive: Drive): boolean {
  return (
    /^[^:]+:(.*\/)?(vm|base)-\d+-cloudinit(\.\w+)?$/.test(drive.file) || /^[^:]+:cloudinit$/.test(drive.file)
  );
}

/** `storage:volume` → [storage, volume]; undefined for `none`/`cdrom`. */
export function splitVolid(volid: string): [string, string] | undefined {
  const i = volid.indexOf(':');
  return i > 0 ? [volid.slice(0, i), volid.slice(i + 1)] : undefined;
}
