import { z } from 'zod';
import { isoDate } from '../../../shared/ledger.ts';

// Parameters and error bodies the ledger's route files share.

export const tags = ['ledger'];
export const orgParams = z.object({ organizationId: z.string().min(1) });
export const entryParams = orgParams.extend({ entryId: z.string().min(1) });
export const accountParams = orgParams.extend({ accountId: z.string().min(1) });
export const yearParams = orgParams.extend({ endDate: isoDate });
export const attachmentParams = entryParams.extend({ attachmentId: z.string().min(1) });

export const errorBody = z.object({
  error: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() }),
});
