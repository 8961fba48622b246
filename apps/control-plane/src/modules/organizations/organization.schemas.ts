import { z } from 'zod';

export const organizationType = z.enum(['ORGANIZATION_TYPE_PROVIDER', 'ORGANIZATION_TYPE_CLIENT']);
export const memberRole = z.enum(['owner', 'admin', 'member']);

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
