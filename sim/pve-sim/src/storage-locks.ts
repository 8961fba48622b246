/**
 * PVE serialises allocations on a storage with a lock file (`/var/lock/pve-manager/pve-storage-<sid>`);
 * a worker that cannot get it in time fails with `can't lock file … - got timeout`.
 */
export class StorageLocks {
  private readonly held = new Map<string, Promise<void>>();

  constructor(private readonly timeoutMs: number) {}

  /** Waits for the storage's lock; resolves to the release function, or throws PVE's timeout error. */
  async acquire(node: string, storage: string): Promise<() => void> {
    const key = `${node}/${storage}`;
    const deadline = Date.now() + this.timeoutMs;
    for (;;) {
      const current = this.held.get(key);
      if (!current) break;
      const remaining = deadline - Date.now();
      if (remaining <= 0)
        throw new Error(`can't lock file '/var/lock/pve-manager/pve-storage-${storage}' - got timeout`);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([current, new Promise<void>((r) => (timer = setTimeout(r, remaining)))]);
      clearTimeout(timer);
    }
    let release: () => void = () => undefined;
    const lock = new Promise<void>((resolve) => {
      release = () => {
        if (this.held.get(key) === lock) this.held.delete(key);
        resolve();
      };
    });
    this.held.set(key, lock);
    return release;
  }
}
