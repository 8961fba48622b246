export type { ErrorCode, FieldViolation } from './domain-error.js';
export {
  AbortedError,
  AlreadyExistsError,
  DomainError,
  FailedPreconditionError,
  InvalidArgumentError,
  NotFoundError,
  PermissionDeniedError,
  ResourceExhaustedError,
  UnauthenticatedError,
  UnavailableError,
} from './domain-error.js';
export type { City, Datacenter } from './region-catalogue.js';
export { CITIES, DATACENTERS, datacenterFitsCity, findCity, findDatacenter } from './region-catalogue.js';
