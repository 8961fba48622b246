/**
 * The platform's seed cloud-init templates: owned by no organisation, readable by every provider, and
 * only ever copied (a provider adapts its copy). Their ids are fixed so that a copy can name its source.
 */
export interface SeedCloudInitTemplate {
  readonly id: string;
  readonly name: string;
  readonly userData: string;
  readonly vendorData: string;
  readonly networkData: string;
}

/** Cloud images name their default user after the distro; the rest is the same for both seeds. */
function seedUserData(distro: string, user: string, groups: string): string {
  return `#cloud-config
# NodeRings seed for ${distro} cloud images: copy it, then adapt the copy.
hostname: {{ hostname }}
manage_etc_hosts: true
users:
  - name: ${user}
    groups: [${groups}]
    shell: /bin/bash
    sudo: "ALL=(ALL) NOPASSWD:ALL"
    lock_passwd: {{ lock_passwd }}
    hashed_passwd: {{ password_hash }}
    ssh_authorized_keys: {{ ssh_authorized_keys }}
disable_root: true
ssh_pwauth: {{ ssh_pwauth }}
timezone: Etc/UTC
package_update: true
packages:
  - qemu-guest-agent
runcmd:
  - [systemctl, enable, --now, qemu-guest-agent]
`;
}

export const SEED_CLOUD_INIT_TEMPLATES: readonly SeedCloudInitTemplate[] = [
  {
    id: 'c10d1a17-5eed-4000-8000-000000000001',
    name: 'Ubuntu (seed)',
    userData: seedUserData('Ubuntu', 'ubuntu', 'adm, sudo'),
    vendorData: '',
    networkData: '',
  },
  {
    id: 'c10d1a17-5eed-4000-8000-000000000002',
    name: 'Debian (seed)',
    userData: seedUserData('Debian', 'debian', 'sudo'),
    vendorData: '',
    networkData: '',
  },
];

export function findSeedCloudInitTemplate(id: string): SeedCloudInitTemplate | undefined {
  return SEED_CLOUD_INIT_TEMPLATES.find((seed) => seed.id === id);
}
