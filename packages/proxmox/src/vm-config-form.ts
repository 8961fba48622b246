import { PveInvalidArgumentError } from './errors.js';
import type { FormParams, FormValue } from './form-encoding.js';
import { encodeSshKeys } from './ssh-keys.js';
import type { VmConfigUpdate } from './types.js';

/** Separators of the list-valued config parameters. */
const LIST_SEPARATOR: Readonly<Record<string, string>> = { delete: ',', revert: ',', tags: ';' };

/** The form parameters of a config POST/PUT. */
export function vmConfigForm(update: VmConfigUpdate): FormParams {
  const form: Record<string, FormValue> = {};
  for (const [key, value] of Object.entries(update)) {
    if (key === 'sshkeys' && isList(value)) {
      form[key] = encodeSshKeys(value);
    } else if (isList(value)) {
      const separator = LIST_SEPARATOR[key];
      if (separator === undefined)
        throw new PveInvalidArgumentError({ pveMessage: `config parameter '${key}' does not take a list` });
      form[key] = value.join(separator);
    } else {
      form[key] = value;
    }
  }
  return form;
}

function isList(value: unknown): value is readonly string[] {
  return Array.isArray(value);
}
