import { AlreadyExistsError } from '@noderings/domain';

/** The organisation already has the key; its name, when known, says under which. */
export function duplicateSshKey(fingerprint: string, name: string | undefined): AlreadyExistsError {
  return new AlreadyExistsError(
    `The organization already has the SSH key ${fingerprint}${name === undefined ? '' : ` (named "${name}")`}.`,
  );
}
