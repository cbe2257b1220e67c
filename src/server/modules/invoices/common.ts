import { sql } from 'kysely';
import { badRequest, conflict, notFound } from '../../../shared/errors.ts';
import {
  InvoiceCalcError,
  type InvoiceLineInput,
  type LineResult,
  type TaxForCalc,
  calculateInvoice,
} from '../../../shared/invoices.ts';
import {
  AMOUNT_LIMIT_MESSAGE,
  LEDGER_VOLUME_LIMIT,
  MAX_AMOUNT_MINOR,
  convertMinor,
  isCurrencyCode,
} from '../../../shared/money.ts';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { findSystemAccount } from '../ledger/accounts.ts';
import type { PostingLineInput } from '../ledger/posting.ts';
import { selectAccountsByIds } from '../ledger/queries.ts';
import {
  type Executor,
  selectCompany,
  selectCustomer,
  selectItemsByIds,
  selectTaxRatesByIds,
} from './queries.ts';

// What the invoice services share: the company's "today", resolving a document's lines
// (items, tax rates, income accounts) and running them through the shared calculation,
// and spreading a foreign-currency document over base-currency ledger lines.

/** The calendar date in the company's time zone: what "today" means for due dates and aging. */
export const companyToday = (now: Date, timeZone: string) => {
  try {
    return new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).format(now);
  } catch {
    return now.toISOString().slice(0, 10);
  }
};

/**
 * A route-facing service `(ctx, member, input)` whose work runs in one transaction:
 * `export const createItem = inMemberTransaction(async (trx, member, input: ItemInput) => …)`.
 */
export const inMemberTransaction =
  <I, T>(work: (trx: Executor, member: MemberContext, input: I) => Promise<T>) =>
  (ctx: AppContext, member: MemberContext, input: I) =>
    inTransaction(ctx.database.db, (trx) => work(trx, member, input));

export const loadCompany = async (db: Executor, organizationId: string) => {
  const company = await selectCompany(db, organizationId);
  if (!company) throw notFound('Company not found.');
  return { ...company, base_currency: company.base_currency.trim() };
};

/** Refuses a currency code that is not ISO 4217 (400 invalid_currency). */
export const checkCurrency = (currency: string) => {
  if (!isCurrencyCode(currency))
    throw badRequest('invalid_currency', `"${currency}" is not a currency code.`);
};

/** The customer of a new document; 400 customer_not_found when it is not in the company. */
export const requireCustomer = async (db: Executor, organizationId: string, id: string) => {
  const customer = await selectCustomer(db, organizationId, id);
  if (!customer) throw badRequest('customer_not_found', 'The customer does not exist in this company.');
  return customer;
};

/**
 * Drafts do not post, so the ledger's volume limit does not cover them; the invoice list sums
 * their base-currency totals. After a draft is saved (in its transaction): its base total is
 * within the amount bound (400 amount_too_large), and all drafts together within the ledger
 * volume limit (409 draft_total_limit), so that sum stays exact (decision 0013).
 */
export const checkDraftTotals = async (db: Executor, organizationId: string, invoiceId: string) => {
  const { rows } = await sql<{ own: string | null; all: string | null }>`
    select max(round(total * exchange_rate::numeric)) filter (where id = ${invoiceId})::text as own,
           sum(round(total * exchange_rate::numeric))::text as all
      from invoices
     where organization_id = ${organizationId} and status = 'draft'`.execute(db);
  const own = BigInt(rows[0]?.own ?? '0');
  const all = BigInt(rows[0]?.all ?? '0');
  if (own > BigInt(MAX_AMOUNT_MINOR)) {
    throw badRequest(
      'amount_too_large',
      `The invoice total in the base currency (${own} minor units at this exchange rate) is too large. ${AMOUNT_LIMIT_MESSAGE}`,
      { field: 'exchangeRate' },
    );
  }
  if (all > BigInt(LEDGER_VOLUME_LIMIT)) {
    throw conflict(
      'draft_total_limit',
      'All draft invoices together would be worth more than 1,000,000,000,000,000 minor units in the base currency. Send or delete some drafts first; nothing was saved.',
    );
  }
};

/**
 * The columns an update sets from a partial input: each field that was sent (not undefined)
 * under its column's name, e.g. `sentColumns(input, { name: 'name', unitPrice: 'unit_price' })`.
 */
export const sentColumns = <I extends object, const M extends { [F in keyof I]?: string }>(
  input: I,
  columns: M,
) =>
  Object.fromEntries(
    Object.entries(columns)
      .filter(([field]) => input[field as keyof I] !== undefined)
      .map(([field, column]) => [column, input[field as keyof I]]),
  ) as { [F in keyof M & keyof I as M[F] & string]?: Exclude<I[F], undefined> };

/** `archived` of an update: true archives the row now, false restores it, absent leaves it. */
export const archivedColumn = (archived: boolean | undefined) =>
  archived === undefined ? {} : { archived_at: archived ? new Date() : null };

export const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** Resolved, calculated lines ready to store. */
export type PreparedLine = {
  itemId: string | null;
  description: string;
  quantity: string;
  unitPrice: number;
  discountPercent: string;
  taxRateIds: string[];
  accountId: string;
  result: LineResult;
};

/** Normalises decimal text so "1.50" and "1.5" store the same way. */
export const normalizeDecimal = (text: string) => {
  const t = text.trim();
  if (!t.includes('.')) return t.replace(/^0+(?=\d)/, '');
  const [w, f] = t.split('.') as [string, string];
  const fraction = f.replace(/0+$/, '');
  const whole = w.replace(/^0+(?=\d)/, '');
  return fraction ? `${whole}.${fraction}` : whole;
};

/** A tax rate row as the line resolvers look it up. */
type TaxRateRow = Awaited<ReturnType<typeof selectTaxRatesByIds>>[number];

/**
 * Calculates a document's resolved lines (invoice, bill or credit) with the one shared
 * calculation; a calculation error is a 400 naming the line.
 */
export const calculatePreparedLines = (
  prepared: Omit<PreparedLine, 'result'>[],
  taxes: Map<string, TaxRateRow>,
) => {
  const calcTaxes = (ids: string[]): TaxForCalc[] =>
    ids.map((id) => {
      const t = taxes.get(id)!;
      return { id, percent: t.percent, compound: t.compound, inclusive: t.inclusive };
    });
  let totals: ReturnType<typeof calculateInvoice>;
  try {
    totals = calculateInvoice(
      prepared.map((p) => ({
        quantity: p.quantity,
        unitPrice: p.unitPrice,
        discountPercent: p.discountPercent,
        taxes: calcTaxes(p.taxRateIds),
      })),
    );
  } catch (error) {
    if (error instanceof InvoiceCalcError) {
      throw badRequest(
        'invalid_line',
        error.line !== undefined ? `Line ${error.line + 1}: ${error.message}` : error.message,
        error.line !== undefined ? { line: error.line + 1 } : undefined,
      );
    }
    throw error;
  }
  return {
    lines: prepared.map((p, i): PreparedLine => ({ ...p, result: totals.lines[i]! })),
    totals,
    taxRates: taxes,
  };
};

/**
 * Looks up each line's item, tax rates and income account in the company, fills defaults
 * from the item, and calculates the document with the shared function.
 */
export const prepareLines = async (
  db: Executor,
  organizationId: string,
  lines: InvoiceLineInput[],
  options: { allowArchived?: boolean } = {},
) => {
  const itemIds = [...new Set(lines.map((l) => l.itemId).filter((id): id is string => Boolean(id)))];
  const items = new Map((await selectItemsByIds(db, organizationId, itemIds)).map((i) => [i.id, i]));
  for (const [i, line] of lines.entries()) {
    if (line.itemId && !items.has(line.itemId)) {
      throw badRequest('item_not_found', `Line ${i + 1}: the item does not exist in this company.`, {
        line: i + 1,
      });
    }
  }
  const taxIds = [...new Set(lines.flatMap((l) => l.taxRateIds ?? []))];
  const taxes = new Map((await selectTaxRatesByIds(db, organizationId, taxIds)).map((t) => [t.id, t]));
  const defaultIncome = await findSystemAccount(db, organizationId, 'sales');
  const accountIds = [
    ...new Set(
      lines.map(
        (l) => l.accountId ?? (l.itemId ? items.get(l.itemId)?.income_account_id : null) ?? defaultIncome.id,
      ),
    ),
  ];
  const accounts = new Map((await selectAccountsByIds(db, organizationId, accountIds)).map((a) => [a.id, a]));

  const prepared = lines.map((line, i) => {
    const item = line.itemId ? items.get(line.itemId) : undefined;
    const accountId = line.accountId ?? item?.income_account_id ?? defaultIncome.id;
    const account = accounts.get(accountId);
    if (!account) {
      throw badRequest(
        'account_not_found',
        `Line ${i + 1}: the income account does not exist in this company.`,
        { line: i + 1 },
      );
    }
    if (account.type !== 'income') {
      throw badRequest(
        'invalid_account',
        `Line ${i + 1}: post invoice lines to an income account, not ${account.code} ${account.name}.`,
        {
          line: i + 1,
        },
      );
    }
    // New documents use current items and rates; a recurring schedule keeps the ones it was set up with.
    if (item?.archived_at && !options.allowArchived) {
      throw badRequest(
        'item_archived',
        `Line ${i + 1}: the item ${item.name} is archived. Restore it or choose another.`,
        {
          line: i + 1,
        },
      );
    }
    const taxRateIds = line.taxRateIds ?? [];
    for (const id of taxRateIds) {
      const rate = taxes.get(id);
      if (rate?.archived_at && !options.allowArchived) {
        throw badRequest(
          'tax_rate_archived',
          `Line ${i + 1}: the tax rate ${rate.name} is archived. Choose a current rate.`,
          {
            line: i + 1,
          },
        );
      }
      if (!taxes.has(id)) {
        throw badRequest(
          'tax_rate_not_found',
          `Line ${i + 1}: the tax rate does not exist in this company.`,
          { line: i + 1 },
        );
      }
    }
    const description = (line.description ?? '').trim() || item?.name || '';
    if (!description) {
      throw badRequest('line_description_required', `Line ${i + 1}: describe the line or choose an item.`, {
        line: i + 1,
      });
    }
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

/** Rows for invoice_lines. */
export const lineRows = (organizationId: string, documentId: string, lines: PreparedLine[]) =>
  lines.map((l, i) => ({
    organization_id: organizationId,
    document_id: documentId,
    line_no: i + 1,
    item_id: l.itemId,
    description: l.description,
    quantity: l.quantity,
    unit_price: l.unitPrice,
    discount_percent: l.discountPercent,
    tax_rate_ids: JSON.stringify(l.taxRateIds),
    account_id: l.accountId,
    gross: l.result.gross,
    discount: l.result.discount,
    net: l.result.net,
    tax: l.result.tax,
    total: l.result.total,
    taxes: JSON.stringify(l.result.taxes),
  }));

/** Converts document-currency minor units to base at the document's rate. */
export const toBase = (amount: number, currency: string, rate: string, baseCurrency: string) =>
  currency === baseCurrency ? amount : convertMinor(amount, currency, rate, baseCurrency);

export type Split = { key: string; amount: number; base: number };

/**
 * Converts each part to base and makes the parts add up to `targetBase` exactly by moving
 * single minor units onto the largest parts: every part stays within one unit of its own
 * conversion (what the ledger checks), and the entry balances.
 */
export const splitToBase = (
  parts: { key: string; amount: number }[],
  currency: string,
  rate: string,
  baseCurrency: string,
  targetBase: number,
): Split[] => {
  const splits = parts.map((p) => ({ ...p, base: toBase(p.amount, currency, rate, baseCurrency) }));
  let difference = targetBase - splits.reduce((s, p) => s + p.base, 0);
  const order = [...splits].sort((a, b) => b.amount - a.amount);
  for (let round = 0; difference !== 0 && round < 1000; round += 1) {
    let moved = false;
    for (const part of order) {
      if (difference === 0) break;
      const step = difference > 0 ? 1 : -1;
      if (part.base + step < 0) continue;
      part.base += step;
      difference -= step;
      moved = true;
    }
    if (!moved) break;
  }
  if (difference !== 0) throw new Error('could not spread the rounding difference over the document lines');
  return splits;
};

/**
 * The lines side of a posted invoice or bill: its lines' net per account and tax per rate,
 * spread over totalBase in base currency, as ledger lines on one side (credit for an
 * invoice's income and output tax, debit for a bill's expense and input tax; a tax line goes
 * to its rate's account) and the tax-posting rows per rate that the tax report reads.
 */
export const postLinesSplit = (
  lines: { account_id: string; net: number; taxes: { taxRateId: string; amount: number; base: number }[] }[],
  taxRates: Map<string, { account_id: string; name: string }>,
  doc: {
    organizationId: string;
    documentId: string;
    date: string;
    number: string;
    currency: string;
    exchangeRate: string;
    contactId: string;
  },
  posting: { base: string; totalBase: number; side: 'debit' | 'credit'; memo: string },
) => {
  const { base, totalBase, side, memo } = posting;
  const byAccount = new Map<string, number>();
  const taxes = new Map<string, { amount: number; taxable: number }>();
  for (const line of lines) {
    byAccount.set(line.account_id, (byAccount.get(line.account_id) ?? 0) + line.net);
    for (const t of line.taxes) {
      const sum = taxes.get(t.taxRateId) ?? { amount: 0, taxable: 0 };
      sum.amount += t.amount;
      sum.taxable += t.base;
      taxes.set(t.taxRateId, sum);
    }
  }
  const parts = [
    ...[...byAccount].map(([accountId, amount]) => ({ key: `account:${accountId}`, amount })),
    ...[...taxes].map(([taxRateId, t]) => ({ key: `tax:${taxRateId}`, amount: t.amount })),
  ].filter((p) => p.amount > 0);
  const splits = splitToBase(parts, doc.currency, doc.exchangeRate, base, totalBase);
  const foreign = doc.currency !== base ? { currency: doc.currency, rate: doc.exchangeRate } : null;
  const ledgerLines = splits
    .filter((s) => s.base > 0)
    .map((s): PostingLineInput => {
      const [kind, ref] = s.key.split(':') as [string, string];
      const rate = kind === 'tax' ? taxRates.get(ref)! : null;
      return {
        accountId: rate ? rate.account_id : ref,
        ...(side === 'debit' ? { debit: s.base } : { credit: s.base }),
        ...(foreign ? { ...foreign, amount: s.amount } : {}),
        description: rate ? `${rate.name} on ${doc.number}` : memo,
        contactId: doc.contactId,
      };
    });
  const taxRows = [...taxes].map(([taxRateId, t]) => ({
    organization_id: doc.organizationId,
    document_id: doc.documentId,
    tax_rate_id: taxRateId,
    date: doc.date,
    taxable_base: toBase(t.taxable, doc.currency, doc.exchangeRate, base),
    tax_base: splits.find((s) => s.key === `tax:${taxRateId}`)?.base ?? 0,
  }));
  return { ledgerLines, taxRows };
};

/**
 * The status an open invoice (or, with unsettled 'open', an open bill) has from what has been
 * paid and credited.
 */
export const settledStatus = <U extends 'sent' | 'open' = 'sent'>(
  total: number,
  paid: number,
  credited: number,
  unsettled: U = 'sent' as U,
) => {
  if (paid + credited >= total) return 'paid' as const;
  if (paid + credited > 0) return 'partially_paid' as const;
  return unsettled;
};
