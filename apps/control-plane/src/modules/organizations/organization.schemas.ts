import { z } from 'zod';

import type { MemberRole } from '../../db/schema.js';
import { wireEnum } from '../../http/wire-enum.js';

export const organizationType = z.enum(['ORGANIZATION_TYPE_PROVIDER', 'ORGANIZATION_TYPE_CLIENT']);
export const memberRole = wireEnum({
  owner: 'MEMBER_ROLE_OWNER',
  admin: 'MEMBER_ROLE_ADMIN',
  member: 'MEMBER_ROLE_MEMBER',
} satisfies Record<MemberRole, string>);

export const organizationView = z
  .object({
    id: z.string(),
    name: z.string(),
    type: organizationType,
    isVerified: z.boolean(),
    createTime: z.string(),
  })
  .meta({ id: 'Organization' });

export const organizationName = z.string().trim().min(1).max(200);

export function toOrganizationView(o: {
  id: string;
  name: string;
  type: z.infer<typeof organizationType>;
  isVerified: boolean;
  createdAt: Date;
}): z.infer<typeof organizationView> {
  return {
    id: o.id,
    name: o.name,
    type: o.type,
    isVerified: o.isVerified,
    createTime: o.createdAt.toISOString(),
  };
}
