import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  fiscalYearSchema,
  journalExportQuerySchema,
  journalImportResultSchema,
  journalImportSchema,
} from '../../../shared/ledger.ts';
import type { AppContext } from '../../context.ts';
import { memberOf, requirePermission } from '../../http/tenancy.ts';
import { errorBody, orgParams, tags, yearParams } from './routes-common.ts';
import { closeYear, fiscalYears, importJournalFile, journalFile, reopenYear } from './service.ts';

// The books as a whole: fiscal years (close and reopen) and the journal as plain-text
// accounting (hledger/ledger) out and in.

export const ledgerBookRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
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
    app.post(
      '/orgs/:organizationId/fiscal-years/:endDate/close',
      {
        schema: {
          tags,
          summary: 'Year-end close: move income and expense to retained earnings',
          params: yearParams,
          response: { 200: fiscalYearSchema },
        },
        preHandler: requirePermission(ctx, 'manage_settings'),
      },
      async (request) => closeYear(ctx, memberOf(request), request.params),
    );
    app.post(
      '/orgs/:organizationId/fiscal-years/:endDate/reopen',
      {
        schema: {
          tags,
          summary: 'Reopen a closed year by reversing its closing entry',
          params: yearParams,
          response: { 200: fiscalYearSchema },
        },
        preHandler: requirePermission(ctx, 'manage_settings'),
      },
      async (request) => reopenYear(ctx, memberOf(request), request.params),
    );

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
