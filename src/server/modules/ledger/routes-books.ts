import { Readable } from 'node:stream';
import { z } from 'zod';
import {
  accountCreateSchema,
  accountSchema,
  accountUpdateSchema,
  chartImportResultSchema,
  chartImportSchema,
  fiscalYearSchema,
  journalExportQuerySchema,
  journalImportResultSchema,
  journalImportSchema,
  ledgerSettingsSchema,
  ledgerSettingsUpdateSchema,
} from '../../../shared/ledger.ts';
import { companyRoutePlugin } from '../../http/routes.ts';
import { errorBody } from '../../http/errors.ts';
import { accountParams, yearParams } from './routes-common.ts';
import {
  addAccount,
  changeAccount,
  changeLedgerSettings,
  chartOfAccounts,
  closeYear,
  fiscalYears,
  importChart,
  importJournalFile,
  journalFile,
  readLedgerSettings,
  removeAccount,
  reopenYear,
} from './service.ts';

// The books as a whole: ledger settings (lock date, approval), the chart of accounts, fiscal
// years (close and reopen) and the journal as plain-text accounting (hledger/ledger) out and in.

export const ledgerBookRoutes = companyRoutePlugin(['ledger'], (route) => {
  route.get(
    '/ledger/settings',
    { summary: 'Ledger settings (lock date, approval)', permission: 'read', response: ledgerSettingsSchema },
    readLedgerSettings,
  );
  route.patch(
    '/ledger/settings',
    {
      summary: 'Change the lock date or the approval requirement',
      permission: 'manage_settings',
      body: ledgerSettingsUpdateSchema,
      response: ledgerSettingsSchema,
    },
    changeLedgerSettings,
  );

  route.get(
    '/accounts',
    {
      summary: 'Chart of accounts',
      permission: 'read',
      response: z.object({ accounts: z.array(accountSchema) }),
    },
    chartOfAccounts,
  );
  route.post(
    '/accounts',
    {
      summary: 'Add an account',
      permission: 'manage_settings',
      body: accountCreateSchema,
      response: accountSchema,
      status: 201,
    },
    addAccount,
  );
  route.patch(
    '/accounts/:accountId',
    {
      summary: 'Rename, recode, regroup, archive or unarchive an account',
      permission: 'manage_settings',
      params: accountParams,
      body: accountUpdateSchema,
      response: accountSchema,
    },
    changeAccount,
  );
  route.delete(
    '/accounts/:accountId',
    {
      summary: 'Delete an account that never took a posting',
      permission: 'manage_settings',
      params: accountParams,
      response: null,
    },
    removeAccount,
  );
  route.post(
    '/accounts/import',
    {
      summary:
        'Import a chart of accounts from CSV (code,name,type[,subtype,parent_code,currency,description])',
      permission: 'manage_settings',
      body: chartImportSchema,
      response: chartImportResultSchema,
    },
    importChart,
  );

  route.get(
    '/fiscal-years',
    {
      summary: 'Fiscal years and whether each is closed',
      permission: 'read',
      response: z.object({ years: z.array(fiscalYearSchema) }),
    },
    fiscalYears,
  );
  const yearActions = [
    ['close', 'Year-end close: move income and expense to retained earnings', closeYear],
    ['reopen', 'Reopen a closed year by reversing its closing entry', reopenYear],
  ] as const;
  for (const [action, summary, run] of yearActions) {
    route.post(
      `/fiscal-years/:endDate/${action}`,
      { summary, permission: 'manage_settings', params: yearParams, response: fiscalYearSchema },
      run,
    );
  }

  route.get(
    '/ledger/export.journal',
    {
      summary: 'The journal as an hledger/ledger file',
      permission: 'read',
      query: journalExportQuerySchema,
      produces: ['text/plain'],
    },
    async (c, member, range, { reply }) =>
      reply
        .header('content-type', 'text/plain; charset=utf-8')
        .header('content-disposition', 'attachment; filename="kontor.journal"')
        .send(Readable.from(journalFile(c, member, range))),
  );
  route.post(
    '/ledger/import',
    {
      summary:
        'Import an hledger/ledger journal file: every transaction is posted, unknown accounts are created; the same file twice is refused (409)',
      permission: 'manage_settings',
      body: journalImportSchema,
      response: journalImportResultSchema,
      otherResponses: { 400: errorBody, 409: errorBody },
      bodyLimit: 11 * 1024 * 1024,
    },
    importJournalFile,
  );
});
