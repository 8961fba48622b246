import type { KubeObject } from '@noderings/kube';

/** The parts of a Deployment or DaemonSet k3s-sim reads: its pod template's labels, volumes and first container. */
export interface Workload extends KubeObject {
  spec?: {
    replicas?: number;
    template?: {
      metadata?: { labels?: Record<string, string> };
      spec?: {
        serviceAccountName?: string;
        containers?: Container[];
        volumes?: Volume[];
      };
    };
  };
}

/** The volume kinds k3s-sim materialises as files; any other kind is an empty folder. */
export interface Volume {
  name: string;
  secret?: { secretName: string; items?: KeyToPath[]; defaultMode?: number; optional?: boolean };
  configMap?: { name: string; items?: KeyToPath[]; defaultMode?: number; optional?: boolean };
  emptyDir?: Record<string, unknown>;
}

interface KeyToPath {
  key: string;
  path: string;
  mode?: number;
}

interface VolumeMount {
  name: string;
  mountPath: string;
  readOnly?: boolean;
  subPath?: string;
}

export interface Container {
  name?: string;
  image?: string;
  command?: string[];
  args?: string[];
  env?: EnvVar[];
  envFrom?: EnvFromSource[];
  volumeMounts?: VolumeMount[];
}

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: {
    secretKeyRef?: KeyRef;
    configMapKeyRef?: KeyRef;
  };
}

interface KeyRef {
  name: string;
  key: string;
  optional?: boolean;
}

interface EnvFromSource {
  prefix?: string;
  secretRef?: { name: string; optional?: boolean };
  configMapRef?: { name: string; optional?: boolean };
}

/**
 * Listen addresses of a container's arguments (`--metrics-listen 0.0.0.0:8080`, `--listen=:9221`) moved
 * to a free loopback port: every process of every simulated host shares this machine's ports.
 */
export function loopbackListenArgs(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    const inline = /^(--[a-z-]*listen)=/.exec(arg);
    if (inline) {
      out.push(`${inline[1] ?? ''}=127.0.0.1:0`);
    } else if (/^--[a-z-]*listen$/.test(arg) && i + 1 < args.length) {
      out.push(arg, '127.0.0.1:0');
      i++;
    } else {
      out.push(arg);
    }
  }
  return out;
}

/** Why a container's environment cannot be built, as the kubelet says it (`CreateContainerConfigError`). */
export class ContainerConfigError extends Error {}

type Lookup = (kind: 'Secret' | 'ConfigMap', name: string) => Promise<Record<string, string> | undefined>;

/** The container's environment as the kubelet builds it: `envFrom` first, then `env`, values resolved. */
export async function containerEnv(container: Container, lookup: Lookup): Promise<Record<string, string>> {
  const env: Record<string, string> = {};
  for (const source of container.envFrom ?? []) {
    const ref = source.secretRef ?? source.configMapRef;
    if (ref === undefined) continue;
    const kind = source.secretRef ? 'Secret' : 'ConfigMap';
    const data = await lookup(kind, ref.name);
    if (data === undefined) {
      if (ref.optional === true) continue;
      throw new ContainerConfigError(`${kind.toLowerCase()} "${ref.name}" not found`);
    }
    for (const [key, value] of Object.entries(data)) env[`${source.prefix ?? ''}${key}`] = value;
  }
  for (const variable of container.env ?? []) {
    if (variable.value !== undefined || variable.valueFrom === undefined) {
      env[variable.name] = variable.value ?? '';
      continue;
    }
    const secretRef = variable.valueFrom.secretKeyRef;
    const ref = secretRef ?? variable.valueFrom.configMapKeyRef;
    if (ref === undefined) continue;
    const kind = secretRef ? 'Secret' : 'ConfigMap';
    const value = (await lookup(kind, ref.name))?.[ref.key];
    if (value === undefined) {
      if (ref.optional === true) continue;
      throw new ContainerConfigError(
        `couldn't find key ${ref.key} in ${kind} ${ref.name}` /* the kubelet's wording */,
      );
    }
    env[variable.name] = value;
  }
  return env;
}
