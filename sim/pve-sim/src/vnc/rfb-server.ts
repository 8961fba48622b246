import { randomBytes } from 'node:crypto';
import type { Duplex } from 'node:stream';

import { ByteQueue } from './byte-queue.js';
import type { ConsoleScreen, ConsoleViewer } from './console-screen.js';
import {
  SERVER_PIXEL_FORMAT,
  bytesPerPixel,
  encodePixel,
  encodePixelFormat,
  pixelFormatProblem,
  readPixelFormat,
  type PixelFormat,
} from './pixel-format.js';
import { containsRect, intersectRects, isEmptyRect, unionRects, type Rect } from './rect.js';
import { ClientMessageType, Encoding, SecurityResult, SecurityType, ServerMessageType } from './rfb-codes.js';
import { VNC_AUTH_CHALLENGE_LENGTH, verifyVncAuthResponse } from './vnc-auth.js';

export type RfbCloseReason =
  /** The client hung up. */
  | 'client-closed'
  | 'auth-failed'
  /** The client sent something RFB does not allow; the stream was closed rather than guessed at. */
  | 'protocol-error'
  /** Valid RFB this server does not implement, such as colour-map pixel formats. */
  | 'unsupported'
  | 'stream-error'
  /** RfbSession.close() was called. */
  | 'server-closed'
  /** Another client connected without agreeing to share the desktop. */
  | 'taken-over'
  /** A bug in this server; the message has the stack. */
  | 'internal-error';

export interface RfbServerOptions {
  /** The VNC password; like every VNC server, only its first eight characters count. */
  password: string;
  /** Sent in ServerInit; Proxmox's QEMU sends the VM name. */
  desktopName: string;
  screen: RfbScreen;
  /** Called once, when the stream has closed for whatever reason. */
  onClose?: (reason: RfbCloseReason, message?: string) => void;
  /**
   * How long an incremental update request may find nothing new before an empty update answers it.
   * Clients ask again only after an answer, so this is also how often an idle console shows it is alive.
   */
  idleUpdateMs?: number;
}

/** What a session needs from the console it shows. */
type RfbScreen = Pick<ConsoleScreen, 'width' | 'height' | 'pixels' | 'palette' | 'attach' | 'typeKey'>;

export interface RfbSession {
  /** Ends the session as a server does when its VM goes away: flushes what was sent, then closes. */
  close(): void;
}

const SERVER_VERSION = 'RFB 003.008\n';
const VERSION_PATTERN = /^RFB (\d{3})\.(\d{3})\n$/;
const AUTH_FAILED_REASON = 'Authentication failed';
const DEFAULT_IDLE_UPDATE_MS = 1000;
/** How long a closing stream may take to flush before it is destroyed anyway. */
const CLOSE_GRACE_MS = 2000;
/** A cut-text length with the top bit set belongs to the Extended Clipboard extension, never offered here. */
const MAX_CUT_TEXT_LENGTH = 2 ** 31 - 1;
/** A value no palette index has, marking pixels this client has not been sent yet. */
const UNSENT = 0xff;

type ProtocolVersion = '3.3' | '3.7' | '3.8';
type Phase = 'version' | 'security-type' | 'vnc-auth' | 'client-init' | 'messages' | 'closed';

/**
 * Serves the server side of RFB (RFC 6143) over a byte stream, as QEMU's VNC server does behind
 * Proxmox's vncwebsocket: version 3.8 (3.3 and 3.7 replies accepted), VNC Authentication only, Raw
 * rectangles of the console screen in whatever true-colour format the client asks for, key presses typed
 * into the console. Anything malformed closes the stream; nothing here throws once the session runs.
 */
export function serveRfb(stream: Duplex, options: RfbServerOptions): RfbSession {
  if (options.password.length === 0) {
    throw new TypeError('VNC Authentication needs a non-empty password');
  }
  const idleUpdateMs = options.idleUpdateMs ?? DEFAULT_IDLE_UPDATE_MS;
  if (!Number.isFinite(idleUpdateMs) || idleUpdateMs <= 0) {
    throw new RangeError(`idleUpdateMs must be a positive number of milliseconds, not ${idleUpdateMs}`);
  }
  const session = new RfbServerSession(stream, options, idleUpdateMs);
  return {
    close: () => {
      session.close('server-closed');
    },
  };
}

class RfbViolation extends Error {
  constructor(
    readonly reason: 'protocol-error' | 'unsupported',
    message: string,
  ) {
    super(message);
  }
}

class RfbServerSession implements ConsoleViewer {
  private readonly input = new ByteQueue();
  private phase: Phase = 'version';
  private version: ProtocolVersion = '3.8';
  private readonly challenge = randomBytes(VNC_AUTH_CHALLENGE_LENGTH);
  private format: PixelFormat = SERVER_PIXEL_FORMAT;
  private paletteBytes: Buffer[];
  /** The palette index this client last received for each pixel, so incremental updates send only changes. */
  private readonly sent: Uint8Array;
  private cutTextToSkip = 0;
  private fullRequest: Rect | undefined;
  private incrementalRequest: Rect | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private detach: (() => void) | undefined;
  private closeReason: RfbCloseReason | undefined;
  private closeMessage: string | undefined;
  private closeReported = false;

  constructor(
    private readonly stream: Duplex,
    private readonly options: RfbServerOptions,
    private readonly idleUpdateMs: number,
  ) {
    const { screen } = options;
    this.sent = new Uint8Array(screen.width * screen.height).fill(UNSENT);
    this.paletteBytes = this.encodePalette();
    stream.on('data', (chunk: unknown) => {
      this.guard(() => {
        this.receive(chunk);
      });
    });
    stream.on('end', () => {
      this.close('client-closed');
    });
    stream.on('error', (e: unknown) => {
      this.close('stream-error', describe(e));
    });
    stream.on('drain', () => {
      this.guard(() => {
        this.flushUpdates();
      });
    });
    stream.on('close', () => {
      this.reportClose();
    });
    if (stream.destroyed) {
      // Its 'close' may have been emitted already; onClose must still be called once.
      process.nextTick(() => {
        this.reportClose();
      });
      return;
    }
    this.write(Buffer.from(SERVER_VERSION, 'latin1'));
  }

  changed(): void {
    this.guard(() => {
      this.flushUpdates();
    });
  }

  evict(): void {
    this.close('taken-over');
  }

  close(reason: RfbCloseReason, message?: string): void {
    if (this.closeReason !== undefined) {
      return;
    }
    this.closeReason = reason;
    this.closeMessage = message;
    this.phase = 'closed';
    this.detach?.();
    this.detach = undefined;
    this.stopIdleTimer();
    const stream = this.stream;
    const broken = reason === 'stream-error' || reason === 'internal-error';
    if (broken || stream.destroyed || stream.writableEnded) {
      stream.destroy();
      return;
    }
    // Ending first lets a SecurityResult or a last update reach the client before the close.
    const deadline = setTimeout(() => stream.destroy(), CLOSE_GRACE_MS).unref();
    stream.once('finish', () => {
      clearTimeout(deadline);
      stream.destroy();
    });
    stream.end();
  }

  private reportClose(): void {
    this.close('client-closed');
    if (!this.closeReported) {
      this.closeReported = true;
      this.options.onClose?.(this.closeReason ?? 'client-closed', this.closeMessage);
    }
  }

  /** Runs a handler so that nothing escapes into the stream's event emitter: failures close the session. */
  private guard(action: () => void): void {
    try {
      action();
    } catch (e: unknown) {
      if (e instanceof RfbViolation) {
        this.close(e.reason, e.message);
      } else {
        this.close('internal-error', describe(e));
      }
    }
  }

  private receive(chunk: unknown): void {
    if (this.phase === 'closed') {
      return;
    }
    if (!Buffer.isBuffer(chunk)) {
      throw new RfbViolation('protocol-error', 'the stream delivered text instead of bytes');
    }
    this.input.push(chunk);
    while (this.step()) {
      // Each step consumes one complete unit; stop when the rest has not arrived yet.
    }
  }

  /** Handles the next complete unit of input; false when more bytes are needed or the session ended. */
  private step(): boolean {
    switch (this.phase) {
      case 'version':
        return this.readVersion();
      case 'security-type':
        return this.readSecurityType();
      case 'vnc-auth':
        return this.readAuthResponse();
      case 'client-init':
        return this.readClientInit();
      case 'messages':
        return this.readMessage();
      case 'closed':
        return false;
    }
  }

  private readVersion(): boolean {
    if (this.input.length < SERVER_VERSION.length) {
      return false;
    }
    const reply = this.input.take(SERVER_VERSION.length).toString('latin1');
    const version = negotiatedVersion(reply);
    if (version === undefined) {
      throw new RfbViolation('protocol-error', `unusable ProtocolVersion ${JSON.stringify(reply)}`);
    }
    this.version = version;
    if (version === '3.3') {
      // A 3.3 client cannot choose: the server names the security type and sends the challenge at once.
      this.write(Buffer.concat([uint32(SecurityType.VncAuthentication), this.challenge]));
      this.phase = 'vnc-auth';
    } else {
      this.write(Buffer.from([1, SecurityType.VncAuthentication]));
      this.phase = 'security-type';
    }
    return true;
  }

  private readSecurityType(): boolean {
    if (this.input.length < 1) {
      return false;
    }
    const chosen = this.input.take(1).readUInt8(0);
    if (chosen !== SecurityType.VncAuthentication) {
      this.failSecurity('protocol-error', `security type ${chosen} was not offered`);
      return false;
    }
    this.write(this.challenge);
    this.phase = 'vnc-auth';
    return true;
  }

  private readAuthResponse(): boolean {
    if (this.input.length < VNC_AUTH_CHALLENGE_LENGTH) {
      return false;
    }
    const response = this.input.take(VNC_AUTH_CHALLENGE_LENGTH);
    if (!verifyVncAuthResponse(this.options.password, this.challenge, response)) {
      this.failSecurity('auth-failed', AUTH_FAILED_REASON);
      return false;
    }
    this.write(uint32(SecurityResult.Ok));
    this.phase = 'client-init';
    return true;
  }

  /** A failed SecurityResult; only 3.8 clients expect the reason string after it. */
  private failSecurity(reason: RfbCloseReason, message: string): void {
    const parts = [uint32(SecurityResult.Failed)];
    if (this.version === '3.8') {
      const text = Buffer.from(message, 'utf8');
      parts.push(uint32(text.length), text);
    }
    this.write(Buffer.concat(parts));
    this.close(reason, message);
  }

  private readClientInit(): boolean {
    if (this.input.length < 1) {
      return false;
    }
    const shared = this.input.take(1).readUInt8(0) !== 0;
    const { screen, desktopName } = this.options;
    this.detach = screen.attach(this, !shared);
    const name = Buffer.from(desktopName, 'utf8');
    const header = Buffer.alloc(24);
    header.writeUInt16BE(screen.width, 0);
    header.writeUInt16BE(screen.height, 2);
    encodePixelFormat(SERVER_PIXEL_FORMAT).copy(header, 4);
    header.writeUInt32BE(name.length, 20);
    this.write(Buffer.concat([header, name]));
    this.phase = 'messages';
    return true;
  }

  private readMessage(): boolean {
    if (this.cutTextToSkip > 0) {
      this.cutTextToSkip -= this.input.discard(this.cutTextToSkip);
      return this.cutTextToSkip === 0;
    }
    if (this.input.length < 1) {
      return false;
    }
    const type = this.input.peek(1).readUInt8(0);
    switch (type) {
      case ClientMessageType.SetPixelFormat:
        return this.consume(20, (message) => {
          this.setPixelFormat(readPixelFormat(message, 4));
        });
      case ClientMessageType.SetEncodings:
        // Every client must accept Raw, the only encoding sent here, so the list changes nothing.
        return this.input.length >= 4 && this.consume(4 + 4 * this.input.peek(4).readUInt16BE(2), ignore);
      case ClientMessageType.FramebufferUpdateRequest:
        return this.consume(10, (message) => {
          this.requestUpdate(message.readUInt8(1) !== 0, {
            x: message.readUInt16BE(2),
            y: message.readUInt16BE(4),
            width: message.readUInt16BE(6),
            height: message.readUInt16BE(8),
          });
        });
      case ClientMessageType.KeyEvent:
        return this.consume(8, (message) => {
          if (message.readUInt8(1) !== 0) {
            this.options.screen.typeKey(message.readUInt32BE(4));
          }
        });
      case ClientMessageType.PointerEvent:
        return this.consume(6, ignore);
      case ClientMessageType.ClientCutText:
        return this.consume(8, (message) => {
          this.skipCutText(message.readUInt32BE(4));
        });
      default:
        throw new RfbViolation('protocol-error', `unknown client message type ${type}`);
    }
  }

  /** Hands the next `length` bytes to `handle` once they have all arrived. */
  private consume(length: number, handle: (message: Buffer) => void): boolean {
    if (this.input.length < length) {
      return false;
    }
    handle(this.input.take(length));
    return true;
  }

  private skipCutText(length: number): void {
    if (length > MAX_CUT_TEXT_LENGTH) {
      throw new RfbViolation('protocol-error', 'extended clipboard message without negotiating it');
    }
    // Discarded as it streams in rather than buffered, so a large paste costs no memory.
    this.cutTextToSkip = length;
  }

  private setPixelFormat(format: PixelFormat): void {
    if (!format.trueColour) {
      throw new RfbViolation('unsupported', 'colour-map pixel formats are not supported');
    }
    const problem = pixelFormatProblem(format);
    if (problem !== undefined) {
      throw new RfbViolation('protocol-error', `SetPixelFormat: ${problem}`);
    }
    this.format = format;
    this.paletteBytes = this.encodePalette();
  }

  private encodePalette(): Buffer[] {
    return this.options.screen.palette.map((colour) => encodePixel(this.format, colour));
  }

  private requestUpdate(incremental: boolean, requested: Rect): void {
    const { width, height } = this.options.screen;
    // An empty region stays pending too: the client is still owed an answer.
    const region = intersectRects(requested, { x: 0, y: 0, width, height });
    if (incremental) {
      this.incrementalRequest = unionRects(this.incrementalRequest, region) ?? region;
    } else {
      this.fullRequest = unionRects(this.fullRequest, region) ?? region;
    }
    this.flushUpdates();
  }

  /**
   * Answers pending requests in one FramebufferUpdate: a non-incremental request gets its whole region,
   * an incremental one the part of its region that changed since this client last saw it. An incremental
   * request with nothing new waits for a change, or for the idle timer.
   */
  private flushUpdates(): void {
    if (this.phase !== 'messages' || this.stream.writableNeedDrain) {
      return;
    }
    const full = this.fullRequest;
    const incremental = this.incrementalRequest;
    const rects = full === undefined || isEmptyRect(full) ? [] : [full];
    const changed = incremental === undefined ? undefined : this.changedWithin(incremental);
    if (changed !== undefined && !(full !== undefined && containsRect(full, changed))) {
      rects.push(changed);
    }
    if (full === undefined && changed === undefined) {
      if (incremental !== undefined) {
        this.startIdleTimer();
      }
      return;
    }
    this.fullRequest = undefined;
    this.incrementalRequest = undefined;
    this.stopIdleTimer();
    this.sendUpdate(rects);
  }

  private changedWithin(region: Rect): Rect | undefined {
    const { pixels, width } = this.options.screen;
    let left = Infinity;
    let top = Infinity;
    let right = -1;
    let bottom = -1;
    for (let y = region.y; y < region.y + region.height; y++) {
      for (let x = region.x; x < region.x + region.width; x++) {
        if (pixels[y * width + x] !== this.sent[y * width + x]) {
          left = Math.min(left, x);
          right = Math.max(right, x);
          top = Math.min(top, y);
          bottom = y;
        }
      }
    }
    return right < 0 ? undefined : { x: left, y: top, width: right - left + 1, height: bottom - top + 1 };
  }

  private sendUpdate(rects: readonly Rect[]): void {
    const header = Buffer.alloc(4);
    header.writeUInt8(ServerMessageType.FramebufferUpdate, 0);
    header.writeUInt16BE(rects.length, 2);
    this.write(Buffer.concat([header, ...rects.map((rect) => this.encodeRaw(rect))]));
  }

  /** A Raw rectangle; also records its pixels as sent. */
  private encodeRaw(rect: Rect): Buffer {
    const { pixels, width } = this.options.screen;
    const size = bytesPerPixel(this.format);
    const out = Buffer.allocUnsafe(12 + rect.width * rect.height * size);
    out.writeUInt16BE(rect.x, 0);
    out.writeUInt16BE(rect.y, 2);
    out.writeUInt16BE(rect.width, 4);
    out.writeUInt16BE(rect.height, 6);
    out.writeInt32BE(Encoding.Raw, 8);
    let offset = 12;
    for (let y = rect.y; y < rect.y + rect.height; y++) {
      const start = y * width + rect.x;
      const row = pixels.subarray(start, start + rect.width);
      this.sent.set(row, start);
      for (const index of row) {
        const bytes = this.paletteBytes[index];
        if (bytes === undefined) {
          throw new Error(`pixel holds palette index ${index}, beyond the palette`);
        }
        // A byte loop beats Buffer.copy for pieces this small; a full frame is 288,000 of them.
        for (const byte of bytes) {
          out[offset++] = byte;
        }
      }
    }
    return out;
  }

  private startIdleTimer(): void {
    if (this.idleTimer !== undefined) {
      return;
    }
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      this.guard(() => {
        if (
          this.phase === 'messages' &&
          this.incrementalRequest !== undefined &&
          !this.stream.writableNeedDrain
        ) {
          this.incrementalRequest = undefined;
          this.sendUpdate([]);
        }
      });
    }, this.idleUpdateMs).unref();
  }

  private stopIdleTimer(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }

  private write(bytes: Buffer): void {
    if (!this.stream.destroyed && !this.stream.writableEnded) {
      this.stream.write(bytes);
    }
  }
}

/**
 * The version both sides speak, from the client's ProtocolVersion reply. RFC 6143 says versions other
 * than 3.7 and 3.8 must be treated as 3.3 (some clients send 3.5 or 3.6).
 */
function negotiatedVersion(reply: string): ProtocolVersion | undefined {
  const match = VERSION_PATTERN.exec(reply);
  if (match === null || Number(match[1]) !== 3 || Number(match[2]) < 3) {
    return undefined;
  }
  const minor = Number(match[2]);
  if (minor === 7) {
    return '3.7';
  }
  return minor >= 8 ? '3.8' : '3.3';
}

function uint32(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32BE(value, 0);
  return buffer;
}

function ignore(): void {
  // The message was read only to stay in step with the stream.
}

function describe(e: unknown): string {
  return e instanceof Error ? (e.stack ?? e.message) : String(e);
}
