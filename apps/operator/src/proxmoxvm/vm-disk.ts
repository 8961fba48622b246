import type { VmConfig } from '@noderings/proxmox';

const DISK_KEY = /^(scsi|virtio|sata|ide)\d+$/;
const SIZE = /(?:^|,)size=(\d+(?:\.\d+)?)([KMGT]?)(?:,|$)/;
const GIB_PER_UNIT: Record<string, number> = {
  '': 1 / 1024 ** 3,
  K: 1 / 1024 ** 2,
  M: 1 / 1024,
  G: 1,
  T: 1024,
};

/** The boot disk (first disk of the boot order that is not a CD-ROM) and its size in GiB. */
export function bootDisk(config: VmConfig): { key: string; sizeGiB: number } | undefined {
  const order = /order=([^,]+)/.exec(String(config.boot ?? ''))?.[1]?.split(';') ?? [];
  const candidates = [
    ...order,
    ...Object.keys(config)
      .filter((k) => DISK_KEY.test(k))
      .sort(),
  ];
  for (const key of candidates) {
    const value = config[key];
    if (!DISK_KEY.test(key) || typeof value !== 'string' || value.includes('media=cdrom')) continue;
    const size = SIZE.exec(value);
    if (size?.[1] === undefined) continue;
    return { key, sizeGiB: Number(size[1]) * (GIB_PER_UNIT[size[2] ?? ''] ?? 1) };
  }
  return undefined;
}
