/** The Proxmox VE release the simulator presents itself as (`/version`, node status). */
export interface PveRelease {
  version: string;
  release: string;
  repoid: string;
  kernel: string;
}

export const PVE_RELEASES = {
  8: {
    version: '8.4.1',
    release: '8.4',
    repoid: '2a5fa54a8503f96d',
    kernel: 'Linux 6.8.12-11-pve #1 SMP PREEMPT_DYNAMIC PMX 6.8.12-11',
  },
  9: {
    version: '9.0.10',
    release: '9.0',
    repoid: 'deb1ca707ec72a89',
    kernel: 'Linux 6.14.11-2-pve #1 SMP PREEMPT_DYNAMIC PMX 6.14.11-2',
  },
} as const satisfies Record<number, PveRelease>;

export type PveMajor = keyof typeof PVE_RELEASES;
