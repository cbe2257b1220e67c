import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { multipartOptions } from '../attachments/http.ts';
import { ledgerBookRoutes } from './routes-books.ts';
import { ledgerEntryRoutes } from './routes-entries.ts';
import { ledgerReportRoutes } from './routes-reports.ts';

// HTTP routes of the ledger, all under /api/orgs/:organizationId/, one file per area (books, entries, reports). Each
// route declares its path, its zod schemas (from src/shared/ledger.ts) and the guard, and
// calls one service function (service.ts, report-service.ts) with (ctx, member, input).

export const ledgerRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    // Multipart only for this plugin's receipt upload; the file size limit is enforced by the
    // parser while streaming, so an oversized upload never sits whole in memory.
    await app.register(multipart, multipartOptions);
    await app.register(ledgerEntryRoutes(ctx));
    await app.register(ledgerBookRoutes(ctx));
    await app.register(ledgerReportRoutes(ctx));
  };
