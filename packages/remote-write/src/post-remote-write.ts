/** The headers remote-write 1.0 requires of a sender. */
export const REMOTE_WRITE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Encoding': 'snappy',
  'Content-Type': 'application/x-protobuf',
  'X-Prometheus-Remote-Write-Version': '0.1.0',
};

export interface RemoteWriteResponse {
  /** 2xx: stored. 4xx other than 429: refused, do not send again. 429 and 5xx: retry later. */
  readonly status: number;
  readonly ok: boolean;
  /** The receiver's explanation, if any (Prometheus answers a refusal in plain text). */
  readonly message: string;
}

/**
 * POSTs an encoded body (`encodeWriteRequest`) to a remote-write endpoint. `headers` add to the protocol's
 * (e.g. `Authorization`). Resolves with the answer whatever its status; rejects only when there was none.
 */
export async function postRemoteWrite(
  url: string | URL,
  body: Uint8Array,
  headers: Readonly<Record<string, string>> = {},
): Promise<RemoteWriteResponse> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...REMOTE_WRITE_HEADERS, ...headers },
    body,
  });
  const message = (await response.text()).trim();
  return { status: response.status, ok: response.ok, message };
}
