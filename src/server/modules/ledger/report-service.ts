import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import type {
  ReportFormatQuery,
  accountTransactionsQuerySchema,
  asOfQuerySchema,
  generalLedgerQuerySchema,
  incomeStatementQuerySchema,
  journalReportQuerySchema,
  reportRangeQuerySchema,
} from '../../../shared/ledger.ts';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/transaction.ts';
import { csvReply } from '../../http/csv.ts';
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

/**
 * A report as the routes serve it: `load` reads the figures, `table` lays them out for an
 * export named `<name>-<date>` (the query's `to`, or `asOf`); `exportLimit` is the page size of
 * an export of a paginated report (the whole range).
 */
const defineReport =
  <Q extends Query & ({ to: string } | { asOf: string }), T>(
    name: string,
    load: (db: Executor, organizationId: string, query: Q) => Promise<T>,
    table: (data: T, prefs: FormatPreferences) => ReportTable,
    exportLimit?: number,
  ) =>
  async (ctx: AppContext, member: MemberContext, query: Q): Promise<ReportOutput<T>> => {
    const db = ctx.database.db;
    const { organizationId } = member;
    const whole =
      query.format !== 'json' && exportLimit !== undefined
        ? { ...query, limit: exportLimit, cursor: undefined }
        : query;
    const data = await load(db, organizationId, whole);
    const fileName = `${name}-${'asOf' in query ? query.asOf : query.to}`;
    if (query.format === 'json') return { format: 'json', data };
    return reportFile(query, data, table, fileName, await companyName(db, organizationId));
  };

/**
 * A report's figures as the format asked for: the figures themselves (json), or laid out by
 * `table` and written as CSV (ISO dates, plain numbers) or PDF (the user's date and number
 * style, headed with the company's name). Every report export goes through here.
 */
export const reportFile = async <T>(
  query: Query,
  data: T,
  table: (data: T, prefs: FormatPreferences) => ReportTable,
  fileName: string,
  company: string,
): Promise<ReportOutput<T>> => {
  if (query.format === 'json') return { format: 'json', data };
  const prefs: FormatPreferences = {
    dateFormat: query.dateFormat,
    locale: query.locale,
    currencyDisplay: query.currencyDisplay,
  };
  const laidOut = table(data, prefs);
  if (query.format === 'csv')
    return { format: 'csv', fileName: `${fileName}.csv`, body: tableToCsv(laidOut) };
  return { format: 'pdf', fileName: `${fileName}.pdf`, body: await tableToPdf(laidOut, prefs, company) };
};

/** Sends a report as its route answers: the JSON figures, or the file as a download. */
export const sendReport = <T>(reply: FastifyReply, output: ReportOutput<T>) => {
  if (output.format === 'json') return output.data;
  if (output.format === 'csv') return csvReply(reply, output.fileName).send(output.body);
  return reply
    .header('content-type', 'application/pdf')
    .header('content-disposition', `attachment; filename="${output.fileName}"`)
    .send(output.body);
};

type Range = z.infer<typeof reportRangeQuerySchema> & ReportFormatQuery;
type WithFormat<S extends z.ZodTypeAny> = z.infer<S> & ReportFormatQuery;

/** A report over a date range (from, to), its figures read by `load` with the range as it is. */
const rangeReport = <T>(
  name: string,
  load: (db: Executor, organizationId: string, range: Range) => Promise<T>,
  table: (data: T, prefs: FormatPreferences) => ReportTable,
) => defineReport(name, load, table);

export const trialBalanceReport = rangeReport('trial-balance', trialBalance, trialBalanceTable);
export const incomeStatementReport = defineReport(
  'income-statement',
  (db, org, q: WithFormat<typeof incomeStatementQuerySchema>) => incomeStatement(db, org, q),
  incomeStatementTable,
);
export const balanceSheetReport = defineReport(
  'balance-sheet',
  (db, org, q: WithFormat<typeof asOfQuerySchema>) => balanceSheet(db, org, q.asOf),
  balanceSheetTable,
);
export const cashFlowReport = rangeReport('cash-flow', cashFlow, cashFlowTable);
export const generalLedgerReport = defineReport(
  'general-ledger',
  (db, org, q: WithFormat<typeof generalLedgerQuerySchema>) => generalLedger(db, org, q),
  generalLedgerTable,
  100_000,
);
export const journalReportFile = defineReport(
  'journal',
  (db, org, q: WithFormat<typeof journalReportQuerySchema>) => journalReport(db, org, q),
  journalTable,
  20_000,
);
export const accountTransactionsReport = defineReport(
  'account-transactions',
  (db, org, q: WithFormat<typeof accountTransactionsQuerySchema>) => accountTransactions(db, org, q),
  accountTransactionsTable,
  100_000,
);
