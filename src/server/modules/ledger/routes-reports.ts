import type { z } from 'zod';
import {
  accountTransactionsQuerySchema,
  accountTransactionsSchema,
  asOfQuerySchema,
  balanceSheetSchema,
  cashFlowSchema,
  generalLedgerQuerySchema,
  generalLedgerSchema,
  incomeStatementQuerySchema,
  incomeStatementSchema,
  journalReportQuerySchema,
  journalReportSchema,
  type ReportFormatQuery,
  reportFormatQuerySchema,
  reportRangeQuerySchema,
  trialBalanceSchema,
} from '../../../shared/ledger.ts';
import type { AppContext } from '../../context.ts';
import { companyRoutePlugin } from '../../http/routes.ts';
import { onReplica } from '../../http/read-replica.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import {
  type ReportOutput,
  accountTransactionsReport,
  balanceSheetReport,
  cashFlowReport,
  generalLedgerReport,
  incomeStatementReport,
  journalReportFile,
  sendReport,
  trialBalanceReport,
} from './report-service.ts';

// The financial reports, each as JSON, CSV or PDF (format=json|csv|pdf). Every report is one
// GET route: its query and response schemas from src/shared/ledger.ts and one service
// function from report-service.ts.

export const ledgerReportRoutes = companyRoutePlugin(['reports'], (route) => {
  const report = <Q extends z.ZodObject, T>(
    name: string,
    summary: string,
    query: Q,
    response: z.ZodType,
    run: (
      ctx: AppContext,
      member: MemberContext,
      query: z.infer<Q> & ReportFormatQuery,
    ) => Promise<ReportOutput<T>>,
  ) =>
    route.get(
      `/reports/${name}`,
      {
        summary: `${summary} (format=json|csv|pdf)`,
        permission: 'read',
        query: query.extend(reportFormatQuerySchema.shape),
        response,
        produces: ['text/csv', 'application/pdf'],
      },
      // Read from the replica when it may answer (decision 0047).
      async (c, member, input, http) =>
        sendReport(
          http.reply,
          await onReplica(run)(c, member, input as z.infer<Q> & ReportFormatQuery, http),
        ),
    );

  report('trial-balance', 'Trial balance', reportRangeQuerySchema, trialBalanceSchema, trialBalanceReport);
  report(
    'income-statement',
    'Income statement compared with the previous period and the same period last year (compare=none|previous|lastYear|both)',
    incomeStatementQuerySchema,
    incomeStatementSchema,
    incomeStatementReport,
  );
  report('balance-sheet', 'Balance sheet', asOfQuerySchema, balanceSheetSchema, balanceSheetReport);
  report(
    'cash-flow',
    'Cash flow statement (indirect method)',
    reportRangeQuerySchema,
    cashFlowSchema,
    cashFlowReport,
  );
  report(
    'general-ledger',
    'General ledger of one account with running balance, paginated',
    generalLedgerQuerySchema,
    generalLedgerSchema,
    generalLedgerReport,
  );
  report(
    'journal',
    'Journal: posted entries with their lines, paginated',
    journalReportQuerySchema,
    journalReportSchema,
    journalReportFile,
  );
  report(
    'account-transactions',
    'Account transactions with the other side of each entry, paginated',
    accountTransactionsQuerySchema,
    accountTransactionsSchema,
    accountTransactionsReport,
  );
});
