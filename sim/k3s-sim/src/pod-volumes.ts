import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';

import { ContainerConfigError, type Container, type Volume } from './workload.js';

type Lookup = (kind: 'Secret' | 'ConfigMap', name: string) => Promise<Record<string, string> | undefined>;

/** A container's mount: where the container sees it, and the folder or file on this machine. */
export interface MountedPath {
  readonly mountPath: string;
  readonly hostPath: string;
}

/** The kubelet's default mode of Secret and ConfigMap files. */
const DEFAULT_MODE = 0o644;

/**
 * The pod's volumes as the kubelet lays them out (`<podDir>/volumes/<volume>/<key>`): a Secret's or
 * ConfigMap's keys as files (all of them, or its `items`), every other kind an empty folder. Returns the
 * container's mounts mapped to those paths. A Secret or ConfigMap that is missing (and not optional), or
 * lacks a key `items` names, is a ContainerConfigError: the kubelet keeps the pod waiting until it exists.
 * Files are rewritten on every call, so that a changed Secret reaches a restarted process.
 */
export async function materialiseVolumes(
  podDir: string,
  volumes: readonly Volume[],
  container: Container,
  lookup: Lookup,
): Promise<MountedPath[]> {
  const paths = new Map<string, string>();
  for (const volume of volumes) {
    const dir = join(podDir, 'volumes', volume.name);
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    paths.set(volume.name, dir);
    const source = volume.secret
      ? { kind: 'Secret' as const, name: volume.secret.secretName, ...volume.secret }
      : volume.configMap
        ? { kind: 'ConfigMap' as const, ...volume.configMap }
        : undefined;
    if (source === undefined) continue;
    const data = await lookup(source.kind, source.name);
    if (data === undefined) {
      if (source.optional === true) continue;
      throw new ContainerConfigError(
        `MountVolume.SetUp failed for volume "${volume.name}" : ${source.kind.toLowerCase()} "${source.name}" not found`,
      );
    }
    const items = source.items ?? Object.keys(data).map((key) => ({ key, path: key, mode: undefined }));
    for (const item of items) {
      const value = data[item.key];
      if (value === undefined)
        throw new ContainerConfigError(
          `MountVolume.SetUp failed for volume "${volume.name}" : ${source.kind.toLowerCase()} "${source.name}" has no key ${item.key}`,
        );
      const file = join(dir, item.path);
      if (relative(dir, file).startsWith('..'))
        throw new ContainerConfigError(`volume "${volume.name}": item path ${item.path} leaves the volume`);
      await mkdir(dirname(file), { recursive: true });
      // The owner keeps read access whatever the mode says: the process runs as this machine's user.
      await writeFile(file, value, { mode: (item.mode ?? source.defaultMode ?? DEFAULT_MODE) | 0o400 });
    }
  }
  return (container.volumeMounts ?? []).map((mount) => {
    const dir = paths.get(mount.name);
    if (dir === undefined)
      throw new ContainerConfigError(`volumeMount "${mount.name}": no volume of that name in the pod`);
    return {
      mountPath: mount.mountPath,
      hostPath: mount.subPath === undefined ? dir : join(dir, mount.subPath),
    };
  });
}

/**
 * Arguments naming a path under a mount (`/etc/prometheus/pve.yml`, `--config=/etc/alloy/config.alloy`)
 * rewritten to the mount's folder on this machine: the process sees this machine's filesystem, not the
 * container's. The longest mount path that matches wins, as in a container.
 */
export function mountedArgs(args: readonly string[], mounts: readonly MountedPath[]): string[] {
  const byLength = [...mounts].sort((a, b) => b.mountPath.length - a.mountPath.length);
  const rewrite = (path: string): string => {
    for (const m of byLength) {
      const base = m.mountPath.replace(/\/+$/, '');
      if (path === base || path.startsWith(`${base}/`)) return m.hostPath + path.slice(base.length);
    }
    return path;
  };
  return args.map((arg) => {
    const inline = /^(--?[^=]+=)(\/.*)$/.exec(arg);
    if (inline) return `${inline[1] ?? ''}${rewrite(inline[2] ?? '')}`;
    return arg.startsWith('/') ? rewrite(arg) : arg;
  });
}
