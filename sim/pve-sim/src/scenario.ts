import { readFile } from 'node:fs/promises';
import {
  addVolume,
  generateMac,
  newSmbiosUuid,
  newVmgenid,
  type ClusterState,
  type SimNode,
} from './cluster-state.js';
import { formatSize } from './pve-formats.js';

/** The JSON shape of `--scenario FILE`. */
export interface Scenario {
  cluster?: string;
  macPrefix?: string;
  nodes: ScenarioNode[];
}

export interface ScenarioNode {
  name: string;
  cpus?: number;
  memoryGiB?: number;
  storages?: ScenarioStorage[];
  vms?: ScenarioVm[];
}

export interface ScenarioStorage {
  id: string;
  type: 'dir' | 'lvmthin';
  content: string[];
  sizeGiB: number;
  usedGiB?: number;
  shared?: boolean;
}

export interface ScenarioVm {
  vmid: number;
  name: string;
  template?: boolean;
  running?: boolean;
  cores?: number;
  memoryMiB?: number;
  diskGiB?: number;
  /** For templates: the distro the image carries (shown in the description). */
  distro?: string;
  tags?: string[];
}

const GiB = 1024 ** 3;

const TEMPLATE_DISTROS = [
  { distro: 'Ubuntu 24.04 LTS', name: 'ubuntu-2404-cloudinit' },
  { distro: 'Debian GNU/Linux 12', name: 'debian-12-cloudinit' },
] as const;

/** `--nodes N`: pve1…pveN with two cloud-init templates each and one guest that is not ours. */
export function defaultScenario(nodeCount: number): Scenario {
  let nextTemplate = 9000;
  return {
    cluster: 'sim',
    nodes: Array.from({ length: nodeCount }, (_, i) => ({
      name: `pve${i + 1}`,
      cpus: 16,
      memoryGiB: 64,
      storages: [
        {
          id: 'local',
          type: 'dir',
          content: ['iso', 'vztmpl', 'backup', 'snippets', 'import'],
          sizeGiB: 100,
          usedGiB: 6,
        },
        { id: 'local-lvm', type: 'lvmthin', content: ['images', 'rootdir'], sizeGiB: 800 },
      ],
      vms: [
        ...TEMPLATE_DISTROS.map((t) => ({
          vmid: nextTemplate++,
          name: t.name,
          template: true,
          distro: t.distro,
          cores: 1,
          memoryMiB: 1024,
          diskGiB: 3.5,
        })),
        {
          vmid: 100 + i,
          name: `lab-${i + 1}`,
          running: true,
          cores: 2,
          memoryMiB: 4096,
          diskGiB: 32,
          tags: ['lab'],
        },
      ],
    })),
  };
}

export async function loadScenario(file: string): Promise<Scenario> {
  const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
  if (typeof parsed !== 'object' || parsed === null || !Array.isArray((parsed as Scenario).nodes)) {
    throw new Error(`${file}: a scenario needs a "nodes" array`);
  }
  return parsed as Scenario;
}

export function buildState(scenario: Scenario, now = Date.now()): ClusterState {
  const state: ClusterState = {
    name: scenario.cluster ?? 'sim',
    nodes: [],
    vms: {},
    firewalls: {},
    volumes: {},
    macPrefix: (scenario.macPrefix ?? 'BC:24:11').toUpperCase(),
    nextMac: 0x100000 + Math.floor(Math.random() * 0x10000),
  };
  scenario.nodes.forEach((n, index) => {
    const node: SimNode = {
      name: n.name,
      nodeid: index + 1,
      ip: `192.0.2.${index + 11}`,
      cpus: n.cpus ?? 16,
      memoryBytes: (n.memoryGiB ?? 64) * GiB,
      bootedAt: now - 86_400_000 * (3 + index),
      storages: (n.storages ?? defaultScenario(1).nodes[0]?.storages ?? []).map((st) => ({
        id: st.id,
        type: st.type,
        content: st.content,
        totalBytes: Math.round(st.sizeGiB * GiB),
        baseUsedBytes: Math.round((st.usedGiB ?? 0) * GiB),
        shared: st.shared ?? false,
      })),
    };
    state.nodes.push(node);
    for (const vm of n.vms ?? []) addScenarioVm(state, node, vm, now);
  });
  return state;
}

function addScenarioVm(state: ClusterState, node: SimNode, vm: ScenarioVm, now: number): void {
  const imageStorage = node.storages.find((s) => s.content.includes('images'))?.id ?? 'local-lvm';
  const prefix = vm.template ? 'base' : 'vm';
  const disk = `${prefix}-${vm.vmid}-disk-0`;
  const size = Math.round((vm.diskGiB ?? 8) * GiB);
  addVolume(state, {
    volid: `${imageStorage}:${disk}`,
    node: node.name,
    storage: imageStorage,
    content: 'images',
    format: 'raw',
    size,
    ctime: Math.floor(now / 1000),
    vmid: vm.vmid,
  });
  const config: Record<string, string> = {
    agent: '1',
    boot: 'order=scsi0',
    cores: String(vm.cores ?? 1),
    cpu: 'x86-64-v2-AES',
    memory: String(vm.memoryMiB ?? 2048),
    meta: `creation-qemu=9.0.2,ctime=${Math.floor(now / 1000) - 86_400 * 30}`,
    name: vm.name,
    net0: `virtio=${generateMac(state)},bridge=vmbr0`,
    ostype: 'l26',
    scsi0: `${imageStorage}:${disk},iothread=1,size=${formatSize(size)}`,
    scsihw: 'virtio-scsi-single',
    serial0: 'socket',
    smbios1: newSmbiosUuid(),
    sockets: '1',
    vga: 'serial0',
    vmgenid: newVmgenid(),
  };
  if (vm.template) {
    const ci = `vm-${vm.vmid}-cloudinit`;
    addVolume(state, {
      volid: `${imageStorage}:${ci}`,
      node: node.name,
      storage: imageStorage,
      content: 'images',
      format: 'raw',
      size: 4 * 1024 * 1024,
      ctime: Math.floor(now / 1000),
      vmid: vm.vmid,
    });
    config.ide2 = `${imageStorage}:${ci},media=cdrom`;
    config.description = `${vm.distro ?? 'Linux'} cloud image, cloud-init ready`;
    config.template = '1';
  }
  if (vm.tags?.length) config.tags = [...vm.tags].sort().join(';');
  state.vms[vm.vmid] = {
    vmid: vm.vmid,
    node: node.name,
    config: Object.fromEntries(Object.entries(config).sort(([a], [b]) => a.localeCompare(b))),
    pending: {},
    pendingDelete: [],
    running: vm.running === true && !vm.template,
    ...(vm.running && !vm.template
      ? { startedAt: now - 3_600_000 * ((vm.vmid % 48) + 1), pid: 10_000 + vm.vmid }
      : {}),
    snapshots: [],
    osName: vm.distro ?? 'Ubuntu 24.04 LTS',
    ignoreShutdown: false,
  };
}
