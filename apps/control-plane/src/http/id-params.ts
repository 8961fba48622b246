import { z } from 'zod';

/** `{id}` in a path: every object id is a UUID, so anything else is refused before a query runs. */
export const idParams = z.object({ id: z.uuid() });

export const successResponse = z.object({ success: z.boolean() }).meta({ id: 'Success' });
