/** Per-container state is keyed by pod UID and container name: StatefulSet and static pods reuse pod names. */
export function containerKey(podUid: string, container: string): string {
  return `${podUid}/${container}`;
}
