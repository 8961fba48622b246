// The VNC console of the simulated VMs: what vncwebsocket relays to, and a client to test it with.
export { ConsoleScreen, type ConsoleScreenOptions, type Rgb } from './console-screen.js';
export { Keysym } from './keysym.js';
export type { RasterImage } from './raster-image.js';
export { readConsoleText, UNREADABLE } from './read-console-text.js';
export { RfbClient, RfbSecurityError, type RfbClientOptions, type RfbProtocolVersion } from './rfb-client.js';
export { serveRfb, type RfbCloseReason, type RfbServerOptions, type RfbSession } from './rfb-server.js';
export { vncAuthResponse, verifyVncAuthResponse } from './vnc-auth.js';
