import { z } from 'zod';
import { isoDate } from '../../../shared/ledger.ts';
import { orgParams } from '../../http/routes.ts';

// The path parameters the ledger's route files share (their error body is http/errors.ts's).
// The ledger's ids are checked for presence only (no 100 character cap), as they always were.

export const entryParams = orgParams.extend({ entryId: z.string().min(1) });
export const accountParams = orgParams.extend({ accountId: z.string().min(1) });
export const yearParams = orgParams.extend({ endDate: isoDate });
export const attachmentParams = entryParams.extend({ attachmentId: z.string().min(1) });
