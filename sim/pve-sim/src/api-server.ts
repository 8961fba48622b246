import type { IncomingMessage, ServerResponse } from 'node:http';
import Busboy from 'busboy';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { displayValue, validateParams } from './param-schema.js';
import { PveError } from './pve-error.js';
import { BodyTooLargeError, readBodyText } from './request-body.js';
import type { ApiRequest, Route, SimCore, UploadedFile } from './sim-core.js';
import type { CallLog, FaultInjector, FaultRule } from './fault-injector.js';
import type { Identity } from './access-control.js';

export const API_PREFIX = '/api2/json';
const MAX_BODY_BYTES = 16 * 1024 * 1024;
const MAX_UPLOAD_BYTES = 512 * 1024 * 1024;

export interface ApiServerDeps {
  core: SimCore;
  routes: readonly Route[];
  faults: FaultInjector;
  calls: CallLog;
  /** PVE holds every 401 for a while to slow down password guessing. */
  authFailDelayMs: number;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** The `/api2/json` request pipeline: faults, routing, auth, parameters, handler, PVE's envelope. */
export function createApiHandler(deps: ApiServerDeps): Handler {
  const router = FindMyWay({ ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 1024 });
  for (const route of deps.routes) {
    // The handler slot is unused: the pipeline below reads the route from the store.
    router.on(route.method, route.path, () => undefined, { route });
  }

  return async (req, res) => {
    const method = (req.method ?? 'GET').toUpperCase();
    const url = new URL(req.url ?? '/', 'http://sim');
    const rawPath = url.pathname.slice(API_PREFIX.length) || '/';
    const path = safeDecode(rawPath);
    let status = 200;
    let identity: Identity | undefined;
    try {
      const fault = deps.faults.match(method, path);
      if (fault?.delayMs) await new Promise((r) => setTimeout(r, fault.delayMs));
      if (fault?.drop) {
        status = 0;
        req.socket.destroy();
        return;
      }
      if (fault?.status !== undefined) throw new PveError(fault.status, fault.message ?? 'injected fault');
      const found = router.find(method as HTTPMethod, rawPath);
      const route = (found?.store as { route: Route } | undefined)?.route;
      if (!found || !route) throw new PveError(501, `Method '${method} ${path}' not implemented`);
      identity = authenticate(deps, req, method, route);
      const { params, upload } = await readParams(req, url, route, found.params);
      const apiRequest: ApiRequest = {
        method,
        path,
        params: validateParams(route.params, params),
        identity,
        ...injectedTask(fault),
        ...(upload ? { upload } : {}),
      };
      const data: unknown = await route.handler(deps.core, apiRequest);
      sendJson(res, 200, undefined, { data: data ?? null });
    } catch (e: unknown) {
      const error = toPveError(e);
      status = error.status;
      if (status === 401) {
        await new Promise((r) => setTimeout(r, deps.authFailDelayMs));
        sendEmpty(res, 401, error.message);
      } else {
        sendError(res, error);
      }
    } finally {
      deps.calls.record({
        method,
        path,
        status,
        at: new Date().toISOString(),
        ...(identity ? { identity: identity.id } : {}),
      });
    }
  };
}

function authenticate(deps: ApiServerDeps, req: IncomingMessage, method: string, route: Route): Identity {
  if (route.path === '/access/ticket' && method === 'POST') return { userid: '', id: '', viaTicket: false };
  const csrf = req.headers.csrfpreventiontoken;
  return deps.core.access.authenticate(
    req.headers.authorization,
    req.headers.cookie,
    method,
    Array.isArray(csrf) ? csrf[0] : csrf,
  );
}

async function readParams(
  req: IncomingMessage,
  url: URL,
  route: Route,
  pathParams: Record<string, string | undefined>,
): Promise<{ params: Record<string, unknown>; upload?: UploadedFile }> {
  const body: Record<string, unknown> = {};
  let upload: UploadedFile | undefined;
  if (route.multipart) {
    upload = await readMultipart(req, body);
  } else if (req.method === 'POST' || req.method === 'PUT') {
    Object.assign(body, await readBody(req));
  }
  // Query parameters override the body; GET and DELETE take parameters only from the query.
  const merged: Record<string, unknown> = { ...body };
  for (const [k, v] of url.searchParams) merged[k] = v;
  for (const [k, v] of Object.entries(pathParams)) {
    if (v === undefined) continue;
    const given = merged[k];
    if (given !== undefined && displayValue(given) !== v) {
      throw new PveError(400, 'duplicate parameter (already defined in URI) with conflicting values!');
    }
    merged[k] = v;
  }
  return { params: merged, ...(upload ? { upload } : {}) };
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const text = await readBodyText(req, MAX_BODY_BYTES).catch((e: unknown) => {
    throw e instanceof BodyTooLargeError ? new PveError(413, 'request entity too large') : e;
  });
  if (text.trim() === '') return {};
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  if (type.startsWith('application/json')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (e: unknown) {
      throw new PveError(400, `malformed JSON string: ${(e as Error).message}`);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new PveError(400, 'malformed JSON string: expected an object');
    }
    return parsed as Record<string, unknown>;
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of new URLSearchParams(text)) out[k] = v;
  return out;
}

function readMultipart(
  req: IncomingMessage,
  fields: Record<string, unknown>,
): Promise<UploadedFile | undefined> {
  return new Promise((resolve, reject) => {
    let parser: Busboy.Busboy;
    try {
      parser = Busboy({ headers: req.headers, limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 20 } });
    } catch (e: unknown) {
      reject(new PveError(400, `unable to parse upload: ${(e as Error).message}`));
      return;
    }
    let upload: UploadedFile | undefined;
    let pending: Promise<void> = Promise.resolve();
    parser.on('field', (name, value) => {
      fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      const chunks: Buffer[] = [];
      pending = new Promise<void>((done, fail) => {
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('limit', () => {
          fail(new PveError(413, 'uploaded file too large'));
        });
        stream.on('end', () => {
          upload = { filename: info.filename ?? name, data: Buffer.concat(chunks) };
          fields[name] = upload.filename;
          done();
        });
      });
    });
    parser.on('error', (e: unknown) => {
      reject(new PveError(400, `unable to parse upload: ${e instanceof Error ? e.message : String(e)}`));
    });
    parser.on('close', () => {
      pending.then(() => {
        resolve(upload);
      }, reject);
    });
    req.pipe(parser);
  });
}

function toPveError(e: unknown): PveError {
  if (e instanceof PveError) return e;
  const message = e instanceof Error ? e.message : String(e);
  return new PveError(500, message);
}

const COMMON_HEADERS = {
  'Cache-Control': 'max-age=0',
  Pragma: 'no-cache',
  Server: 'pve-api-daemon/3.0',
};

/**
 * PVE sends the message's first line as the reason phrase, as raw UTF-8 bytes; Node writes a status
 * message as latin1, so the bytes are passed through that way. Control characters cannot go on the wire.
 */
export function reasonPhrase(message: string): string {
  const first = (message.split('\n')[0] ?? '').replace(/\p{Cc}/gu, '?').slice(0, 512);
  return Buffer.from(first || 'Error', 'utf8').toString('latin1');
}

function sendJson(
  res: ServerResponse,
  status: number,
  statusMessage: string | undefined,
  body: unknown,
): void {
  const payload = Buffer.from(JSON.stringify(body));
  res.writeHead(status, statusMessage ?? 'OK', {
    ...COMMON_HEADERS,
    Expires: new Date().toUTCString(),
    'Content-Type': 'application/json;charset=UTF-8',
    'Content-Length': payload.length,
  });
  res.end(payload);
}

function sendEmpty(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, reasonPhrase(message), { ...COMMON_HEADERS, 'Content-Length': 0 });
  res.end();
}

function sendError(res: ServerResponse, error: PveError): void {
  const message = error.message.endsWith('\n') ? error.message : `${error.message}\n`;
  sendJson(res, error.status, reasonPhrase(error.message), {
    data: null,
    ...(error.errors ? { errors: error.errors } : {}),
    message,
  });
}

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** What a fault rule asks of the task the request starts. */
function injectedTask(
  fault: FaultRule | undefined,
): Pick<ApiRequest, 'injectedTaskError' | 'injectedTaskWarnings' | 'injectedTaskMs'> {
  return {
    ...(fault?.taskError !== undefined ? { injectedTaskError: fault.taskError } : {}),
    ...(fault?.taskWarnings !== undefined ? { injectedTaskWarnings: fault.taskWarnings } : {}),
    ...(fault?.taskMs !== undefined ? { injectedTaskMs: fault.taskMs } : {}),
  };
}
