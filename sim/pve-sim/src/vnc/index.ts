// The VNC console of the simulated VMs: the RFB server vncwebsocket relays to, and a client to test it.
export { ConsoleScreen, type ConsoleScreenOptions } from './console-screen.js';
export { Keysym } from './keysym.js';
export { readConsoleText } from './read-console-text.js';
export { RfbClient, RfbSecurityError, type RfbClientOptions } from './rfb-client.js';
export { serveRfb, type RfbCloseReason, type RfbServerOptions, type RfbSession } from './rfb-server.js';
