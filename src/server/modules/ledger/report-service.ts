import type { z } from 'zod';
import type {
  ReportFormatQuery,
  accountTransactionsQuerySchema,
  asOfQuerySchema,
  generalLedgerQuerySchema,
  journalReportQuerySchema,
  reportRangeQuerySchema,
} from '../../../shared/ledger.ts';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/transaction.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import {
  type FormatPreferences,
  type ReportTable,
  accountTransactionsTable,
  balanceSheetTable,
  cashFlowTable,
  generalLedgerTable,
  incomeStatementTable,
  journalTable,
  tableToCsv,
  tableToPdf,
  trialBalanceTable,
} from './export.ts';
import {
  accountTransactions,
  balanceSheet,
  cashFlow,
  generalLedger,
  incomeStatement,
  journalReport,
  trialBalance,
} from './reports.ts';

// The reports as the routes serve them: each one is `(ctx, member, query)` and answers the
// figures (format=json) or a finished file (CSV for spreadsheets, PDF for people). Exports
// hold the whole range, so paginated reports drop the cursor and take a large page.

/** What a report route sends: the JSON figures, or a file with its name and type. */
export type ReportOutput<T> =
  | { format: 'json'; data: T }
  | { format: 'csv'; fileName: string; body: string }
  | { format: 'pdf'; fileName: string; body: Buffer };

type Query = ReportFormatQuery & { format: 'json' | 'csv' | 'pdf' };

const companyName = async (db: Executor, organizationId: string) =>
  (await db.selectFrom('organizations').select('name').where('id', '=', organizationId).executeTakeFirst())
    ?.name ?? '';

const defineReport =
  <Q extends Query, T>(spec: {
    load: (db: Executor, organizationId: string, query: Q) => Promise<T>;
    table: (data: T, prefs: FormatPreferences) => ReportTable;
    fileName: (query: Q) => string;
    /** The page size of an export of a paginated report (the whole range). */
    exportLimit?: number;
  }) =>
  async (ctx: AppContext, member: MemberContext, query: Q): Promise<ReportOutput<T>> => {
    const db = ctx.database.db;
    const { organizationId } = member;
    const whole =
      query.format !== 'json' && spec.exportLimit !== undefined
        ? { ...query, limit: spec.exportLimit, cursor: undefined }
        : query;
    const data = await spec.load(db, organizationId, whole);
    if (query.format === 'json') return { format: 'json', data };
    const prefs: FormatPreferences = {
      dateFormat: query.dateFormat,
      locale: query.locale,
      currencyDisplay: query.currencyDisplay,
    };
    const table = spec.table(data, prefs);
    const name = spec.fileName(query);
    if (query.format === 'csv') {
      return { format: 'csv', fileName: `${name}.csv`, body: tableToCsv(table) };
    }
    const pdf = await tableToPdf(table, prefs, await companyName(db, organizationId));
    return { format: 'pdf', fileName: `${name}.pdf`, body: pdf };
  };

type Range = z.infer<typeof reportRangeQuerySchema> & ReportFormatQuery;

export const trialBalanceReport = defineReport({
  load: (db, org, q: Range) => trialBalance(db, org, q),
  table: trialBalanceTable,
  fileName: (q) => `trial-balance-${q.to}`,
});

export const incomeStatementReport = defineReport({
  load: (db, org, q: Range) => incomeStatement(db, org, q),
  table: incomeStatementTable,
  fileName: (q) => `income-statement-${q.to}`,
});

export const balanceSheetReport = defineReport({
  load: (db, org, q: z.infer<typeof asOfQuerySchema> & ReportFormatQuery) => balanceSheet(db, org, q.asOf),
  table: balanceSheetTable,
  fileName: (q) => `balance-sheet-${q.asOf}`,
});

export const cashFlowReport = defineReport({
  load: (db, org, q: Range) => cashFlow(db, org, q),
  table: cashFlowTable,
  fileName: (q) => `cash-flow-${q.to}`,
});

export const generalLedgerReport = defineReport({
  load: (db, org, q: z.infer<typeof generalLedgerQuerySchema> & ReportFormatQuery) =>
    generalLedger(db, org, q),
  table: generalLedgerTable,
  fileName: (q) => `general-ledger-${q.to}`,
  exportLimit: 100_000,
});

export const journalReportFile = defineReport({
  load: (db, org, q: z.infer<typeof journalReportQuerySchema> & ReportFormatQuery) =>
    journalReport(db, org, q),
  table: journalTable,
  fileName: (q) => `journal-${q.to}`,
  exportLimit: 20_000,
});

export const accountTransactionsReport = defineReport({
  load: (db, org, q: z.infer<typeof accountTransactionsQuerySchema> & ReportFormatQuery) =>
    accountTransactions(db, org, q),
  table: accountTransactionsTable,
  fileName: (q) => `account-transactions-${q.to}`,
  exportLimit: 100_000,
});
