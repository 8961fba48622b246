// The numbers RFB puts on the wire (RFC 6143 sections 7.5-7.7), shared by our server and client.

export const ClientMessageType = {
  SetPixelFormat: 0,
  SetEncodings: 2,
  FramebufferUpdateRequest: 3,
  KeyEvent: 4,
  PointerEvent: 5,
  ClientCutText: 6,
} as const;

export const ServerMessageType = {
  FramebufferUpdate: 0,
  SetColourMapEntries: 1,
  Bell: 2,
  ServerCutText: 3,
} as const;

export const Encoding = {
  Raw: 0,
} as const;

export const SecurityType = {
  Invalid: 0,
  None: 1,
  VncAuthentication: 2,
} as const;

export const SecurityResult = {
  Ok: 0,
  Failed: 1,
} as const;
