import { badRequest } from '../../../shared/errors.ts';
import type { BillLineInput } from '../../../shared/payables.ts';
import { type PreparedLine, calculatePreparedLines, lineRows, normalizeDecimal } from '../invoices/common.ts';
import { selectItemsByIds, selectTaxRatesByIds } from '../invoices/queries.ts';
import { selectAccountsByIds } from '../ledger/queries.ts';
import type { Executor } from './queries.ts';

// Resolving a bill's (or a supplier credit's) lines, as invoices/common.ts's prepareLines does
// for invoices: each line's item, tax rates and account are looked up in the company, the
// supplier's defaults fill what the line leaves out (its expense account and its tax), and the
// document is calculated by the one shared function (shared/invoice-calc.ts calculateInvoice).
// A bill line posts to an expense (cost of sales included) or an asset account — not to a
// money account, receivables or payables, which documents of their own move.

/** Asset subtypes a bill line cannot post to: money and receivables move through their own documents. */
const NOT_FOR_BILL_LINES = new Set(['bank', 'cash', 'cash_equivalent', 'accounts_receivable']);

/** The supplier's defaults a line starts with. */
export type LineDefaults = { accountId: string | null; taxRateId: string | null };

const lineError = (code: string, line: number, message: string) =>
  badRequest(code, `Line ${line}: ${message}`, { line });

export const resolveBillLines = async (
  db: Executor,
  organizationId: string,
  lines: BillLineInput[],
  defaults: LineDefaults,
  options: { allowArchived?: boolean } = {},
) => {
  const itemIds = [...new Set(lines.map((l) => l.itemId).filter((id): id is string => Boolean(id)))];
  const items = new Map((await selectItemsByIds(db, organizationId, itemIds)).map((i) => [i.id, i]));
  const taxIdsOf = (line: BillLineInput) =>
    line.taxRateIds ?? (defaults.taxRateId ? [defaults.taxRateId] : []);
  const taxIds = [...new Set(lines.flatMap(taxIdsOf))];
  const taxes = new Map((await selectTaxRatesByIds(db, organizationId, taxIds)).map((t) => [t.id, t]));
  const accountIds = [
    ...new Set(lines.map((l) => l.accountId ?? defaults.accountId).filter((id): id is string => Boolean(id))),
  ];
  const accounts = new Map((await selectAccountsByIds(db, organizationId, accountIds)).map((a) => [a.id, a]));

  const prepared = lines.map((line, i) => {
    const n = i + 1;
    const item = line.itemId ? items.get(line.itemId) : undefined;
    if (line.itemId && !item)
      throw lineError('item_not_found', n, 'the item does not exist in this company.');
    if (item?.archived_at && !options.allowArchived)
      throw lineError('item_archived', n, `the item ${item.name} is archived. Restore it or choose another.`);
    const accountId = line.accountId ?? defaults.accountId;
    if (!accountId) {
      throw lineError(
        'account_required',
        n,
        'choose the expense account it goes to (the supplier has no default account).',
      );
    }
    const account = accounts.get(accountId);
    if (!account) throw lineError('account_not_found', n, 'the account does not exist in this company.');
    if (account.archived_at)
      throw lineError(
        'account_archived',
        n,
        `${account.code} ${account.name} is archived. Choose another account.`,
      );
    if (
      !(account.type === 'expense' || (account.type === 'asset' && !NOT_FOR_BILL_LINES.has(account.subtype)))
    ) {
      throw lineError(
        'invalid_account',
        n,
        `post bill lines to an expense, cost of sales or asset account, not ${account.code} ${account.name}.`,
      );
    }
    const taxRateIds = taxIdsOf(line);
    for (const id of taxRateIds) {
      const rate = taxes.get(id);
      if (!rate) throw lineError('tax_rate_not_found', n, 'the tax rate does not exist in this company.');
      if (rate.archived_at && !options.allowArchived)
        throw lineError(
          'tax_rate_archived',
          n,
          `the tax rate ${rate.name} is archived. Choose a current rate.`,
        );
    }
    const description = (line.description ?? '').trim() || item?.name || '';
    if (!description) throw lineError('line_description_required', n, 'describe the line or choose an item.');
    return {
      itemId: item?.id ?? null,
      description,
      quantity: normalizeDecimal(line.quantity),
      unitPrice: line.unitPrice,
      discountPercent: normalizeDecimal(line.discountPercent ?? '0'),
      taxRateIds,
      accountId,
    };
  });

  return calculatePreparedLines(prepared, taxes);
};

/** Rows for bill_lines (the same columns as invoice_lines). */
export const billLineRows = lineRows;

/** Stores a document's resolved lines. */
export const insertBillLines = async (
  db: Executor,
  organizationId: string,
  documentId: string,
  lines: PreparedLine[],
) => {
  await db
    .insertInto('bill_lines')
    .values(billLineRows(organizationId, documentId, lines))
    .execute();
};
