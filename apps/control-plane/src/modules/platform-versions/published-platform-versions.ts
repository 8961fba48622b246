import { createHash } from 'node:crypto';

import type { PlatformVersions } from '@noderings/domain';

/** The document as served: it does not change while the control plane runs, so neither does its tag. */
export interface PublishedPlatformVersions {
  readonly document: PlatformVersions;
  /** A strong entity tag (RFC 9110 §8.8.3), quoted. */
  readonly etag: string;
  /** Whether an `If-None-Match` header names the tag the client has, so a 304 will do. */
  matches(ifNoneMatch: string | undefined): boolean;
}

export function publishPlatformVersions(document: PlatformVersions): PublishedPlatformVersions {
  const etag = `"${createHash('sha256').update(JSON.stringify(document)).digest('base64url')}"`;
  return {
    document,
    etag,
    // If-None-Match compares weakly: W/"x" matches "x" (RFC 9110 §13.1.2).
    matches: (ifNoneMatch) =>
      ifNoneMatch
        ?.split(',')
        .map((tag) => tag.trim().replace(/^W\//, ''))
        .some((tag) => tag === '*' || tag === etag) ?? false,
  };
}
