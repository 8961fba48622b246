import { AlreadyExistsError } from '@noderings/domain';

export function rulesetNameTaken(name: string): AlreadyExistsError {
  return new AlreadyExistsError(`The organization already has a firewall ruleset named ${name}.`);
}
