import { isMap, isScalar, LineCounter, parseDocument } from 'yaml';

import { CLOUD_CONFIG_HEADER } from './cloud-init-compiler.js';
import { CLOUD_CONFIG_KEYS } from './cloud-config-keys.js';
import { scanTemplate } from './template-expression.js';

/**
 * Things in user data that cloud-init would accept but probably not do what its author meant. They
 * never refuse anything: user data may well be a script, or cloud-config for a newer cloud-init.
 */
export type CloudConfigWarningCode =
  | 'NOT_CLOUD_CONFIG'
  | 'INVALID_YAML'
  | 'NOT_A_MAPPING'
  | 'UNKNOWN_KEY'
  | 'SSH_KEYS_NOT_USED'
  | 'PASSWORD_NOT_USED';

export interface CloudConfigWarning {
  readonly code: CloudConfigWarningCode;
  readonly message: string;
  /** 1-based. */
  readonly line: number;
  /** The top-level key the warning is about; empty when it is about no key. */
  readonly key: string;
}

/** cloud-init renders user data starting with this line as Jinja itself, on the VM, before reading it. */
const JINJA_HEADER = /^## template:\s*jinja\s*$/;

export function cloudConfigWarnings(userData: string): CloudConfigWarning[] {
  const lines = userData.split('\n', 2).map((l) => l.trimEnd());
  const jinja = JINJA_HEADER.test(lines[0] ?? '');
  const header = jinja ? lines[1] : lines[0];
  if (header?.startsWith('#!'))
    return [warning('NOT_CLOUD_CONFIG', 'is a script (#!): cloud-init runs it as it is', 1)];
  const warnings: CloudConfigWarning[] = [];
  if (header !== CLOUD_CONFIG_HEADER)
    warnings.push(
      warning(
        'NOT_CLOUD_CONFIG',
        `does not start with ${CLOUD_CONFIG_HEADER}: cloud-init will not read it as cloud-config`,
        1,
      ),
    );
  // Jinja is rendered on the VM, so its YAML can only be read after that.
  if (jinja) return warnings;
  const lineCounter = new LineCounter();
  const doc = parseDocument(userData, { version: '1.1', uniqueKeys: true, prettyErrors: false, lineCounter });
  const lineOf = (offset: number) => lineCounter.linePos(offset).line;
  for (const error of doc.errors) warnings.push(warning('INVALID_YAML', error.message, lineOf(error.pos[0])));
  if (doc.errors.length > 0 || doc.contents === null) return warnings;
  if (!isMap(doc.contents))
    return [
      ...warnings,
      warning('NOT_A_MAPPING', 'is not a mapping of cloud-config keys', lineOf(doc.contents.range[0])),
    ];
  for (const pair of doc.contents.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
    if (key === undefined || CLOUD_CONFIG_KEYS.has(key)) continue;
    const offset = isScalar(pair.key) ? pair.key.range[0] : 0;
    warnings.push({
      code: 'UNKNOWN_KEY',
      message: `${key} is not a cloud-config key: no cloud-init module reads it`,
      line: lineOf(offset),
      key,
    });
  }
  return warnings;
}

function warning(code: CloudConfigWarningCode, message: string, line: number): CloudConfigWarning {
  return { code, message, line, key: '' };
}

/**
 * The warnings of a provider's user-data template, with lines of the template: cloud-config warnings
 * (expressions read as plain text of their own width), and a template that never uses the customer's SSH
 * keys or password, which would create VMs nobody can log in to.
 */
export function templateWarnings(userDataTemplate: string): CloudConfigWarning[] {
  const { expressions } = scanTemplate(userDataTemplate);
  let neutral = '';
  let from = 0;
  for (const e of expressions) {
    neutral += userDataTemplate.slice(from, e.start) + '_'.repeat(e.end - e.start);
    from = e.end;
  }
  neutral += userDataTemplate.slice(from);
  const used = new Set(
    expressions.flatMap(({ expression }) =>
      expression.kind === 'variable' ? [expression.path.join('.')] : [],
    ),
  );
  const warnings: CloudConfigWarning[] = [];
  if (!used.has('ssh_authorized_keys'))
    warnings.push(
      warning(
        'SSH_KEYS_NOT_USED',
        'never uses {{ ssh_authorized_keys }}: the keys of an order do not reach the VM',
        1,
      ),
    );
  if (!used.has('password_hash'))
    warnings.push(
      warning(
        'PASSWORD_NOT_USED',
        'never uses {{ password_hash }}: the password of an order does not reach the VM',
        1,
      ),
    );
  return [...warnings, ...cloudConfigWarnings(neutral)];
}
