import { z } from 'zod';
import { isoDate } from '../../../shared/ledger.ts';
import { orgParams } from '../../http/routes.ts';

// The path parameters and the error body the ledger's route files share. The ledger's ids are
// checked for presence only (no 100 character cap), as they always were.

export const entryParams = orgParams.extend({ entryId: z.string().min(1) });
export const accountParams = orgParams.extend({ accountId: z.string().min(1) });
export const yearParams = orgParams.extend({ endDate: isoDate });
export const attachmentParams = entryParams.extend({ attachmentId: z.string().min(1) });

export const errorBody = z.object({
  error: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() }),
});
