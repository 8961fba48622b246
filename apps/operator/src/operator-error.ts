/** The operator's own failures, each with a stable code; `error-mapping.ts` decides what each means. */
export type OperatorErrorCode =
  | 'USAGE'
  | 'INSTANCE_NOT_FOUND'
  | 'INSTANCE_INVALID'
  | 'CLOUD_INIT_SECRET_NOT_FOUND'
  | 'CLOUD_INIT_SECRET_INVALID'
  | 'NODE_NOT_FOUND'
  | 'TEMPLATE_NOT_FOUND'
  | 'STORAGE_NOT_FOUND'
  | 'NO_ISO_STORAGE'
  | 'VMID_OUT_OF_RANGE'
  | 'VMID_CONFLICT'
  | 'GUEST_BUSY';

export class OperatorError extends Error {
  override readonly name = 'OperatorError';

  constructor(
    readonly code: OperatorErrorCode,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
