import { vmName, type ClusterState, type SimVm } from './cluster-state.js';

interface SeenVm {
  status: 'running' | 'stopped' | 'unknown';
  name?: string;
}

/**
 * `/cluster/resources` shows a guest's name and status from RRD data that pvestatd broadcasts about
 * every 10 s, so a fresh clone shows `status: unknown` and no name for a while. With a lag of 0 the
 * simulator shows live values; otherwise it refreshes its snapshot every `lagMs`.
 */
export class ResourceSnapshots {
  private seen = new Map<number, SeenVm>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly lagMs: number,
    private readonly state: () => ClusterState,
  ) {
    if (lagMs > 0) {
      this.refresh();
      this.timer = setInterval(() => {
        this.refresh();
      }, lagMs);
      this.timer.unref();
    }
  }

  view(vm: SimVm): SeenVm {
    if (this.lagMs <= 0) return live(vm);
    return this.seen.get(vm.vmid) ?? { status: 'unknown' };
  }

  refresh(): void {
    this.seen = new Map(Object.values(this.state().vms).map((vm) => [vm.vmid, live(vm)]));
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
  }
}

function live(vm: SimVm): SeenVm {
  // During a clone the config exists without a name yet.
  const named = vm.config.name !== undefined || vm.config.lock !== 'clone';
  return { status: vm.running ? 'running' : 'stopped', ...(named ? { name: vmName(vm) } : {}) };
}
