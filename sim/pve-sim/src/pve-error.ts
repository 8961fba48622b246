/**
 * An error answered the way pve-http-server answers it: the status line carries the first line of the
 * message, the body is `{"data":null,"errors":{…},"message":"…\n"}`.
 */
export class PveError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: Readonly<Record<string, string>>,
  ) {
    super(message);
    this.name = 'PveError';
  }
}

const PARAMETER_VERIFICATION_FAILED = 'Parameter verification failed.';

/** 400 with per-parameter errors, as `raise_param_exc` produces. */
export function paramError(errors: Record<string, string>): PveError {
  return new PveError(400, PARAMETER_VERIFICATION_FAILED, errors);
}

/** A plain `die` inside an API handler: 500 with the message. */
export function die(message: string): PveError {
  return new PveError(500, message);
}

/** The error of a VM whose config file is not on the node the request names. */
export function noConfigFile(node: string, vmid: number): PveError {
  return die(`Configuration file 'nodes/${node}/qemu-server/${vmid}.conf' does not exist`);
}

/** A failure inside a task worker: becomes the task's exitstatus and its `TASK ERROR:` log line. */
export class TaskError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TaskError';
  }
}
