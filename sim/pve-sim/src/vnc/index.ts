// The VNC console of the simulated VMs: the RFB server vncwebsocket relays to, and a client to test it.
export { ConsoleScreen } from './console-screen.js';
export { readConsoleText } from './read-console-text.js';
export { RfbClient, RfbSecurityError } from './rfb-client.js';
export { serveRfb, type RfbSession } from './rfb-server.js';
