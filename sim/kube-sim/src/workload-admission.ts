import { goLabelSelector, goStringMap } from './go-literal.js';
import { isRecord, jsonEqual } from './json-value.js';
import type { KubeObject } from './kube-object.js';
import { LabelSelector } from './label-selector.js';
import { defaultPodTemplate, validatePodTemplate } from './pod-template.js';
import { fieldError, StatusError, type StatusCause } from './status-error.js';

type Json = Record<string, unknown>;

const SELECTOR_OPERATORS: Record<string, (key: string, values: string) => string> = {
  In: (key, values) => `${key} in (${values})`,
  NotIn: (key, values) => `${key} notin (${values})`,
  Exists: (key) => key,
  DoesNotExist: (key) => `!${key}`,
};

/** apps/v1 Deployment: kube's defaults (replicas, strategy, history, deadline, pod template) and validation. */
export function admitDeployment(
  input: KubeObject,
  old: KubeObject | undefined,
): { object: KubeObject; causes: StatusCause[] } {
  const spec = withoutNulls(input.spec);
  const strategy = isRecord(spec.strategy) ? spec.strategy : {};
  const type = strategy.type ?? 'RollingUpdate';
  const rollingUpdate = isRecord(strategy.rollingUpdate) ? strategy.rollingUpdate : {};
  const defaultedStrategy =
    type === 'RollingUpdate'
      ? { ...strategy, type, rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%', ...rollingUpdate } }
      : { ...strategy, type };
  const defaulted: Json = {
    replicas: 1,
    revisionHistoryLimit: 10,
    progressDeadlineSeconds: 600,
    ...spec,
    strategy: defaultedStrategy,
    template: defaultPodTemplate(spec.template),
  };
  const object = { ...input, spec: defaulted };
  const causes = validateWorkloadSpec(defaulted, old, 'deployment');
  if (typeof type !== 'string' || !['RollingUpdate', 'Recreate'].includes(type))
    causes.push(fieldError.notSupported('spec.strategy.type', type, ['Recreate', 'RollingUpdate']));
  if (type === 'Recreate' && strategy.rollingUpdate !== undefined && strategy.rollingUpdate !== null)
    causes.push(
      fieldError.forbidden(
        'spec.strategy.rollingUpdate',
        "may not be specified when strategy `type` is 'Recreate'",
      ),
    );
  return { object, causes };
}

/** apps/v1 DaemonSet: kube's defaults (update strategy, history, pod template) and validation. */
export function admitDaemonSet(
  input: KubeObject,
  old: KubeObject | undefined,
): { object: KubeObject; causes: StatusCause[] } {
  const spec = withoutNulls(input.spec);
  const strategy = isRecord(spec.updateStrategy) ? spec.updateStrategy : {};
  const type = strategy.type ?? 'RollingUpdate';
  const rollingUpdate = isRecord(strategy.rollingUpdate) ? strategy.rollingUpdate : {};
  const defaulted: Json = {
    revisionHistoryLimit: 10,
    ...spec,
    updateStrategy:
      type === 'RollingUpdate'
        ? { ...strategy, type, rollingUpdate: { maxUnavailable: 1, maxSurge: 0, ...rollingUpdate } }
        : { ...strategy, type },
    template: defaultPodTemplate(spec.template),
  };
  const causes = validateWorkloadSpec(defaulted, old, 'daemonset');
  if (typeof type !== 'string' || !['RollingUpdate', 'OnDelete'].includes(type))
    causes.push(fieldError.notSupported('spec.updateStrategy.type', type, ['OnDelete', 'RollingUpdate']));
  return { object: { ...input, spec: defaulted }, causes };
}

/** The spec's fields, less those set to null, which Go decodes as unset (and so defaults). */
function withoutNulls(spec: unknown): Json {
  return isRecord(spec) ? Object.fromEntries(Object.entries(spec).filter(([, v]) => v !== null)) : {};
}

/** The selector, its match with the template's labels, its immutability, replicas and the pod template. */
function validateWorkloadSpec(spec: Json, old: KubeObject | undefined, kind: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const selector = spec.selector;
  const template = isRecord(spec.template) ? spec.template : {};
  const metadata = isRecord(template.metadata) ? template.metadata : {};
  if (selector === undefined || selector === null) {
    causes.push(fieldError.required('spec.selector'));
  } else if (!isRecord(selector)) {
    causes.push(fieldError.invalid('spec.selector', selector, 'invalid label selector'));
  }
  const parsed = isRecord(selector) ? parseSelector(selector, causes) : undefined;
  if (isRecord(selector) && parsed?.empty)
    causes.push(
      fieldError.invalidLiteral(
        'spec.selector',
        goLabelSelector(selector),
        `empty selector is invalid for ${kind}`,
      ),
    );
  // A missing selector selects nothing, so kube reports the mismatch as well; an empty one everything.
  const labels = isRecord(metadata.labels) ? (metadata.labels as Record<string, string>) : undefined;
  const mismatch = parsed ? !parsed.empty && !parsed.matches(labels) : !isRecord(selector);
  if (mismatch) {
    causes.push(
      fieldError.invalidLiteral(
        'spec.template.metadata.labels',
        goStringMap(metadata.labels),
        '`selector` does not match template `labels`',
      ),
    );
  }
  const oldSpec = old && isRecord(old.spec) ? old.spec : undefined;
  if (oldSpec && !jsonEqual(oldSpec.selector, selector))
    causes.push(fieldError.invalidLiteral('spec.selector', goLabelSelector(selector), 'field is immutable'));
  if ('replicas' in spec) {
    const replicas = spec.replicas;
    if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0)
      causes.push(fieldError.invalid('spec.replicas', replicas, 'must be greater than or equal to 0'));
  }
  const history = spec.revisionHistoryLimit;
  if (typeof history === 'number' && history < 0)
    causes.push(
      fieldError.invalid('spec.revisionHistoryLimit', history, 'must be greater than or equal to 0'),
    );
  causes.push(...validatePodTemplate(template, 'spec.template'));
  return causes;
}

/** A structured selector as a LabelSelector, or undefined (with a cause) if kube could not convert it. */
function parseSelector(selector: Json, causes: StatusCause[]): LabelSelector | undefined {
  const before = causes.length;
  const parts: string[] = [];
  const matchLabels = isRecord(selector.matchLabels) ? selector.matchLabels : {};
  for (const [k, v] of Object.entries(matchLabels)) parts.push(`${k}=${String(v)}`);
  const expressions = Array.isArray(selector.matchExpressions) ? selector.matchExpressions : [];
  expressions.forEach((e: unknown, i) => {
    const r = isRecord(e) ? e : {};
    const render = SELECTOR_OPERATORS[String(r.operator)];
    const values = Array.isArray(r.values) ? r.values.map(String) : [];
    if (!render) {
      causes.push(
        fieldError.invalid(
          `spec.selector.matchExpressions[${i}].operator`,
          r.operator,
          'not a valid selector operator',
        ),
      );
    } else if ((r.operator === 'In' || r.operator === 'NotIn') && values.length === 0) {
      causes.push(
        fieldError.required(
          `spec.selector.matchExpressions[${i}].values`,
          "must be specified when `operator` is 'In' or 'NotIn'",
        ),
      );
    } else {
      parts.push(render(String(r.key), values.join(',')));
    }
  });
  if (causes.length > before) return undefined;
  try {
    return LabelSelector.parse(parts.join(','));
  } catch (e: unknown) {
    if (!(e instanceof StatusError)) throw e;
    causes.push(
      fieldError.invalidLiteral('spec.selector', goLabelSelector(selector), 'invalid label selector'),
    );
    return undefined;
  }
}
