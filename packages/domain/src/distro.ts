/** The operating systems a VM template can hold; a node has at most one template per distro. */
export const DISTROS = [
  'DISTRO_UBUNTU_22_04',
  'DISTRO_UBUNTU_24_04',
  'DISTRO_UBUNTU_26_04',
  'DISTRO_FEDORA_43',
  'DISTRO_FEDORA_44',
  'DISTRO_DEBIAN_12',
  'DISTRO_DEBIAN_13',
  'DISTRO_CENTOS_9',
  'DISTRO_CENTOS_10',
  'DISTRO_ROCKY_9',
  'DISTRO_ROCKY_10',
  'DISTRO_ALMALINUX_9',
  'DISTRO_ALMALINUX_10',
] as const;
export type Distro = (typeof DISTROS)[number];

export function isDistro(value: string): value is Distro {
  return (DISTROS as readonly string[]).includes(value);
}
