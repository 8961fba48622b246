import { buildIso9660Image, type Iso9660File } from './iso9660-image.js';

/** What cloud-init's NoCloud datasource reads from the seed; each field becomes one file. */
export interface NoCloudSeed {
  userData: string;
  metaData: string;
  networkConfig?: string;
  vendorData?: string;
  /** Fix it to get byte-identical seeds for identical content; defaults to now. */
  createdAt?: Date;
}

/** NoCloud finds its seed by this filesystem label (blkid matches it in either case). */
const NOCLOUD_VOLUME_ID = 'cidata';

/** Builds the seed ISO that cloud-init's NoCloud datasource mounts, ready to upload as Proxmox ISO content. */
export function buildNoCloudSeed(seed: NoCloudSeed): Buffer {
  const files: Iso9660File[] = [
    { name: 'user-data', data: seed.userData },
    { name: 'meta-data', data: seed.metaData },
  ];
  if (seed.networkConfig !== undefined) {
    files.push({ name: 'network-config', data: seed.networkConfig });
  }
  if (seed.vendorData !== undefined) {
    files.push({ name: 'vendor-data', data: seed.vendorData });
  }
  return buildIso9660Image({ volumeId: NOCLOUD_VOLUME_ID, files, createdAt: seed.createdAt });
}
