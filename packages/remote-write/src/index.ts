export type { DecodedWriteRequest, Label, Sample, TimeSeries, WriteRequest } from './types.js';
export { RemoteWriteError, type RemoteWriteErrorCode } from './remote-write-error.js';
export {
  decodeWriteRequest,
  DEFAULT_DECODE_LIMITS,
  MAX_TIMESTAMP_MS,
  type DecodeLimits,
} from './write-request-decoder.js';
export { encodeWriteRequest } from './write-request-encoder.js';
export { isStaleMarker, STALE_NAN } from './stale-marker.js';
export { postRemoteWrite, REMOTE_WRITE_HEADERS, type RemoteWriteResponse } from './post-remote-write.js';
export {
  createScrapeSender,
  RemoteWriteRefusedError,
  type ScrapedSample,
  type ScrapeSender,
  type ScrapeSenderOptions,
} from './scrape-sender.js';
