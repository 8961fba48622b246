/** The images' unprivileged user (distroless `nonroot`). */
const RUN_AS_USER = 65532;

/**
 * The pod security context every Deployment of the stack runs with: non-root, RuntimeDefault seccomp;
 * `fsGroup` lets that user read the Secret and ConfigMap files mounted with a group-readable mode.
 */
export const POD_SECURITY_CONTEXT = {
  runAsNonRoot: true,
  runAsUser: RUN_AS_USER,
  runAsGroup: RUN_AS_USER,
  fsGroup: RUN_AS_USER,
  seccompProfile: { type: 'RuntimeDefault' },
} as const;

/** Every container's: read-only root filesystem, no privilege escalation, no capabilities. */
export const CONTAINER_SECURITY_CONTEXT = {
  runAsNonRoot: true,
  readOnlyRootFilesystem: true,
  allowPrivilegeEscalation: false,
  capabilities: { drop: ['ALL'] },
} as const;

/** Secret and ConfigMap files: readable by the owner and the pod's `fsGroup`, nobody else. */
export const MOUNTED_FILE_MODE = 0o440;

/** An HTTP GET probe on a named container port: 2 s to answer, three misses in a row fail it. */
export function httpProbe(path: string, port: string, periodSeconds: number) {
  return { httpGet: { path, port }, periodSeconds, timeoutSeconds: 2, failureThreshold: 3 };
}
