import { z } from 'zod';
import { billSchema } from './payables.ts';

// Paying (issue 15): response shapes of the payment, batch and supplier-credit routes that
// src/shared/payables.ts does not already hold. Kept in their own file so the paying work and
// the bills work each change only their own file.

/** A bill just paid: the bill as it is now, with the id of the payment recorded. */
export const paidBillSchema = billSchema.extend({ paymentId: z.string() });
export type PaidBill = z.infer<typeof paidBillSchema>;
