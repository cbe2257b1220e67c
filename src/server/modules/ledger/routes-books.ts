import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
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
import type { AppContext } from '../../context.ts';
import { memberOf, requirePermission } from '../../http/tenancy.ts';
import { accountParams, errorBody, orgParams, tags, yearParams, removeRoute } from './routes-common.ts';
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

export const ledgerBookRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/orgs/:organizationId/ledger/settings',
      {
        schema: {
          tags,
          summary: 'Ledger settings (lock date, approval)',
          params: orgParams,
          response: { 200: ledgerSettingsSchema },
        },
        preHandler: requirePermission(ctx, 'read'),
      },
      async (request) => readLedgerSettings(ctx, memberOf(request)),
    );
    app.patch(
      '/orgs/:organizationId/ledger/settings',
      {
        schema: {
          tags,
          summary: 'Change the lock date or the approval requirement',
          params: orgParams,
          body: ledgerSettingsUpdateSchema,
          response: { 200: ledgerSettingsSchema },
        },
        preHandler: requirePermission(ctx, 'manage_settings'),
      },
      async (request) => changeLedgerSettings(ctx, memberOf(request), request.body),
    );

    app.get(
      '/orgs/:organizationId/accounts',
      {
        schema: {
          tags,
          summary: 'Chart of accounts',
          params: orgParams,
          response: { 200: z.object({ accounts: z.array(accountSchema) }) },
        },
        preHandler: requirePermission(ctx, 'read'),
      },
      async (request) => chartOfAccounts(ctx, memberOf(request)),
    );
    app.post(
      '/orgs/:organizationId/accounts',
      {
        schema: {
          tags,
          summary: 'Add an account',
          params: orgParams,
          body: accountCreateSchema,
          response: { 201: accountSchema },
        },
        preHandler: requirePermission(ctx, 'manage_settings'),
      },
      async (request, reply) =>
        reply.status(201).send(await addAccount(ctx, memberOf(request), request.body)),
    );
    app.patch(
      '/orgs/:organizationId/accounts/:accountId',
      {
        schema: {
          tags,
          summary: 'Rename, recode, regroup, archive or unarchive an account',
          params: accountParams,
          body: accountUpdateSchema,
          response: { 200: accountSchema },
        },
        preHandler: requirePermission(ctx, 'manage_settings'),
      },
      async (request) =>
        changeAccount(ctx, memberOf(request), { ...request.body, accountId: request.params.accountId }),
    );
    removeRoute(
      app,
      ctx,
      {
        url: '/orgs/:organizationId/accounts/:accountId',
        summary: 'Delete an account that never took a posting',
        params: accountParams,
        permission: 'manage_settings',
      },
      removeAccount,
    );
    app.post(
      '/orgs/:organizationId/accounts/import',
      {
        schema: {
          tags,
          summary:
            'Import a chart of accounts from CSV (code,name,type[,subtype,parent_code,currency,description])',
          params: orgParams,
          body: chartImportSchema,
          response: { 200: chartImportResultSchema },
        },
        preHandler: requirePermission(ctx, 'manage_settings'),
      },
      async (request) => importChart(ctx, memberOf(request), request.body),
    );

    app.get(
      '/orgs/:organizationId/fiscal-years',
      {
        schema: {
          tags,
          summary: 'Fiscal years and whether each is closed',
          params: orgParams,
          response: { 200: z.object({ years: z.array(fiscalYearSchema) }) },
        },
        preHandler: requirePermission(ctx, 'read'),
      },
      async (request) => fiscalYears(ctx, memberOf(request)),
    );
    const yearActions = [
      ['close', 'Year-end close: move income and expense to retained earnings', closeYear],
      ['reopen', 'Reopen a closed year by reversing its closing entry', reopenYear],
    ] as const;
    for (const [action, summary, run] of yearActions) {
      app.post(
        `/orgs/:organizationId/fiscal-years/:endDate/${action}`,
        {
          schema: { tags, summary, params: yearParams, response: { 200: fiscalYearSchema } },
          preHandler: requirePermission(ctx, 'manage_settings'),
        },
        async (request) => run(ctx, memberOf(request), request.params),
      );
    }

    app.get(
      '/orgs/:organizationId/ledger/export.journal',
      {
        schema: {
          tags,
          summary: 'The journal as an hledger/ledger file',
          params: orgParams,
          querystring: journalExportQuerySchema,
        },
        preHandler: requirePermission(ctx, 'read'),
      },
      async (request, reply) =>
        reply
          .header('content-type', 'text/plain; charset=utf-8')
          .header('content-disposition', 'attachment; filename="kontor.journal"')
          .send(Readable.from(journalFile(ctx, memberOf(request), request.query))),
    );
    app.post(
      '/orgs/:organizationId/ledger/import',
      {
        schema: {
          tags,
          summary:
            'Import an hledger/ledger journal file: every transaction is posted, unknown accounts are created; the same file twice is refused (409)',
          params: orgParams,
          body: journalImportSchema,
          response: { 200: journalImportResultSchema, 400: errorBody, 409: errorBody },
        },
        preHandler: requirePermission(ctx, 'manage_settings'),
        bodyLimit: 11 * 1024 * 1024,
      },
      async (request) => importJournalFile(ctx, memberOf(request), request.body),
    );
  };
