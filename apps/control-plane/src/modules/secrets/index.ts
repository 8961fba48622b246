export { SecretRepository } from './secret.repository.js';
export { SecretService, UnreadableSecretError } from './secret.service.js';
export {
  claimTemplateVariableKey,
  keyTakenError,
  TEMPLATE_VARIABLE_VALUE_MAX_BYTES,
  templateVariableKey,
  templateVariableValue,
} from './template-variable.js';
export type { TemplateVariableKind } from './template-variable.js';
export { registerSecretModule } from './secret.module.js';
