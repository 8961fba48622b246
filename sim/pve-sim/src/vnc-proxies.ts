import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, createWebSocketStream } from 'ws';
import { checkPermission, type AccessControl, type Identity } from './access-control.js';
import { vmName, type ClusterState, type SimVm } from './cluster-state.js';
import { PveError, TaskError } from './pve-error.js';
import { ConsoleScreen, serveRfb, type RfbSession } from './vnc/index.js';

const PORT_RANGE = { first: 5900, last: 5999 };
const PASSWORD_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

interface Proxy {
  port: number;
  vmid: number;
  node: string;
  password: string;
  identity: string;
  connected: boolean;
  session?: RfbSession;
  settle: (error?: Error) => void;
  timer: NodeJS.Timeout;
}

export interface VncProxyTicket {
  port: number;
  password: string;
  ticket: string;
  /** Resolves when the proxied session ends; rejects when nobody connects in time. */
  done: Promise<void>;
}

/**
 * The console side of `vncproxy`/`vncwebsocket`: one listening proxy per call, waiting a limited time
 * for exactly one connection, bridged to the VM's RFB server; and the VM consoles' screens.
 */
export class VncProxies {
  private readonly proxies = new Map<number, Proxy>();
  private readonly screens = new Map<number, ConsoleScreen>();
  private readonly wss = new WebSocketServer({
    noServer: true,
    handleProtocols: (protocols) => (protocols.has('binary') ? 'binary' : false),
  });

  constructor(
    private readonly connectTimeoutMs: number,
    private readonly state: () => ClusterState,
    private readonly access: AccessControl,
  ) {}

  open(vm: SimVm, identity: Identity): VncProxyTicket {
    const port = this.freePort();
    const password = randomPassword();
    let settle: (error?: Error) => void = () => undefined;
    const done = new Promise<void>((resolve, reject) => {
      settle = (error) => {
        if (error) reject(error);
        else resolve();
      };
    });
    // The task awaits this later; until then a timeout must not count as an unhandled rejection.
    done.catch(() => undefined);
    const timer = setTimeout(() => {
      const proxy = this.proxies.get(port);
      if (proxy && !proxy.connected) {
        this.proxies.delete(port);
        proxy.settle(new TaskError('connection timed out'));
      }
    }, this.connectTimeoutMs);
    timer.unref();
    this.proxies.set(port, {
      port,
      vmid: vm.vmid,
      node: vm.node,
      password,
      identity: identity.id,
      connected: false,
      settle,
      timer,
    });
    const ticket = `${password}:${this.access.mintVncTicket(identity, vm.vmid, port)}`;
    return { port, password, ticket, done };
  }

  /** `GET …/vncwebsocket?port=&vncticket=` with `Upgrade: websocket`. */
  upgrade(
    req: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    identity: Identity,
    node: string,
    vmid: number,
    port: number,
    vncticket: string,
  ): void {
    checkPermission(identity, `/vms/${vmid}`, ['VM.Console']);
    const proxy = this.proxies.get(port);
    const ticket = vncticket.slice(vncticket.indexOf(':') + 1);
    if (
      proxy?.vmid !== vmid ||
      proxy.node !== node ||
      proxy.identity !== identity.id ||
      !this.access.verifyVncTicket(identity, ticket, vmid, port)
    ) {
      throw new PveError(401, 'permission denied - invalid vnc ticket');
    }
    if (proxy.connected)
      throw new PveError(500, `unable to connect to VNC proxy port ${port} - connection refused`);
    proxy.connected = true;
    clearTimeout(proxy.timer);
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      const vm = this.state().vms[vmid];
      if (!vm?.running) {
        ws.close(1011, `VM ${vmid} not running`);
        this.finish(proxy, new TaskError(`VM ${vmid} not running`));
        return;
      }
      const stream = createWebSocketStream(ws);
      stream.on('error', () => undefined);
      proxy.session = serveRfb(stream, {
        password: proxy.password,
        desktopName: vmName(vm),
        screen: this.screenFor(vm),
        onClose: () => {
          this.finish(proxy);
        },
      });
    });
  }

  private finish(proxy: Proxy, error?: Error): void {
    if (this.proxies.get(proxy.port) !== proxy) return;
    this.proxies.delete(proxy.port);
    proxy.settle(error);
  }

  /** The VM's console, showing a login prompt while it runs. */
  screenFor(vm: SimVm): ConsoleScreen {
    let screen = this.screens.get(vm.vmid);
    if (!screen) {
      screen = new ConsoleScreen();
      this.screens.set(vm.vmid, screen);
    }
    const lines = this.linesFor(vm);
    if (screen.text().split('\n')[0] !== lines[0]) screen.setLines(lines);
    return screen;
  }

  consoleText(vm: SimVm): string {
    return vm.running ? this.screenFor(vm).text() : '';
  }

  private linesFor(vm: SimVm): string[] {
    if (!vm.running) return [''];
    const name = vmName(vm);
    return [`${vm.osName ?? 'Linux'} ${name} tty1`, '', `${name} login: `];
  }

  /** The VM stopped or went away: its sessions end and its screen is blank again. */
  closeVm(vmid: number): void {
    for (const proxy of [...this.proxies.values()]) {
      if (proxy.vmid !== vmid) continue;
      proxy.session?.close();
      this.finish(proxy);
    }
    this.screens.delete(vmid);
  }

  close(): void {
    for (const proxy of [...this.proxies.values()]) {
      clearTimeout(proxy.timer);
      proxy.session?.close();
      this.finish(proxy);
    }
    for (const client of this.wss.clients) client.terminate();
    this.wss.close();
  }

  private freePort(): number {
    for (let port = PORT_RANGE.first; port <= PORT_RANGE.last; port++)
      if (!this.proxies.has(port)) return port;
    throw new PveError(500, 'unable to find free port (5900-5999)');
  }
}

function randomPassword(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return [...bytes].map((b) => PASSWORD_ALPHABET[b % PASSWORD_ALPHABET.length]).join('');
}
