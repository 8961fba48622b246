import type { IncomingMessage, ServerResponse } from 'node:http';
import FindMyWay from 'find-my-way';
import { getVolume } from './cluster-state.js';
import { cloudInitView } from './cloud-init-view.js';
import type { CallLog, FaultInjector, FaultInput } from './fault-injector.js';
import type { SimCore } from './sim-core.js';
import { BodyTooLargeError, readBodyText } from './request-body.js';

/** Test control under `/sim/` (not part of Proxmox VE): faults, reset, call log, what a VM sees. */
export interface SimControlDeps {
  core: SimCore;
  faults: FaultInjector;
  calls: CallLog;
  reset: () => void;
}

class ControlError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

type Params = Record<string, string | undefined>;
type Handler = (params: Params, body: unknown, url: URL) => unknown;

const MAX_CONTROL_BODY = 1024 * 1024;

export function createSimControl(
  deps: SimControlDeps,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const routes: [string, string, Handler][] = [
    [
      'GET',
      '/sim',
      () => ({
        description: 'pve-sim test control; not part of the Proxmox VE API',
        routes: routes.map(([m, p]) => `${m} ${p}`),
      }),
    ],
    ['GET', '/sim/faults', () => deps.faults.list()],
    ['POST', '/sim/faults', (_p, body) => deps.faults.add(asObject(body) as unknown as FaultInput)],
    [
      'DELETE',
      '/sim/faults',
      () => {
        deps.faults.clear();
        return null;
      },
    ],
    [
      'DELETE',
      '/sim/faults/:id',
      (p) => {
        if (!deps.faults.remove(Number(p.id))) throw new ControlError(404, `no fault ${p.id ?? ''}`);
        return null;
      },
    ],
    ['GET', '/sim/calls', () => deps.calls.list()],
    [
      'DELETE',
      '/sim/calls',
      () => {
        deps.calls.clear();
        return null;
      },
    ],
    [
      'POST',
      '/sim/reset',
      () => {
        deps.reset();
        return null;
      },
    ],
    [
      'GET',
      '/sim/vms/:vmid/cloudinit',
      (p) => {
        const view = cloudInitView(deps.core.state, vmOf(deps, p));
        if (!view)
          throw new ControlError(404, `VM ${p.vmid ?? ''} has no cloud-init drive or seed ISO attached`);
        return view;
      },
    ],
    [
      'GET',
      '/sim/vms/:vmid/console',
      (p) => {
        const vm = vmOf(deps, p);
        return { vmid: vm.vmid, running: vm.running, text: deps.core.vnc.consoleText(vm) };
      },
    ],
    [
      'POST',
      '/sim/vms/:vmid/behaviour',
      (p, body) => {
        const vm = vmOf(deps, p);
        const input = asObject(body);
        if (input.ignoreShutdown !== undefined) {
          if (typeof input.ignoreShutdown !== 'boolean')
            throw new ControlError(400, '"ignoreShutdown" must be a boolean');
          vm.ignoreShutdown = input.ignoreShutdown;
        }
        return { vmid: vm.vmid, ignoreShutdown: vm.ignoreShutdown };
      },
    ],
  ];
  const router = FindMyWay({ ignoreTrailingSlash: true });
  for (const [method, path, handler] of routes)
    router.on(method as 'GET', path, () => undefined, { handler });

  return async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://sim');
    try {
      if (req.method === 'GET' && url.pathname === '/sim/volume') {
        sendVolume(deps, url, res);
        return;
      }
      const found = router.find((req.method ?? 'GET') as 'GET', url.pathname);
      const handler = (found?.store as { handler: Handler } | undefined)?.handler;
      if (!found || !handler)
        throw new ControlError(404, `no test-control route ${req.method ?? ''} ${url.pathname}`);
      const body = req.method === 'POST' ? await readJson(req) : undefined;
      const data = handler(found.params, body, url);
      send(res, 200, { data: data ?? null });
    } catch (e: unknown) {
      const status = e instanceof ControlError ? e.status : 400;
      send(res, status, { error: e instanceof Error ? e.message : String(e) });
    }
  };
}

function vmOf(deps: SimControlDeps, p: Params) {
  const vm = deps.core.state.vms[Number(p.vmid)];
  if (!vm) throw new ControlError(404, `VM ${p.vmid ?? ''} does not exist`);
  return vm;
}

/** `GET /sim/volume?node=&volid=`: the bytes of an uploaded file, as stored. */
function sendVolume(deps: SimControlDeps, url: URL, res: ServerResponse): void {
  const volume = getVolume(
    deps.core.state,
    url.searchParams.get('node') ?? '',
    url.searchParams.get('volid') ?? '',
  );
  if (volume?.dataBase64 === undefined) throw new ControlError(404, 'no such uploaded volume');
  const data = Buffer.from(volume.dataBase64, 'base64');
  res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': data.length });
  res.end(data);
}

function asObject(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new ControlError(400, 'expected a JSON object');
  return body as Record<string, unknown>;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const text = await readBodyText(req, MAX_CONTROL_BODY).catch((e: unknown) => {
    throw e instanceof BodyTooLargeError ? new ControlError(413, 'body too large') : e;
  });
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ControlError(400, 'body is not valid JSON');
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const payload = Buffer.from(JSON.stringify(body));
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': payload.length });
  res.end(payload);
}
