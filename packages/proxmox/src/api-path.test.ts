import { expect, test } from 'vitest';

import { apiPath } from './api-path.js';

test('each interpolated value stays one path segment', () => {
  expect(apiPath`/nodes/${'pve1'}/storage/${'local'}/content/${'local:iso/seed 1.iso'}`).toBe(
    '/nodes/pve1/storage/local/content/local%3Aiso%2Fseed%201.iso',
  );
  expect(
    apiPath`/nodes/${'pve1'}/tasks/${'UPID:pve1:0000000A:0000000B:679A423B:qmstart:100:root@pam!sim:'}/status`,
  ).toBe(
    '/nodes/pve1/tasks/UPID%3Apve1%3A0000000A%3A0000000B%3A679A423B%3Aqmstart%3A100%3Aroot%40pam!sim%3A/status',
  );
  expect(apiPath`/nodes/${'pve1'}/qemu/${100}`).toBe('/nodes/pve1/qemu/100');
});
