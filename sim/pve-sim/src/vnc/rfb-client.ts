import type { Duplex } from 'node:stream';

import { keysymForCharacter } from './keysym.js';
import { bytesPerPixel, decodePixel, encodePixelFormat, type PixelFormat } from './pixel-format.js';
import type { RasterImage } from './raster-image.js';
import type { Rect } from './rect.js';
import { ClientMessageType, Encoding, SecurityResult, SecurityType, ServerMessageType } from './rfb-codes.js';
import { StreamReader } from './stream-reader.js';
import { VNC_AUTH_CHALLENGE_LENGTH, vncAuthResponse } from './vnc-auth.js';

type RfbProtocolVersion = '3.3' | '3.7' | '3.8';

export interface RfbClientOptions {
  password: string;
  /** ClientInit's shared flag; false asks the server to disconnect every other client. Default true. */
  shared?: boolean;
  /** Any true-colour format; the default is 32-bit little-endian with red lowest, what noVNC asks for. */
  pixelFormat?: PixelFormat;
  /** The version to reply with. Default 3.8; the older ones are there to test servers. */
  protocolVersion?: RfbProtocolVersion;
}

/** The server refused the security handshake; `reason` is its explanation when the protocol carries one. */
export class RfbSecurityError extends Error {
  constructor(readonly reason: string | undefined) {
    super(
      reason === undefined ? 'VNC security handshake failed' : `VNC security handshake failed: ${reason}`,
    );
    this.name = 'RfbSecurityError';
  }
}

const CLIENT_PIXEL_FORMAT: PixelFormat = {
  bitsPerPixel: 32,
  depth: 24,
  bigEndian: false,
  trueColour: true,
  redMax: 255,
  greenMax: 255,
  blueMax: 255,
  redShift: 0,
  greenShift: 8,
  blueShift: 16,
};
const SERVER_VERSION_PATTERN = /^RFB 003\.\d{3}\n$/;
const SERVER_INIT_LENGTH = 24;

/**
 * A minimal RFB client for tests: VNC Authentication, Raw rectangles only, and a framebuffer kept as RGB.
 * Calls are sequential: await one before starting the next.
 */
export class RfbClient {
  private readonly framebuffer: Uint8Array;

  private constructor(
    private readonly stream: Duplex,
    private readonly reader: StreamReader,
    private readonly format: PixelFormat,
    /** The desktop name from ServerInit; Proxmox's QEMU sends the VM name. */
    readonly name: string,
    readonly width: number,
    readonly height: number,
  ) {
    this.framebuffer = new Uint8Array(width * height * 3);
  }

  /**
   * Runs the handshake up to ServerInit, then announces the pixel format and Raw encoding. Rejects with
   * RfbSecurityError when the server refuses the password; the stream is destroyed on any failure.
   */
  static async connect(stream: Duplex, options: RfbClientOptions): Promise<RfbClient> {
    const reader = new StreamReader(stream);
    const version = options.protocolVersion ?? '3.8';
    const format = options.pixelFormat ?? CLIENT_PIXEL_FORMAT;
    try {
      const serverVersion = (await reader.read(12)).toString('latin1');
      if (!SERVER_VERSION_PATTERN.test(serverVersion)) {
        throw new Error(`not an RFB 3.x server: ${JSON.stringify(serverVersion)}`);
      }
      stream.write(`RFB 003.00${version.slice(-1)}\n`);
      const securityType = await negotiateSecurity(stream, reader, version);
      if (securityType === SecurityType.VncAuthentication) {
        const challenge = await reader.read(VNC_AUTH_CHALLENGE_LENGTH);
        stream.write(vncAuthResponse(options.password, challenge));
      }
      // Before 3.8, security type None skips the SecurityResult.
      if (securityType === SecurityType.VncAuthentication || version === '3.8') {
        if ((await reader.readUint32()) !== SecurityResult.Ok) {
          throw new RfbSecurityError(version === '3.8' ? await readString(reader) : undefined);
        }
      }
      stream.write(Buffer.from([(options.shared ?? true) ? 1 : 0]));
      const init = await reader.read(SERVER_INIT_LENGTH);
      const name = (await reader.read(init.readUInt32BE(20))).toString('utf8');
      const client = new RfbClient(stream, reader, format, name, init.readUInt16BE(0), init.readUInt16BE(2));
      client.announce();
      return client;
    } catch (e: unknown) {
      stream.destroy();
      throw e;
    }
  }

  /** Asks for the whole screen and resolves once every pixel of it has arrived. */
  async fetchFrame(): Promise<RasterImage> {
    const covered = new Uint8Array(this.width * this.height);
    let missing = covered.length;
    this.requestUpdate(false);
    while (missing > 0) {
      for (const rect of await this.readUpdate()) {
        missing -= this.cover(covered, rect);
      }
    }
    return this.image();
  }

  /** Sends an incremental request for the whole screen and resolves with the next update's rectangles. */
  async nextUpdate(): Promise<Rect[]> {
    this.requestUpdate(true);
    return this.readUpdate();
  }

  /** A copy of the framebuffer as assembled so far. */
  image(): RasterImage {
    return { width: this.width, height: this.height, channels: 3, data: this.framebuffer.slice() };
  }

  sendKey(keysym: number, down: boolean): void {
    const message = Buffer.alloc(8);
    message.writeUInt8(ClientMessageType.KeyEvent, 0);
    message.writeUInt8(down ? 1 : 0, 1);
    message.writeUInt32BE(keysym, 4);
    this.stream.write(message);
  }

  /** Presses and releases the key of each character; a newline is Return. */
  typeText(text: string): void {
    for (const character of text) {
      const keysym = keysymForCharacter(character);
      if (keysym === undefined) {
        throw new RangeError(`no key types ${JSON.stringify(character)}`);
      }
      this.sendKey(keysym, true);
      this.sendKey(keysym, false);
    }
  }

  requestUpdate(
    incremental: boolean,
    region: Rect = { x: 0, y: 0, width: this.width, height: this.height },
  ): void {
    const message = Buffer.alloc(10);
    message.writeUInt8(ClientMessageType.FramebufferUpdateRequest, 0);
    message.writeUInt8(incremental ? 1 : 0, 1);
    message.writeUInt16BE(region.x, 2);
    message.writeUInt16BE(region.y, 4);
    message.writeUInt16BE(region.width, 6);
    message.writeUInt16BE(region.height, 8);
    this.stream.write(message);
  }

  close(): void {
    this.stream.destroy();
  }

  /** Marks a rectangle's pixels in `covered`; returns how many were not marked before. */
  private cover(covered: Uint8Array, rect: Rect): number {
    let added = 0;
    for (let y = rect.y; y < rect.y + rect.height; y++) {
      for (let x = rect.x; x < rect.x + rect.width; x++) {
        const index = y * this.width + x;
        if (covered[index] === 0) {
          covered[index] = 1;
          added++;
        }
      }
    }
    return added;
  }

  private announce(): void {
    const setPixelFormat = Buffer.alloc(4);
    setPixelFormat.writeUInt8(ClientMessageType.SetPixelFormat, 0);
    const setEncodings = Buffer.alloc(8);
    setEncodings.writeUInt8(ClientMessageType.SetEncodings, 0);
    setEncodings.writeUInt16BE(1, 2);
    setEncodings.writeInt32BE(Encoding.Raw, 4);
    this.stream.write(Buffer.concat([setPixelFormat, encodePixelFormat(this.format), setEncodings]));
  }

  /** Reads server messages up to the next FramebufferUpdate, paints it, and returns its rectangles. */
  private async readUpdate(): Promise<Rect[]> {
    for (;;) {
      const type = await this.reader.readUint8();
      if (type === ServerMessageType.FramebufferUpdate) {
        return this.readRectangles();
      }
      if (type === ServerMessageType.ServerCutText) {
        await this.reader.read(3);
        await readString(this.reader);
      } else if (type !== ServerMessageType.Bell) {
        throw new Error(`unexpected server message type ${type}`);
      }
    }
  }

  private async readRectangles(): Promise<Rect[]> {
    const count = (await this.reader.read(3)).readUInt16BE(1);
    const rects: Rect[] = [];
    for (let index = 0; index < count; index++) {
      const header = await this.reader.read(12);
      const rect = {
        x: header.readUInt16BE(0),
        y: header.readUInt16BE(2),
        width: header.readUInt16BE(4),
        height: header.readUInt16BE(6),
      };
      const encoding = header.readInt32BE(8);
      if (encoding !== Encoding.Raw) {
        throw new Error(`rectangle in encoding ${encoding}, but only Raw was offered`);
      }
      if (rect.x + rect.width > this.width || rect.y + rect.height > this.height) {
        throw new Error(
          `rectangle ${JSON.stringify(rect)} lies outside the ${this.width}x${this.height} screen`,
        );
      }
      this.paint(rect, await this.reader.read(rect.width * rect.height * bytesPerPixel(this.format)));
      rects.push(rect);
    }
    return rects;
  }

  private paint(rect: Rect, data: Buffer): void {
    const size = bytesPerPixel(this.format);
    let offset = 0;
    for (let y = rect.y; y < rect.y + rect.height; y++) {
      for (let x = rect.x; x < rect.x + rect.width; x++) {
        const colour = decodePixel(this.format, data, offset);
        offset += size;
        const target = (y * this.width + x) * 3;
        this.framebuffer[target] = colour.r;
        this.framebuffer[target + 1] = colour.g;
        this.framebuffer[target + 2] = colour.b;
      }
    }
  }
}

async function negotiateSecurity(
  stream: Duplex,
  reader: StreamReader,
  version: RfbProtocolVersion,
): Promise<number> {
  if (version === '3.3') {
    // The server decides; zero means it refused and explains why.
    const type = await reader.readUint32();
    if (type === SecurityType.Invalid) {
      throw new RfbSecurityError(await readString(reader));
    }
    if (type !== SecurityType.VncAuthentication && type !== SecurityType.None) {
      throw new Error(`the server insists on unsupported security type ${type}`);
    }
    return type;
  }
  const offered = [...(await reader.read(await reader.readUint8()))];
  if (offered.length === 0) {
    throw new RfbSecurityError(await readString(reader));
  }
  const chosen = [SecurityType.VncAuthentication, SecurityType.None].find((type) => offered.includes(type));
  if (chosen === undefined) {
    throw new Error(`the server offers only security types ${offered.join(', ')}`);
  }
  stream.write(Buffer.from([chosen]));
  return chosen;
}

/** A u32 length followed by that many bytes of UTF-8, RFB's only string shape. */
async function readString(reader: StreamReader): Promise<string> {
  return (await reader.read(await reader.readUint32())).toString('utf8');
}
