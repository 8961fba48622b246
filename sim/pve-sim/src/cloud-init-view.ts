import { createHash } from 'node:crypto';
import { getVolume, type ClusterState, type SimVm } from './cluster-state.js';
import { DRIVE_KEY_RE, isCdrom, isCloudInit, parseDrive } from './drive.js';
import { readIso9660 } from './iso/iso9660-reader.js';
import { parsePropertyString } from './property-string.js';

/** What a VM's cloud-init would read at boot: the files of its NoCloud seed. */
export interface CloudInitView {
  /** `iso`: an uploaded seed ISO attached as a CD-ROM; `proxmox`: the drive PVE generates from config keys. */
  source: 'iso' | 'proxmox';
  drive: string;
  volid: string;
  volumeId: string;
  files: Record<string, string>;
}

/**
 * The seed of a VM: an attached uploaded ISO labelled `cidata` wins (that is what cloud-init's NoCloud
 * datasource finds first by label); otherwise the Proxmox cloud-init drive, rendered from the config.
 */
export function cloudInitView(state: ClusterState, vm: SimVm): CloudInitView | undefined {
  let proxmoxDrive: { key: string; volid: string } | undefined;
  for (const [key, value] of Object.entries(vm.config)) {
    if (!DRIVE_KEY_RE.test(key)) continue;
    const drive = parseDrive(key, value);
    if (isCloudInit(drive)) {
      proxmoxDrive = { key, volid: drive.file };
      continue;
    }
    if (!isCdrom(drive)) continue;
    const volume = getVolume(state, vm.node, drive.file);
    if (volume?.dataBase64 === undefined) continue;
    try {
      const iso = readIso9660(Buffer.from(volume.dataBase64, 'base64'));
      if (iso.volumeId.toLowerCase() !== 'cidata') continue;
      const files = Object.fromEntries([...iso.files].map(([name, data]) => [name, data.toString('utf8')]));
      return { source: 'iso', drive: key, volid: drive.file, volumeId: iso.volumeId, files };
    } catch {
      continue;
    }
  }
  if (!proxmoxDrive) return undefined;
  return {
    source: 'proxmox',
    drive: proxmoxDrive.key,
    volid: proxmoxDrive.volid,
    volumeId: 'cidata',
    files: proxmoxSeed(state, vm),
  };
}

/** A rendering of what PVE writes into its cloud-init drive (NoCloud flavour) from the VM's keys. */
function proxmoxSeed(state: ClusterState, vm: SimVm): Record<string, string> {
  const c = vm.config;
  const custom = c.cicustom ? parsePropertyString(c.cicustom) : new Map<string, string>();
  const snippet = (kind: string): string | undefined => {
    const volid = custom.get(kind);
    const data = volid ? getVolume(state, vm.node, volid)?.dataBase64 : undefined;
    return data === undefined ? undefined : Buffer.from(data, 'base64').toString('utf8');
  };
  const hostname = c.name ?? `VM${vm.vmid}`;
  const keys = c.sshkeys ? decodeURIComponent(c.sshkeys).split('\n').filter(Boolean) : [];
  const user = [
    '#cloud-config',
    `hostname: ${hostname}`,
    'manage_etc_hosts: true',
    `fqdn: ${hostname}`,
    ...(c.ciuser ? [`user: ${c.ciuser}`] : []),
    ...(c.cipassword ? [`password: ${c.cipassword}`, 'chpasswd:', '  expire: False'] : []),
    ...(keys.length ? ['ssh_authorized_keys:', ...keys.map((k) => `  - ${k}`)] : []),
    `package_upgrade: ${c.ciupgrade === '0' ? 'false' : 'true'}`,
    '',
  ].join('\n');
  const meta = `instance-id: ${createHash('sha1').update(JSON.stringify(c)).digest('hex')}\n`;
  return {
    'user-data': snippet('user') ?? user,
    'meta-data': snippet('meta') ?? meta,
    'network-config': snippet('network') ?? networkConfig(c),
    ...(snippet('vendor') !== undefined ? { 'vendor-data': snippet('vendor') ?? '' } : {}),
  };
}

function networkConfig(c: Record<string, string>): string {
  const lines = ['version: 1', 'config:'];
  for (const [key, value] of Object.entries(c)) {
    const m = /^net(\d+)$/.exec(key);
    if (!m) continue;
    const mac = /=([0-9A-F:]{17})/i.exec(value)?.[1]?.toLowerCase() ?? '';
    lines.push('    - type: physical', `      name: eth${m[1] ?? '0'}`, `      mac_address: '${mac}'`);
    const ip = c[`ipconfig${m[1] ?? '0'}`];
    if (!ip) continue;
    lines.push('      subnets:');
    const cfg = parsePropertyString(ip);
    const v4 = cfg.get('ip');
    if (v4 === 'dhcp') lines.push('      - type: dhcp4');
    else if (v4)
      lines.push(
        '      - type: static',
        `        address: '${v4}'`,
        ...(cfg.get('gw') ? [`        gateway: '${cfg.get('gw') ?? ''}'`] : []),
      );
    const v6 = cfg.get('ip6');
    if (v6 === 'dhcp') lines.push('      - type: dhcp6');
    else if (v6 === 'auto') lines.push('      - type: ipv6_slaac');
    else if (v6)
      lines.push(
        '      - type: static6',
        `        address: '${v6}'`,
        ...(cfg.get('gw6') ? [`        gateway: '${cfg.get('gw6') ?? ''}'`] : []),
      );
  }
  if (c.nameserver) {
    lines.push(
      '    - type: nameserver',
      '      address:',
      ...c.nameserver
        .split(/[ ,;]+/)
        .filter(Boolean)
        .map((a) => `      - '${a}'`),
    );
    if (c.searchdomain)
      lines.push('      search:', ...c.searchdomain.split(/[ ,;]+/).map((d) => `      - '${d}'`));
  }
  return `${lines.join('\n')}\n`;
}
