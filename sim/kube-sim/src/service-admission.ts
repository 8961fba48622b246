import { randomInt } from 'node:crypto';
import { goStringSlice } from './go-literal.js';
import { isRecord } from './json-value.js';
import type { KubeObject } from './kube-object.js';
import { validateDnsLabel } from './object-meta-validation.js';
import { isPortNumber, PORT_RANGE } from './pod-template.js';
import { fieldError, type StatusCause } from './status-error.js';

type Json = Record<string, unknown>;

/** k3s' default service CIDR, 10.43.0.0/16, as its first address and size. */
const SERVICE_CIDR = { text: '10.43.0.0/16', base: (10 << 24) | (43 << 16), size: 1 << 16 } as const;
/** The first address after the network's is the `kubernetes` service's, so it is never handed out. */
const FIRST_ALLOCATABLE = 2;
const SERVICE_TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const HEADLESS = 'None';
/** kube's default `--service-node-port-range`. */
const NODE_PORTS = { first: 30000, last: 32767 } as const;

/** What admission needs to know of other services: the cluster IPs they hold. */
export interface ServiceContext {
  clusterIPsInUse(): Set<string>;
  /** Node ports held by services other than the one being written. */
  nodePortsInUse(except: { namespace?: string; name?: string }): Set<number>;
}

/**
 * core/v1 Service: kube's defaults (type, session affinity, IP families, traffic policy, port
 * protocol and target port), a cluster IP from the service CIDR on create, kept on update (an update
 * that leaves it out keeps the allocated one, one that changes it is refused), and port validation.
 */
export function admitService(
  input: KubeObject,
  old: KubeObject | undefined,
  context: ServiceContext,
): { object: KubeObject; causes: StatusCause[] } {
  const spec = isRecord(input.spec) ? input.spec : {};
  const type = spec.type ?? 'ClusterIP';
  const ports = Array.isArray(spec.ports) ? spec.ports.map(defaultPort) : spec.ports;
  const defaulted: Json = {
    ...spec,
    ...(ports !== undefined ? { ports } : {}),
    type,
    sessionAffinity: spec.sessionAffinity ?? 'None',
  };
  const causes = validateServiceSpec(defaulted);
  if (type !== 'ExternalName') {
    Object.assign(defaulted, {
      ipFamilies: spec.ipFamilies ?? ['IPv4'],
      ipFamilyPolicy: spec.ipFamilyPolicy ?? 'SingleStack',
      internalTrafficPolicy: spec.internalTrafficPolicy ?? 'Cluster',
    });
    causes.push(...assignClusterIP(defaulted, old, context));
    if (type === 'NodePort' || type === 'LoadBalancer') {
      defaulted.externalTrafficPolicy = spec.externalTrafficPolicy ?? 'Cluster';
      causes.push(...assignNodePorts(defaulted, old, context.nodePortsInUse(input.metadata)));
    } else {
      causes.push(...forbidNodePorts(defaulted));
    }
  }
  const object: KubeObject = { ...input, spec: defaulted };
  if (!old) object.status = { loadBalancer: {} };
  return { object, causes };
}

function defaultPort(port: unknown): unknown {
  if (!isRecord(port)) return port;
  return { protocol: 'TCP', ...port, targetPort: port.targetPort ?? port.port };
}

function validateServiceSpec(spec: Json): StatusCause[] {
  const causes: StatusCause[] = [];
  if (!SERVICE_TYPES.includes(String(spec.type)))
    causes.push(fieldError.notSupported('spec.type', spec.type, SERVICE_TYPES));
  if (spec.type === 'ExternalName' && !spec.externalName)
    causes.push(fieldError.required('spec.externalName'));
  const ports = Array.isArray(spec.ports) ? spec.ports : [];
  if (ports.length === 0 && spec.clusterIP !== HEADLESS && spec.type !== 'ExternalName')
    causes.push(fieldError.required('spec.ports'));
  const names = new Set<string>();
  ports.forEach((p: unknown, i) => {
    const at = `spec.ports[${i}]`;
    const port = isRecord(p) ? p : {};
    const name = typeof port.name === 'string' ? port.name : '';
    if (name === '' && ports.length > 1) causes.push(fieldError.required(`${at}.name`));
    else if (name !== '' && names.has(name)) causes.push(fieldError.duplicate(`${at}.name`, name));
    else if (name !== '') causes.push(...validateDnsLabel(name, `${at}.name`));
    names.add(name);
    if (!isPortNumber(port.port)) causes.push(fieldError.invalid(`${at}.port`, port.port ?? 0, PORT_RANGE));
    if (!PROTOCOLS.includes(String(port.protocol)))
      causes.push(fieldError.notSupported(`${at}.protocol`, port.protocol, PROTOCOLS));
    const target = port.targetPort;
    if (typeof target === 'number' && !isPortNumber(target))
      causes.push(fieldError.invalid(`${at}.targetPort`, target, PORT_RANGE));
  });
  return causes;
}

/** Sets `clusterIP` and `clusterIPs`: kept from the stored service, taken as asked, or allocated. */
function assignClusterIP(spec: Json, old: KubeObject | undefined, context: ServiceContext): StatusCause[] {
  const oldSpec = old && isRecord(old.spec) ? old.spec : undefined;
  const oldIP = typeof oldSpec?.clusterIP === 'string' ? oldSpec.clusterIP : undefined;
  const asked = typeof spec.clusterIP === 'string' && spec.clusterIP !== '' ? spec.clusterIP : undefined;
  if (oldIP !== undefined && oldSpec?.type !== 'ExternalName') {
    spec.clusterIP = asked ?? oldIP;
    spec.clusterIPs = spec.clusterIPs ?? oldSpec?.clusterIPs ?? [oldIP];
    return asked === undefined || asked === oldIP
      ? []
      : [fieldError.invalidLiteral('spec.clusterIPs[0]', goStringSlice([asked]), 'may not change once set')];
  }
  if (asked === HEADLESS) {
    spec.clusterIPs = [HEADLESS];
    return [];
  }
  const inUse = context.clusterIPsInUse();
  if (asked !== undefined) {
    spec.clusterIPs = [asked];
    const offset = offsetInRange(asked);
    if (offset === undefined)
      return [
        fieldError.invalidLiteral(
          'spec.clusterIPs',
          goStringSlice([asked]),
          `failed to allocate IP ${asked}: the provided IP (${asked}) is not in the valid range. The range of valid IPs is ${SERVICE_CIDR.text}`,
        ),
      ];
    if (inUse.has(asked))
      return [
        fieldError.invalidLiteral(
          'spec.clusterIPs',
          goStringSlice([asked]),
          `failed to allocate IP ${asked}: provided IP is already allocated`,
        ),
      ];
    return [];
  }
  const ip = freeAddress(inUse);
  if (ip === undefined)
    return [fieldError.invalid('spec.clusterIPs', [], 'failed to allocate a serviceIP: range is full')];
  spec.clusterIP = ip;
  spec.clusterIPs = [ip];
  return [];
}

/**
 * Gives each port of a NodePort or LoadBalancer service a node port: the one asked for, the one it
 * had (same port and protocol), or a free one from the range.
 */
function assignNodePorts(spec: Json, old: KubeObject | undefined, inUse: Set<number>): StatusCause[] {
  if (!Array.isArray(spec.ports)) return [];
  const oldPorts =
    old && isRecord(old.spec) && Array.isArray(old.spec.ports) ? old.spec.ports.filter(isRecord) : [];
  const causes: StatusCause[] = [];
  spec.ports = spec.ports.map((p: unknown, i) => {
    if (!isRecord(p)) return p;
    const at = `spec.ports[${i}].nodePort`;
    const kept = oldPorts.find((o) => o.port === p.port && o.protocol === p.protocol)?.nodePort;
    const asked = typeof p.nodePort === 'number' && p.nodePort !== 0 ? p.nodePort : undefined;
    const nodePort = asked ?? (typeof kept === 'number' ? kept : freeNodePort(inUse));
    if (nodePort === undefined) {
      causes.push(fieldError.invalid(at, 0, 'failed to allocate a nodePort: range is full'));
      return p;
    }
    if (nodePort < NODE_PORTS.first || nodePort > NODE_PORTS.last) {
      causes.push(
        fieldError.invalid(
          at,
          nodePort,
          `provided port is not in the valid range. The range of valid ports is ${NODE_PORTS.first}-${NODE_PORTS.last}`,
        ),
      );
    } else if (inUse.has(nodePort)) {
      causes.push(fieldError.invalid(at, nodePort, 'provided port is already allocated'));
    }
    inUse.add(nodePort);
    return { ...p, nodePort };
  });
  return causes;
}

function forbidNodePorts(spec: Json): StatusCause[] {
  const ports = Array.isArray(spec.ports) ? spec.ports : [];
  return ports.flatMap((p: unknown, i) =>
    isRecord(p) && typeof p.nodePort === 'number' && p.nodePort !== 0
      ? [
          fieldError.forbidden(
            `spec.ports[${i}].nodePort`,
            `may not be used when \`type\` is '${String(spec.type)}'`,
          ),
        ]
      : [],
  );
}

function freeNodePort(inUse: Set<number>): number | undefined {
  const span = NODE_PORTS.last - NODE_PORTS.first + 1;
  const start = randomInt(span);
  for (let i = 0; i < span; i++) {
    const port = NODE_PORTS.first + ((start + i) % span);
    if (!inUse.has(port)) return port;
  }
  return undefined;
}

/** A random free address (as kube picks them), searching on from there when it is taken. */
function freeAddress(inUse: Set<string>): string | undefined {
  const span = SERVICE_CIDR.size - FIRST_ALLOCATABLE - 1;
  const start = randomInt(span);
  for (let i = 0; i < span; i++) {
    const ip = addressAt(FIRST_ALLOCATABLE + ((start + i) % span));
    if (!inUse.has(ip)) return ip;
  }
  return undefined;
}

function addressAt(offset: number): string {
  const n = SERVICE_CIDR.base + offset;
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/** The address's offset in the service CIDR, excluding its network and broadcast addresses. */
function offsetInRange(ip: string): number | undefined {
  const octets = ip.split('.');
  if (octets.length !== 4 || !octets.every((o) => /^(0|[1-9]\d{0,2})$/.test(o) && Number(o) <= 255))
    return undefined;
  const n = octets.reduce((acc, o) => acc * 256 + Number(o), 0);
  const offset = n - SERVICE_CIDR.base;
  return offset > 0 && offset < SERVICE_CIDR.size - 1 ? offset : undefined;
}
