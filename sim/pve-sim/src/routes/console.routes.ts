import { requirePrivilege, startTask, type Route, requestedVm } from '../sim-core.js';
import { NODE, OPTIONAL_BOOLEAN, VMID } from './common-params.js';

export function consoleRoutes(certPem: string): Route[] {
  return [
    {
      method: 'POST',
      path: '/nodes/:node/qemu/:vmid/vncproxy',
      params: {
        properties: {
          node: NODE,
          vmid: VMID,
          websocket: OPTIONAL_BOOLEAN,
          'generate-password': OPTIONAL_BOOLEAN,
        },
      },
      handler: (core, req) => {
        const vm = requestedVm(core, req);
        requirePrivilege(req, `/vms/${vm.vmid}`, 'VM.Console');
        const proxy = core.vnc.open(vm, req.identity);
        const upid = startTask(core, req, {
          node: vm.node,
          type: 'vncproxy',
          id: vm.vmid,
          work: () => proxy.done,
        });
        const withPassword = req.params.websocket === true || req.params['generate-password'] === true;
        return {
          user: req.identity.id,
          ticket: proxy.ticket,
          cert: certPem,
          port: proxy.port,
          upid,
          ...(withPassword ? { password: proxy.password } : {}),
        };
      },
    },
  ];
}
