import { describe, expect, test } from 'vitest';

import { expectInstance } from './expect-instance.test-support.js';
import {
  LockedError,
  MalformedResponseError,
  PveNotFoundError,
  NotImplementedError,
  ParameterError,
  PvePermissionDeniedError,
  ProxmoxError,
  TaskFailedError,
  PveUnauthorizedError,
  VmNotRunningError,
  VmRunningError,
  VmidTakenError,
  errorFromResponse,
  parseTaskExitStatus,
} from './errors.js';

/** An error answer as pve-http-server 5.2+ sends it: first line in the status line, full text in `message`. */
function pveAnswer(status: number, message: string, errors?: Record<string, string>) {
  return {
    method: 'POST',
    path: '/nodes/pve1/qemu/100/config',
    status,
    statusText: message.split('\n')[0] ?? '',
    body: JSON.stringify({
      data: null,
      ...(errors === undefined ? {} : { errors }),
      message: `${message}\n`,
    }),
  };
}

describe('errorFromResponse: the reference error table', () => {
  test('a missing VM config is NotFound, with the text kept', () => {
    const error = errorFromResponse(
      pveAnswer(500, "Configuration file 'nodes/pve1/qemu-server/100.conf' does not exist"),
    );
    expect(error).toBeInstanceOf(PveNotFoundError);
    expect(error.pveMessage).toBe("Configuration file 'nodes/pve1/qemu-server/100.conf' does not exist");
    expect(error.status).toBe(500);
    expect(error.method).toBe('POST');
    expect(error.path).toBe('/nodes/pve1/qemu/100/config');
    expect(error.code).toBe('PVE_NOT_FOUND');
    expect(error.message).toContain('POST /nodes/pve1/qemu/100/config: 500 Configuration file');
  });

  test.each([
    'backup',
    'clone',
    'create',
    'migrate',
    'rollback',
    'snapshot',
    'snapshot-delete',
    'suspended',
    'destroyed',
  ])('VM is locked (%s) is Locked with the lock name', (lock) => {
    const error = errorFromResponse(pveAnswer(500, `VM is locked (${lock})`));
    expect(error).toBeInstanceOf(LockedError);
    expect(expectInstance(error, LockedError).lock).toBe(lock);
  });

  test('nextid on a taken VMID (a parameter error) is VmidTaken', () => {
    const error = errorFromResponse(
      pveAnswer(400, 'Parameter verification failed.', { vmid: 'VM 100 already exists\n' }),
    );
    expect(error).toBeInstanceOf(VmidTakenError);
    expect(expectInstance(error, VmidTakenError).vmid).toBe(100);
    expect(error.status).toBe(400);
  });

  test.each([
    ["unable to create VM 104 - VM 104 already exists on node 'pve2'", 104],
    ["unable to restore VM 105 - VM 105 already exists on node 'pve1'", 105],
    ['unable to create VM 106: config file already exists', 106],
  ])('%s is VmidTaken', (message, vmid) => {
    const error = errorFromResponse(pveAnswer(500, message));
    expect(error).toBeInstanceOf(VmidTakenError);
    expect(expectInstance(error, VmidTakenError).vmid).toBe(vmid);
  });

  test('destroying a running VM is VmRunning', () => {
    const error = errorFromResponse(pveAnswer(500, 'VM 103 is running - destroy failed'));
    expect(error).toBeInstanceOf(VmRunningError);
    expect(expectInstance(error, VmRunningError).vmid).toBe(103);
  });

  test('restoring over a running VM is VmRunning', () => {
    const error = errorFromResponse(pveAnswer(500, 'unable to restore VM 107 - vm is running'));
    expect(error).toBeInstanceOf(VmRunningError);
    expect(expectInstance(error, VmRunningError).vmid).toBe(107);
  });

  test('destroying a protected VM stays a generic error with its message', () => {
    const error = errorFromResponse(pveAnswer(500, "can't remove VM 100 - protection mode enabled"));
    expect(error.constructor).toBe(ProxmoxError);
    expect(error.pveMessage).toBe("can't remove VM 100 - protection mode enabled");
  });

  test('rebooting a stopped VM is VmNotRunning', () => {
    const error = errorFromResponse(pveAnswer(500, 'VM 100 not running'));
    expect(error).toBeInstanceOf(VmNotRunningError);
    expect(expectInstance(error, VmNotRunningError).vmid).toBe(100);
  });

  test('a config POST with nothing to set is a generic error', () => {
    const error = errorFromResponse(pveAnswer(500, 'no options specified'));
    expect(error.constructor).toBe(ProxmoxError);
    expect(error.code).toBe('PVE_ERROR');
  });

  test('an unknown task is NotFound, a malformed UPID a ParameterError', () => {
    expect(
      errorFromResponse(pveAnswer(400, 'Parameter verification failed.', { upid: 'no such task\n' })),
    ).toBeInstanceOf(PveNotFoundError);
    const unparsable = errorFromResponse(
      pveAnswer(400, 'Parameter verification failed.', { upid: 'unable to parse worker upid\n' }),
    );
    expect(unparsable).toBeInstanceOf(ParameterError);
    expect(expectInstance(unparsable, ParameterError).parameters).toEqual({
      upid: 'unable to parse worker upid',
    });
  });

  test.each([
    "storage 'nfs1' does not exist",
    "volume 'local:iso/seed.iso' does not exist",
    "snapshot 'before-upgrade' does not exist",
    'no rule at position 7',
  ])('%s is NotFound', (message) => {
    expect(errorFromResponse(pveAnswer(500, message))).toBeInstanceOf(PveNotFoundError);
  });
});

describe('errorFromResponse: statuses', () => {
  test('401 has an empty body and the reason in the status line', () => {
    const error = errorFromResponse({ status: 401, statusText: 'Authentication failed!', body: '' });
    expect(error).toBeInstanceOf(PveUnauthorizedError);
    expect(error.pveMessage).toBe('Authentication failed!');
    expect(error.status).toBe(401);
  });

  test('401 without a reason still says something', () => {
    const error = errorFromResponse({ status: 401, statusText: '', body: '' });
    expect(error).toBeInstanceOf(PveUnauthorizedError);
    expect(error.pveMessage).toBe('HTTP 401');
  });

  test('403 Permission check failed gives the ACL path and the privilege', () => {
    const error = errorFromResponse(pveAnswer(403, 'Permission check failed (/vms/100, VM.Allocate)'));
    expect(error).toBeInstanceOf(PvePermissionDeniedError);
    expect(expectInstance(error, PvePermissionDeniedError).aclPath).toBe('/vms/100');
    expect(expectInstance(error, PvePermissionDeniedError).privilege).toBe('VM.Allocate');
    expect(error.path).toBe('/nodes/pve1/qemu/100/config');
  });

  test('403 for an endpoint closed to tokens is PermissionDenied without a parsed privilege', () => {
    const error = errorFromResponse(
      pveAnswer(
        403,
        "Permission check failed (URI '/access/password' not available with API token, need proper ticket.)",
      ),
    );
    expect(error).toBeInstanceOf(PvePermissionDeniedError);
    expect(expectInstance(error, PvePermissionDeniedError).privilege).toBeUndefined();
    expect(error.pveMessage).toContain('not available with API token');
  });

  test('400 keeps every parameter message, trimmed of its newline', () => {
    const error = errorFromResponse(
      pveAnswer(400, 'Parameter verification failed.', {
        vmid: 'value does not look like a valid VM ID\n',
        cores: "type check ('integer') failed - got 'x'\n",
      }),
    );
    expect(error).toBeInstanceOf(ParameterError);
    expect(expectInstance(error, ParameterError).parameters).toEqual({
      vmid: 'value does not look like a valid VM ID',
      cores: "type check ('integer') failed - got 'x'",
    });
    expect(error.pveMessage).toBe('Parameter verification failed.');
    expect(error.message).toContain('cores: type check');
  });

  test('501 is NotImplemented', () => {
    const error = errorFromResponse(pveAnswer(501, "Method 'GET /x' not implemented"));
    expect(error).toBeInstanceOf(NotImplementedError);
    expect(error.pveMessage).toBe("Method 'GET /x' not implemented");
  });
});

describe('errorFromResponse: older servers and garbage', () => {
  test('a server before pve-http-server 5.2 sends only {data:null}: the status line is the message', () => {
    const error = errorFromResponse({
      status: 500,
      statusText: 'VM is locked (backup)',
      body: '{"data":null}',
    });
    expect(error).toBeInstanceOf(LockedError);
    expect(error.pveMessage).toBe('VM is locked (backup)');
  });

  test('an old 400 with errors but no message still is a ParameterError', () => {
    const error = errorFromResponse({
      status: 400,
      statusText: 'Parameter verification failed.',
      body: '{"data":null,"errors":{"sshkeys":"invalid format - invalid urlencoded string: a b\\n"}}',
    });
    expect(error).toBeInstanceOf(ParameterError);
    expect(expectInstance(error, ParameterError).parameters).toEqual({
      sshkeys: 'invalid format - invalid urlencoded string: a b',
    });
  });

  test('the full message wins over the status line, which holds only its first line', () => {
    const error = errorFromResponse({
      status: 500,
      statusText: 'first line',
      body: JSON.stringify({ data: null, message: 'first line\nsecond line\n' }),
    });
    expect(error.pveMessage).toBe('first line\nsecond line');
  });

  test.each([
    ['an HTML page from a proxy', 502, 'Bad Gateway', '<html><body><h1>502 Bad Gateway</h1></body></html>'],
    ['truncated JSON', 500, 'Internal Server Error', '{"data":nu'],
    ['a JSON list', 500, 'oops', '[1,2,3]'],
    ['JSON null', 500, 'oops', 'null'],
    ['a non-string message and errors', 500, 'oops', '{"message":42,"errors":"x"}'],
  ])('%s gives a typed error, never a TypeError', (_what, status, statusText, body) => {
    const error = errorFromResponse({ status, statusText, body });
    expect(error).toBeInstanceOf(ProxmoxError);
    expect(error.status).toBe(status);
    expect(error.pveMessage).toBe(statusText);
  });

  test('errors with non-string values are kept as text', () => {
    const error = errorFromResponse({
      status: 400,
      statusText: 'Parameter verification failed.',
      body: '{"data":null,"errors":{"net0":{"bridge":"missing"}}}',
    });
    expect(expectInstance(error, ParameterError).parameters).toEqual({ net0: '{"bridge":"missing"}' });
  });

  test('a 404 (from something in front of Proxmox) is NotFound', () => {
    expect(errorFromResponse({ status: 404, statusText: 'Not Found', body: '<html></html>' })).toBeInstanceOf(
      PveNotFoundError,
    );
  });

  test('MalformedResponseError belongs to the catalogue', () => {
    expect(new MalformedResponseError({ pveMessage: 'x' })).toBeInstanceOf(ProxmoxError);
  });
});

describe('task exit status', () => {
  test.each([
    ['OK', { ok: true, warnings: 0 }],
    ['WARNINGS: 3', { ok: true, warnings: 3 }],
    ['job errors', { ok: false }],
    ['unexpected status', { ok: false }],
    ['WARNINGS: many', { ok: false }],
  ])('%s', (exitstatus, outcome) => {
    expect(parseTaskExitStatus(exitstatus)).toEqual(outcome);
  });

  test.each([
    ['VM 100 already running', VmRunningError],
    ['VM is locked (backup)', LockedError],
    ["Configuration file 'nodes/pve1/qemu-server/100.conf' does not exist", PveNotFoundError],
  ])('a task failing with "%s" names the synchronous error as its reason', (exitstatus, kind) => {
    const error = new TaskFailedError({ upid: 'UPID:x', exitstatus, logTail: [`TASK ERROR: ${exitstatus}`] });
    expect(error.reason).toBeInstanceOf(kind);
    expect(error.exitstatus).toBe(exitstatus);
    expect(error.logTail).toEqual([`TASK ERROR: ${exitstatus}`]);
  });

  test('a backup job that failed on a locked guest names the lock as its reason', () => {
    const error = new TaskFailedError({
      upid: 'UPID:x',
      exitstatus: 'job errors',
      logTail: [
        'INFO: Starting Backup of VM 101 (qemu)',
        'ERROR: Backup of VM 101 failed - VM is locked (snapshot)',
        'INFO: Failed at 2026-12-02 03:00:01',
        'TASK ERROR: job errors',
      ],
    });
    expect(error.reason).toBeInstanceOf(LockedError);
    expect((error.reason as LockedError).lock).toBe('snapshot');
    expect(error.pveMessage).toBe('job errors');
  });

  test.each([
    "you can't start a vm if it's a template",
    'VM quit/powerdown failed - got timeout',
    "clone failed: can't lock file '/var/lock/pve-manager/pve-storage-local-lvm' - got timeout",
    'clone failed: insufficient free space',
  ])('a task failing with "%s" has no more specific reason', (exitstatus) => {
    const error = new TaskFailedError({ upid: 'UPID:x', exitstatus, logTail: [] });
    expect(error.reason).toBeUndefined();
    expect(error.pveMessage).toBe(exitstatus);
    expect(error.code).toBe('PVE_TASK_FAILED');
  });
});
