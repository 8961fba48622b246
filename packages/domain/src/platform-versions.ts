import { z } from 'zod';

import { InvalidArgumentError, type FieldViolation } from './domain-error.js';

/** RFC 1123 label, as Kubernetes names its objects. */
const DNS_LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;
/** An image reference ending in its digest: `registry/name[:tag]@sha256:<64 hex>`. */
const IMAGE_BY_DIGEST = /^[^\s@]+@sha256:([0-9a-f]{64})$/;
const MAX_TEXT = 2048;

/**
 * A download is fetched over TLS, or from the local disk where there is no TLS server to fetch it from
 * (the sandbox, tests): `file:` URLs.
 */
function isDownloadUrl(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const { protocol } = new URL(text);
  return protocol === 'https:' || protocol === 'file:';
}

const dnsLabel = (what: string) =>
  z.string().regex(DNS_LABEL, `${what} must be a DNS label (lower-case letters, digits and '-', at most 63)`);

const platformComponentSchema = z
  .strictObject({
    name: dnsLabel('a component name'),
    version: z.string().min(1, 'a version must not be empty').max(128),
    downloadUrl: z
      .string()
      .max(MAX_TEXT)
      .refine(isDownloadUrl, 'must be an https:// URL (or a file: URL, for sandboxes and tests)')
      .optional(),
    image: z
      .string()
      .max(MAX_TEXT)
      .regex(IMAGE_BY_DIGEST, 'must be pinned by digest: an image reference ending in @sha256:<64 hex>')
      .optional(),
    checksumSha256: z
      .string({
        error: (issue) =>
          issue.input === undefined ? 'is required: a pin without a checksum is refused' : undefined,
      })
      .regex(SHA256_HEX, 'must be 64 lower-case hexadecimal digits (SHA-256)'),
  })
  .superRefine((component, context) => {
    const { downloadUrl, image } = component;
    if ((downloadUrl === undefined) === (image === undefined)) {
      context.addIssue({
        code: 'custom',
        path: downloadUrl === undefined ? ['downloadUrl'] : ['image'],
        message: 'a component has exactly one of downloadUrl and image',
      });
    }
    const digest = image === undefined ? undefined : IMAGE_BY_DIGEST.exec(image)?.[1];
    if (digest !== undefined && digest !== component.checksumSha256) {
      context.addIssue({
        code: 'custom',
        path: ['checksumSha256'],
        message: `must equal the image's digest (${digest})`,
      });
    }
  });

/**
 * The version pins of everything `nr cluster register` installs on a provider's agent VM, as
 * `GET /v1/platform-versions` answers them: a download (checked against its SHA-256) or an image (pulled
 * by its digest, which is the checksum) per component.
 */
export const platformVersionsSchema = z.strictObject({
  channel: dnsLabel('a channel'),
  components: z
    .array(platformComponentSchema)
    .max(100)
    .superRefine((components, context) => {
      const seen = new Set<string>();
      components.forEach((component, index) => {
        if (seen.has(component.name))
          context.addIssue({
            code: 'custom',
            path: [index, 'name'],
            message: `${component.name} is listed twice; names are unique`,
          });
        seen.add(component.name);
      });
    }),
});

export type PlatformVersions = z.infer<typeof platformVersionsSchema>;
export type PlatformComponent = PlatformVersions['components'][number];

/**
 * The document, checked; throws InvalidArgumentError whose field violations name each bad field by its
 * path (`components.2.checksumSha256`).
 */
export function parsePlatformVersions(value: unknown): PlatformVersions {
  const result = platformVersionsSchema.safeParse(value);
  if (result.success) return result.data;
  const violations: FieldViolation[] = result.error.issues.map((issue) => ({
    field: issue.path.length === 0 ? '(document)' : issue.path.join('.'),
    description: issue.message,
  }));
  throw new InvalidArgumentError(
    violations.map((v) => `${v.field}: ${v.description}`).join('; '),
    violations,
  );
}
