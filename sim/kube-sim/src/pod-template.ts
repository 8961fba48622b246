import { isRecord } from './json-value.js';
import { validateDnsLabel } from './object-meta-validation.js';
import { fieldError, type StatusCause } from './status-error.js';

type Json = Record<string, unknown>;

const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
/** kube's `InclusiveRangeError(1, 65535)`. */
export const PORT_RANGE = 'must be between 1 and 65535, inclusive';

/**
 * A pod template with the defaults kube-apiserver's defaulting gives a pod spec and its containers
 * (only those that do not depend on anything but the template itself).
 */
export function defaultPodTemplate(template: unknown): Json {
  const t = isRecord(template) ? template : {};
  const spec = isRecord(t.spec) ? t.spec : {};
  const withContainers = (key: string): Json =>
    Array.isArray(spec[key]) ? { [key]: spec[key].map(defaultContainer) } : {};
  return {
    ...t,
    spec: {
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      securityContext: {},
      schedulerName: 'default-scheduler',
      ...spec,
      ...withContainers('containers'),
      ...withContainers('initContainers'),
    },
  };
}

function defaultContainer(container: unknown): unknown {
  if (!isRecord(container)) return container;
  const ports = Array.isArray(container.ports)
    ? { ports: container.ports.map((p: unknown) => (isRecord(p) ? { protocol: 'TCP', ...p } : p)) }
    : {};
  return {
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'File',
    imagePullPolicy: pullPolicyFor(container.image),
    ...container,
    ...ports,
  };
}

/** `Always` for an image without a tag or tagged `latest`, `IfNotPresent` otherwise, as kube defaults it. */
function pullPolicyFor(image: unknown): string {
  if (typeof image !== 'string') return 'IfNotPresent';
  if (image.includes('@')) return 'IfNotPresent';
  const lastPart = image.slice(image.lastIndexOf('/') + 1);
  const colon = lastPart.lastIndexOf(':');
  return colon < 0 || lastPart.slice(colon + 1) === 'latest' ? 'Always' : 'IfNotPresent';
}

/** What a (defaulted) pod template of a workload must satisfy; `at` is the template's path. */
export function validatePodTemplate(template: Json, at: string): StatusCause[] {
  const spec = isRecord(template.spec) ? template.spec : {};
  const causes: StatusCause[] = [];
  const containers = Array.isArray(spec.containers) ? spec.containers : [];
  if (containers.length === 0) causes.push(fieldError.required(`${at}.spec.containers`));
  const names = new Set<string>();
  const check = (list: unknown, key: string): void => {
    if (!Array.isArray(list)) return;
    list.forEach((c: unknown, i) => {
      const path = `${at}.spec.${key}[${i}]`;
      const container = isRecord(c) ? c : {};
      const name = container.name;
      if (typeof name !== 'string' || name === '') causes.push(fieldError.required(`${path}.name`));
      else if (names.has(name)) causes.push(fieldError.duplicate(`${path}.name`, name));
      else causes.push(...validateDnsLabel(name, `${path}.name`));
      if (typeof name === 'string') names.add(name);
      if (typeof container.image !== 'string' || container.image.trim() === '')
        causes.push(fieldError.required(`${path}.image`));
      causes.push(...validateContainerPorts(container.ports, `${path}.ports`));
      causes.push(...validateEnv(container.env, `${path}.env`));
    });
  };
  check(spec.initContainers, 'initContainers');
  check(spec.containers, 'containers');
  if (spec.restartPolicy !== 'Always')
    causes.push(fieldError.notSupported(`${at}.spec.restartPolicy`, spec.restartPolicy, ['Always']));
  return causes;
}

function validateContainerPorts(ports: unknown, at: string): StatusCause[] {
  if (!Array.isArray(ports)) return [];
  return ports.flatMap((p: unknown, i): StatusCause[] => {
    const port = isRecord(p) ? p : {};
    const causes: StatusCause[] = [];
    const number = port.containerPort;
    if (number === undefined || number === 0) causes.push(fieldError.required(`${at}[${i}].containerPort`));
    else if (!isPortNumber(number))
      causes.push(fieldError.invalid(`${at}[${i}].containerPort`, number, PORT_RANGE));
    if (!PROTOCOLS.includes(String(port.protocol)))
      causes.push(fieldError.notSupported(`${at}[${i}].protocol`, port.protocol, PROTOCOLS));
    return causes;
  });
}

function validateEnv(env: unknown, at: string): StatusCause[] {
  if (!Array.isArray(env)) return [];
  return env.flatMap((e: unknown, i) =>
    isRecord(e) && typeof e.name === 'string' && e.name !== ''
      ? []
      : [fieldError.required(`${at}[${i}].name`)],
  );
}

export function isPortNumber(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 65535;
}
