import type { Bill, BillLineInput, Supplier } from '../../../shared/payables.ts';
import type { TaxRate } from '../../../shared/invoices.ts';
import { addDaysIso } from '../../../shared/invoices.ts';
import {
  type EditorLine,
  type LineCheck,
  checkLine,
  fromInvoiceLines,
  newLine,
  toApiLines,
} from '../invoices/editorState.ts';

// The bill editor's lines as typed: an invoice editor line (description, quantity, price,
// discount, taxes — the same checks and the same shared calculation the server uses) with the
// expense account it is booked to. Pure, so the rules are tested without a browser.

export type BillEditorLine = EditorLine & { accountId: string };

export type BillLineCheck = LineCheck & { accountId?: string };

/** A new line starting from the supplier's default account and tax. */
export const newBillLine = (supplier?: Pick<Supplier, 'defaultAccountId' | 'defaultTaxRateId'> | null) => ({
  ...newLine({ taxRateIds: supplier?.defaultTaxRateId ? [supplier.defaultTaxRateId] : [] }),
  accountId: supplier?.defaultAccountId ?? '',
});

/** What is wrong with a line as typed, field by field (empty when it can be saved). */
export const checkBillLine = (
  line: BillEditorLine,
  currency: string,
  taxRates: TaxRate[] = [],
): BillLineCheck => {
  const problems: BillLineCheck = checkLine(line, currency, taxRates);
  if (problems.description && line.description.trim() === '') problems.description = 'Describe the line.';
  if (!line.accountId) problems.accountId = 'Choose the account the cost is booked to.';
  return problems;
};

export const toApiBillLines = (lines: BillEditorLine[], currency: string): BillLineInput[] =>
  toApiLines(lines, currency).map((l, i) => ({ ...l, accountId: lines[i]!.accountId || null }));

export const fromBillLines = (lines: Bill['lines'], currency: string): BillEditorLine[] =>
  fromInvoiceLines(lines, currency).map((l, i) => ({ ...l, accountId: lines[i]!.accountId }));

/** When a line left on the supplier's old defaults is still untouched, the new supplier's defaults apply. */
export const applySupplierDefaults = (
  lines: BillEditorLine[],
  previous: Pick<Supplier, 'defaultAccountId' | 'defaultTaxRateId'> | null | undefined,
  next: Pick<Supplier, 'defaultAccountId' | 'defaultTaxRateId'>,
): BillEditorLine[] =>
  lines.map((l) => {
    const accountUntouched = !l.accountId || l.accountId === (previous?.defaultAccountId ?? '');
    const previousTax = previous?.defaultTaxRateId ? [previous.defaultTaxRateId] : [];
    const taxUntouched =
      l.taxRateIds.length === 0 ||
      (l.taxRateIds.length === previousTax.length && l.taxRateIds.every((t, i) => t === previousTax[i]));
    return {
      ...l,
      accountId: accountUntouched ? (next.defaultAccountId ?? l.accountId) : l.accountId,
      taxRateIds: taxUntouched && next.defaultTaxRateId ? [next.defaultTaxRateId] : l.taxRateIds,
    };
  });

/** The due date the supplier's terms give (the editor shows it until the date is typed). */
export const dueFromTerms = (issueDate: string, supplier: Pick<Supplier, 'paymentTermsDays'> | undefined) =>
  supplier && /^\d{4}-\d{2}-\d{2}$/.test(issueDate) ? addDaysIso(issueDate, supplier.paymentTermsDays) : '';

/** Where a server validation problem ("lines.1.unitPrice") belongs in the editor. */
export type FieldProblems = { fields: Record<string, string>; lines: Record<number, Record<string, string>> };

export const serverFieldProblems = (details: unknown): FieldProblems => {
  const result: FieldProblems = { fields: {}, lines: {} };
  if (!Array.isArray(details)) return result;
  for (const d of details) {
    if (!d || typeof d !== 'object') continue;
    const { field, message } = d as { field?: unknown; message?: unknown };
    if (typeof field !== 'string' || typeof message !== 'string') continue;
    const line = /^lines\.(\d+)\.(\w+)/.exec(field);
    if (line) {
      const n = Number(line[1]);
      const key = line[2] === 'taxRateIds' ? 'taxes' : line[2]!;
      result.lines[n] = { ...result.lines[n], [key]: message };
    } else {
      result.fields[field.split('.')[0]!] = message;
    }
  }
  return result;
};
