import {
  DomainError,
  hostnameProblem,
  parseIpAddress,
  parseMacAddress,
  storageIdProblem,
  type Problem,
} from '@noderings/domain';
import { z } from 'zod';

import type { CloudInitTemplate } from './cloud-init-template.service.js';

/** A document of a template, in characters: cloud-config is text, and this is far more than any needs. */
const MAX_DOCUMENT_LENGTH = 64 * 1024;
const MAX_NAME_LENGTH = 100;
const MAX_SAMPLE_KEYS = 20;
const MAX_NAMESERVERS = 8;
const ADDRESS_BITS = { ipv4: 32, ipv6: 128 } as const;
const PREFIX_LENGTH = /^(?:0|[1-9][0-9]{0,2})$/;

/** A field checked by one of the domain's rules, so that the message is the same wherever it is checked. */
function ruled<T extends z.ZodType>(schema: T, problem: (value: z.output<T>) => Problem): T {
  return schema.superRefine((value, ctx) => {
    const description = problem(value);
    if (description !== undefined) ctx.addIssue({ code: 'custom', message: description });
  });
}

/** The description of a domain parser's refusal. */
function refusalOf(parse: () => unknown): Problem {
  try {
    parse();
    return undefined;
  } catch (e: unknown) {
    if (e instanceof DomainError) return e.fieldViolations[0]?.description ?? e.message;
    throw e;
  }
}

function addressProblem(text: string, family: 'ipv4' | 'ipv6'): Problem {
  const refused = refusalOf(() => parseIpAddress(text, 'address'));
  if (refused !== undefined) return refused;
  return parseIpAddress(text, 'address').family === family
    ? undefined
    : `must be an ${family === 'ipv4' ? 'IPv4' : 'IPv6'} address`;
}

/** A VM's address with its prefix length, like 203.0.113.10/24 (host bits set, unlike a network prefix). */
function interfaceAddressProblem(text: string, family: 'ipv4' | 'ipv6'): Problem {
  const [address = '', length = '', ...rest] = text.split('/');
  const bits = ADDRESS_BITS[family];
  if (rest.length > 0 || !PREFIX_LENGTH.test(length) || Number(length) > bits)
    return `must be an address with its prefix length from /0 to /${bits}, like ${family === 'ipv4' ? '203.0.113.10/24' : '2001:db8::10/64'}`;
  return addressProblem(address, family);
}

function addressAndGateway(family: 'ipv4' | 'ipv6') {
  return z.strictObject({
    address: ruled(z.string().max(64), (a) => interfaceAddressProblem(a, family)),
    gateway: ruled(z.string().max(64), (g) => addressProblem(g, family)),
  });
}

const documentText = z.string().max(MAX_DOCUMENT_LENGTH);
const templateName = z.string().min(1).max(MAX_NAME_LENGTH);
const storage = ruled(z.string(), storageIdProblem).describe(
  'Proxmox storage the operator uploads the NoCloud seed image of each VM to; it must accept ISO images.',
);

const editableFields = {
  name: templateName,
  userData: documentText.describe('Must start with #cloud-config.'),
  vendorData: documentText.describe('Optional; empty means none.'),
  networkData: documentText.describe(
    'Optional network-config (version 1 or 2); empty lets the operator write one from the order.',
  ),
  storage,
};

export const createCloudInitTemplateBody = z.strictObject({
  ...editableFields,
  userData: editableFields.userData.optional(),
  vendorData: editableFields.vendorData.optional(),
  networkData: editableFields.networkData.optional(),
  storage: storage.optional(),
  copyFromId: z
    .uuid()
    .optional()
    .describe('A seed (or one of your templates) whose fields fill those left out.'),
});

export const updateCloudInitTemplateBody = z.strictObject(editableFields).partial();

export const listCloudInitTemplatesQuery = z.object({
  filterIsTemplate: z
    .stringbool()
    .optional()
    .describe("true: only the platform's seed templates; false: only yours; unset: both."),
});

export const renderSampleBody = z.strictObject({
  hostname: ruled(z.string().max(253), hostnameProblem).optional(),
  sshKeyIds: z
    .array(z.uuid())
    .max(MAX_SAMPLE_KEYS)
    .optional()
    .describe('Keys of your organization to render.'),
  withPassword: z
    .boolean()
    .optional()
    .describe('Render as if the order set a password (the hash is a placeholder).'),
  ipv4: addressAndGateway('ipv4').optional(),
  ipv6: addressAndGateway('ipv6').optional(),
  nameservers: z
    .array(ruled(z.string().max(64), (a) => refusalOf(() => parseIpAddress(a, 'nameserver'))))
    .max(MAX_NAMESERVERS)
    .optional(),
  macAddress: ruled(z.string().max(17), (m) => refusalOf(() => parseMacAddress(m, 'macAddress'))).optional(),
});

export const cloudInitTemplateView = z
  .object({
    id: z.string(),
    name: z.string(),
    userData: z.string(),
    vendorData: z.string(),
    networkData: z.string(),
    storage: z.string(),
    organizationId: z.string().nullable().describe('Null for the platform’s seed templates.'),
    isTemplate: z.boolean().describe('A seed template of the platform: it can only be copied.'),
    createTime: z.string().nullable(),
    updateTime: z.string().nullable(),
  })
  .meta({ id: 'CloudInitTemplate' });

export function toCloudInitTemplateView(t: CloudInitTemplate): z.infer<typeof cloudInitTemplateView> {
  return {
    id: t.id,
    name: t.name,
    userData: t.userData,
    vendorData: t.vendorData,
    networkData: t.networkData,
    storage: t.storage,
    organizationId: t.organizationId,
    isTemplate: t.isTemplate,
    createTime: t.createdAt?.toISOString() ?? null,
    updateTime: t.updatedAt?.toISOString() ?? null,
  };
}

/** A non-blocking remark on cloud-init data; `key` names the top-level key it is about, if any. */
export const cloudConfigWarningView = z
  .object({ code: z.string(), message: z.string(), line: z.number().int(), key: z.string() })
  .meta({ id: 'CloudInitWarning' });

export const renderedView = z.object({
  userData: z.string(),
  vendorData: z.string().nullable(),
  networkData: z.string().nullable(),
  warnings: z.array(cloudConfigWarningView),
});
