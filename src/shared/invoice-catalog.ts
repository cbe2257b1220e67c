import { z } from 'zod';
import { decimalText, isPositiveDecimalText, isoDate } from './input.ts';
import { parseDecimal } from './invoice-calc.ts';
import { currencyCodeInputSchema, minorAmount } from './money.ts';
import { numberedPageQuery, searchText } from './schema-parts.ts';

// Invoicing's field rules (currency, quantity, percentage, text) and the shapes of its
// reference data: customers, items, tax rates and the invoice settings.

export const isoDateSchema = isoDate;

export const currencySchema = currencyCodeInputSchema;

const decimalTextOf = (what: string, maxDecimals: number) =>
  decimalText({
    maxDecimals,
    message: `${what} must be a number with at most ${maxDecimals} decimal places.`,
  });

export const quantitySchema = decimalTextOf('Quantity', 6).refine(
  (q) => parseDecimal(q).n > 0n,
  'Quantity must be greater than zero.',
);
export const percentSchema = (what: string) =>
  decimalTextOf(what, 4).refine((p) => {
    const f = parseDecimal(p);
    return f.n <= 100n * f.d;
  }, `${what} must be between 0 and 100.`);

export const minorUnitsSchema = minorAmount();

/** An amount that must be more than zero; `what` names it in the message ("The refund must …"). */
export const positiveAmountSchema = (what: string) =>
  minorUnitsSchema.refine((a) => a > 0, `The ${what} must be greater than zero.`);

/** Base-currency units per one unit of a document's foreign currency, as exact decimal text. */
export const documentRateSchema = decimalText({
  maxDecimals: 10,
  message: 'The exchange rate is a positive decimal number.',
}).refine(isPositiveDecimalText, 'The exchange rate must be greater than zero.');

export const optionalText = (max: number) => z.string().trim().max(max, `At most ${max} characters.`);

/** The query of a list of things that can be archived: the search box, and whether to show archived ones. */
const archivableListQuery = { search: searchText, includeArchived: z.enum(['true', 'false']).optional() };

// Customers

/** Which customer a document or a row is about, with the customer's name. */
export const customerNamed = { customerId: z.string(), customerName: z.string() };

export const customerInputSchema = z.object({
  name: z.string().trim().min(1, 'Enter the customer name.').max(200, 'At most 200 characters.'),
  company: optionalText(200).default(''),
  email: z
    .string()
    .trim()
    .toLowerCase()
    .max(320)
    .refine((e) => e === '' || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(e), 'Please enter a valid email address.')
    .default(''),
  phone: optionalText(50).default(''),
  billingAddress: optionalText(1000).default(''),
  taxNumber: optionalText(50).default(''),
  currency: currencySchema.optional(),
  paymentTermsDays: z
    .number()
    .int()
    .min(0, 'Payment terms are 0 to 365 days.')
    .max(365, 'Payment terms are 0 to 365 days.')
    .default(30),
  notes: optionalText(2000).default(''),
});
export type CustomerInput = z.input<typeof customerInputSchema>;
export const customerUpdateSchema = customerInputSchema
  .partial()
  .extend({ archived: z.boolean().optional() });

export const customerSchema = z.object({
  id: z.string(),
  name: z.string(),
  company: z.string(),
  email: z.string(),
  phone: z.string(),
  billingAddress: z.string(),
  taxNumber: z.string(),
  currency: z.string(),
  paymentTermsDays: z.number(),
  notes: z.string(),
  archived: z.boolean(),
  /** Open balance in the base currency. */
  balance: z.number(),
  /** Credit the customer holds (overpayments, credit notes not yet used), in the base currency. */
  credit: z.number(),
  createdAt: z.string(),
});
export type Customer = z.infer<typeof customerSchema>;
export const customerListQuerySchema = z.object({ ...archivableListQuery, ...numberedPageQuery(500, 50) });
export type CustomerListQuery = z.infer<typeof customerListQuerySchema>;
export const customerListSchema = z.object({
  customers: z.array(customerSchema),
  totalCount: z.number(),
  page: z.number(),
  pageSize: z.number(),
});

// Items

export const itemInputSchema = z.object({
  name: z.string().trim().min(1, 'Enter the item name.').max(200, 'At most 200 characters.'),
  description: optionalText(2000).default(''),
  unitPrice: minorUnitsSchema,
  incomeAccountId: z.string().min(1).nullable().optional(),
  taxRateId: z.string().min(1).nullable().optional(),
});
export const itemUpdateSchema = itemInputSchema.partial().extend({ archived: z.boolean().optional() });
export const itemSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  unitPrice: z.number(),
  incomeAccountId: z.string(),
  taxRateId: z.string().nullable(),
  archived: z.boolean(),
});
export type Item = z.infer<typeof itemSchema>;
export const itemListQuerySchema = z.object(archivableListQuery);
export type ItemListQuery = z.infer<typeof itemListQuerySchema>;
export const itemListSchema = z.object({ items: z.array(itemSchema) });

// Tax rates

export const taxRateInputSchema = z.object({
  name: z.string().trim().min(1, 'Enter the tax name.').max(100, 'At most 100 characters.'),
  percent: percentSchema('Tax rate'),
  accountId: z.string().min(1).nullable().optional(),
  inclusive: z.boolean().default(false),
  compound: z.boolean().default(false),
});
export const taxRateUpdateSchema = z
  .object({
    name: taxRateInputSchema.shape.name.optional(),
    archived: z.boolean().optional(),
  })
  .refine(
    (v) => v.name !== undefined || v.archived !== undefined,
    'Send a new name or archived: true/false.',
  );
export const taxRateSchema = z.object({
  id: z.string(),
  name: z.string(),
  percent: z.string(),
  accountId: z.string(),
  inclusive: z.boolean(),
  compound: z.boolean(),
  archived: z.boolean(),
});
export type TaxRate = z.infer<typeof taxRateSchema>;

export const taxRateListSchema = z.object({ taxRates: z.array(taxRateSchema) });

/** Accounts invoicing can use: income, tax liabilities, bank and cash for deposits. */
export const invoicingAccountsSchema = z.object({
  accounts: z.array(
    z.object({
      id: z.string(),
      code: z.string(),
      name: z.string(),
      type: z.string(),
      subtype: z.string(),
      currency: z.string(),
      systemKey: z.string().nullable(),
    }),
  ),
});

export const invoiceSettingsSchema = z.object({
  invoicePrefix: z.string(),
  nextInvoiceNumber: z.number(),
  creditNotePrefix: z.string(),
  defaultTerms: z.string(),
  defaultNotes: z.string(),
  address: z.string(),
  taxNumber: z.string(),
  hasLogo: z.boolean(),
});
export type InvoiceSettings = z.infer<typeof invoiceSettingsSchema>;

export const invoiceSettingsUpdateSchema = z.object({
  invoicePrefix: z
    .string()
    .trim()
    .max(20, 'The prefix is at most 20 characters.')
    .regex(/^[A-Za-z0-9/_.-]*$/, 'The prefix may use letters, digits and - _ / . only.')
    .optional(),
  nextInvoiceNumber: z.number().int().min(1).max(999_999_999).optional(),
  creditNotePrefix: z
    .string()
    .trim()
    .max(20)
    .regex(/^[A-Za-z0-9/_.-]*$/, 'The prefix may use letters, digits and - _ / . only.')
    .optional(),
  defaultTerms: optionalText(4000).optional(),
  defaultNotes: optionalText(4000).optional(),
  address: optionalText(1000).optional(),
  taxNumber: optionalText(50).optional(),
  /** A PNG or JPEG as a data: URL; null removes the logo. */
  logo: z.string().max(700_000, 'The logo must be at most 500 KB.').nullable().optional(),
});
