import { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { forbidden } from '../../../shared/errors.ts';
import {
  accountCreateSchema,
  accountSchema,
  accountUpdateSchema,
  asOfQuerySchema,
  balanceSheetSchema,
  cashFlowSchema,
  draftUpdateSchema,
  fiscalYearSchema,
  generalLedgerQuerySchema,
  generalLedgerSchema,
  incomeStatementSchema,
  isoDate,
  journalEntrySchema,
  journalListQuerySchema,
  journalReportQuerySchema,
  ledgerSettingsSchema,
  ledgerSettingsUpdateSchema,
  manualEntryCreateSchema,
  openingBalancesSchema,
  reportRangeQuerySchema,
  reverseEntrySchema,
  trialBalanceSchema,
} from '../../../shared/ledger.ts';
import type { AppContext } from '../../context.ts';
import { csvReply } from '../../http/csv.ts';
import { multipartOptions, readMultipartUpload, sendAttachment } from '../attachments/http.ts';
import { checkUpload } from '../attachments/policy.ts';
import {
  legacyAttachmentsDir,
  readAttachment,
  removeAttachment,
  storeAttachment,
} from '../attachments/store.ts';
import { memberOf, requirePermission } from '../../http/tenancy.ts';
import { roleCan } from '../../http/permissions.ts';
import { idempotencyKeyOf, runIdempotent } from '../../http/idempotency.ts';
import {
  createAccount,
  deleteAccount,
  getLedgerSettings,
  importChartCsv,
  listAccounts,
  updateAccount,
  updateLedgerSettings,
} from './accounts.ts';
import { listEntries } from './entries.ts';
import {
  DATE_FORMATS,
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
import { closeFiscalYear, listFiscalYears, postOpeningBalances, reopenFiscalYear } from './fiscal.ts';
import { exportJournal, importJournal } from './hledger.ts';
import {
  approveEntry,
  createDraftEntry,
  deleteDraftEntry,
  loadEntry,
  postDraftEntry,
  postJournalEntry,
  reverseJournalEntry,
  updateDraftEntry,
} from './posting.ts';
import {
  accountTransactions,
  balanceSheet,
  cashFlow,
  generalLedger,
  incomeStatement,
  journalReport,
  trialBalance,
} from './reports.ts';

// HTTP routes of the ledger, all under /api/orgs/:organizationId/. Each parses, authorises,
// calls one service function and shapes the answer.

const tags = ['ledger'];
const orgParams = z.object({ organizationId: z.string().min(1) });
const entryParams = orgParams.extend({ entryId: z.string().min(1) });
const accountParams = orgParams.extend({ accountId: z.string().min(1) });
const yearParams = orgParams.extend({ endDate: isoDate });
const attachmentParams = entryParams.extend({ attachmentId: z.string().min(1) });

const formatQuery = z.object({
  dateFormat: z.enum(DATE_FORMATS).default('YYYY-MM-DD'),
  locale: z
    .string()
    .max(20)
    .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'Use a language tag such as en-US.')
    .default('en-US'),
  currencyDisplay: z.enum(['symbol', 'code']).default('symbol'),
});

const errorBody = z.object({
  error: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() }),
});
const listOf = <T extends z.ZodTypeAny>(item: T) =>
  z.object({ entries: z.array(item), nextCursor: z.string().nullable() });

const sendReport = async (
  reply: FastifyReply,
  format: 'json' | 'csv' | 'pdf',
  data: unknown,
  table: () => ReportTable,
  prefs: FormatPreferences,
  fileName: string,
  companyName: () => Promise<string>,
) => {
  if (format === 'json') return data;
  const t = table();
  if (format === 'csv') {
    return csvReply(reply, `${fileName}.csv`).send(tableToCsv(t));
  }
  const pdf = await tableToPdf(t, prefs, await companyName());
  return reply
    .header('content-type', 'application/pdf')
    .header('content-disposition', `attachment; filename="${fileName}.pdf"`)
    .send(pdf);
};

export const ledgerRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const db = ctx.database.db;
    const companyName = (organizationId: string) => async () =>
      (
        await db
          .selectFrom('organizations')
          .select('name')
          .where('id', '=', organizationId)
          .executeTakeFirst()
      )?.name ?? '';
    const guard = (permission: Parameters<typeof requirePermission>[1]) => requirePermission(ctx, permission);
    const legacyDir = legacyAttachmentsDir(ctx.config.dataDir);
    // Multipart only for this plugin's attachment upload; the file size limit is enforced by
    // the parser while streaming, so an oversized upload never sits whole in memory.
    await app.register(multipart, multipartOptions);

    // --- Settings -----------------------------------------------------------------------
    app.get(
      '/orgs/:organizationId/ledger/settings',
      {
        schema: {
          tags,
          summary: 'Ledger settings (lock date, approval)',
          params: orgParams,
          response: { 200: ledgerSettingsSchema },
        },
        preHandler: guard('read'),
      },
      async (request) => getLedgerSettings(db, memberOf(request).organizationId),
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
        preHandler: guard('manage_settings'),
      },
      async (request) => {
        const m = memberOf(request);
        return updateLedgerSettings(db, m.organizationId, m.userId, request.body);
      },
    );

    // --- Chart of accounts --------------------------------------------------------------
    app.get(
      '/orgs/:organizationId/accounts',
      {
        schema: {
          tags,
          summary: 'Chart of accounts',
          params: orgParams,
          response: { 200: z.object({ accounts: z.array(accountSchema) }) },
        },
        preHandler: guard('read'),
      },
      async (request) => ({ accounts: await listAccounts(db, memberOf(request).organizationId) }),
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
        preHandler: guard('manage_settings'),
      },
      async (request, reply) => {
        const m = memberOf(request);
        return reply.status(201).send(await createAccount(db, m.organizationId, m.userId, request.body));
      },
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
        preHandler: guard('manage_settings'),
      },
      async (request) => {
        const m = memberOf(request);
        return updateAccount(db, m.organizationId, request.params.accountId, m.userId, request.body);
      },
    );
    app.delete(
      '/orgs/:organizationId/accounts/:accountId',
      {
        schema: {
          tags,
          summary: 'Delete an account that never took a posting',
          params: accountParams,
          response: { 204: z.null() },
        },
        preHandler: guard('manage_settings'),
      },
      async (request, reply) => {
        const m = memberOf(request);
        await deleteAccount(db, m.organizationId, request.params.accountId, m.userId);
        return reply.status(204).send(null);
      },
    );
    app.post(
      '/orgs/:organizationId/accounts/import',
      {
        schema: {
          tags,
          summary:
            'Import a chart of accounts from CSV (code,name,type[,subtype,parent_code,currency,description])',
          params: orgParams,
          body: z.object({ csv: z.string().min(1, 'Paste or upload the CSV text.').max(2_000_000) }),
          response: { 200: z.object({ created: z.number(), updated: z.number() }) },
        },
        preHandler: guard('manage_settings'),
      },
      async (request) => {
        const m = memberOf(request);
        return importChartCsv(db, m.organizationId, m.userId, request.body.csv);
      },
    );

    // --- Journal entries ----------------------------------------------------------------
    app.get(
      '/orgs/:organizationId/journal-entries',
      {
        schema: {
          tags,
          summary: 'Journal entries, newest first',
          params: orgParams,
          querystring: journalListQuerySchema,
          response: { 200: listOf(journalEntrySchema) },
        },
        preHandler: guard('read'),
      },
      async (request) => listEntries(db, memberOf(request).organizationId, request.query),
    );
    app.get(
      '/orgs/:organizationId/journal-entries/:entryId',
      {
        schema: {
          tags,
          summary: 'One journal entry with its lines',
          params: entryParams,
          response: { 200: journalEntrySchema },
        },
        preHandler: guard('read'),
      },
      async (request) => loadEntry(db, memberOf(request).organizationId, request.params.entryId),
    );
    app.post(
      '/orgs/:organizationId/journal-entries',
      {
        schema: {
          tags,
          summary: 'Create a manual entry as a draft or post it (accepts Idempotency-Key)',
          params: orgParams,
          body: manualEntryCreateSchema,
          response: { 201: journalEntrySchema, 200: journalEntrySchema, 409: errorBody },
        },
        preHandler: guard('record'),
      },
      async (request, reply) => {
        const m = memberOf(request);
        const { status, ...input } = request.body;
        if (status === 'posted' && !roleCan(m.role, 'post')) {
          throw forbidden(`Your role (${m.role}) can save drafts but not post. Save it as a draft instead.`);
        }
        const canApprove = roleCan(m.role, 'approve');
        const result = await runIdempotent(
          db,
          {
            organizationId: m.organizationId,
            key: idempotencyKeyOf(request),
            scope: 'POST /journal-entries',
            payload: { ...request.body, userId: m.userId },
          },
          async (trx) => {
            const settings = await getLedgerSettings(trx, m.organizationId);
            const base = { organizationId: m.organizationId, actorUserId: m.userId, ...input };
            if (status === 'draft' || (settings.approvalRequired && !canApprove)) {
              const draft = await createDraftEntry(trx, base);
              const body =
                status === 'draft'
                  ? draft
                  : await postDraftEntry(trx, {
                      organizationId: m.organizationId,
                      entryId: draft.id,
                      actorUserId: m.userId,
                      canApprove,
                    });
              return { statusCode: 201, body };
            }
            return { statusCode: 201, body: await postJournalEntry(trx, { ...base, source: 'manual' }) };
          },
        );
        if (result.replayed) reply.header('idempotent-replayed', 'true');
        return reply.status(result.statusCode as 201).send(result.body);
      },
    );
    app.patch(
      '/orgs/:organizationId/journal-entries/:entryId',
      {
        schema: {
          tags,
          summary: 'Edit a draft or pending entry',
          params: entryParams,
          body: draftUpdateSchema,
          response: { 200: journalEntrySchema },
        },
        preHandler: guard('record'),
      },
      async (request) => {
        const m = memberOf(request);
        return updateDraftEntry(db, {
          organizationId: m.organizationId,
          entryId: request.params.entryId,
          actorUserId: m.userId,
          ...request.body,
        });
      },
    );
    app.delete(
      '/orgs/:organizationId/journal-entries/:entryId',
      {
        schema: {
          tags,
          summary: 'Delete a draft or pending entry',
          params: entryParams,
          response: { 204: z.null() },
        },
        preHandler: guard('record'),
      },
      async (request, reply) => {
        const m = memberOf(request);
        await deleteDraftEntry(db, {
          organizationId: m.organizationId,
          entryId: request.params.entryId,
          actorUserId: m.userId,
        });
        return reply.status(204).send(null);
      },
    );
    app.post(
      '/orgs/:organizationId/journal-entries/:entryId/post',
      {
        schema: {
          tags,
          summary: 'Post a draft (or submit it for approval); accepts Idempotency-Key',
          params: entryParams,
          response: { 200: journalEntrySchema },
        },
        preHandler: guard('post'),
      },
      async (request, reply) => {
        const m = memberOf(request);
        const result = await runIdempotent(
          db,
          {
            organizationId: m.organizationId,
            key: idempotencyKeyOf(request),
            scope: `POST /journal-entries/${request.params.entryId}/post`,
            payload: { userId: m.userId },
          },
          async (trx) => ({
            statusCode: 200,
            body: await postDraftEntry(trx, {
              organizationId: m.organizationId,
              entryId: request.params.entryId,
              actorUserId: m.userId,
              canApprove: roleCan(m.role, 'approve'),
            }),
          }),
        );
        if (result.replayed) reply.header('idempotent-replayed', 'true');
        return reply.status(result.statusCode as 200).send(result.body);
      },
    );
    app.post(
      '/orgs/:organizationId/journal-entries/:entryId/approve',
      {
        schema: {
          tags,
          summary: 'Approve and post an entry waiting for approval',
          params: entryParams,
          response: { 200: journalEntrySchema },
        },
        preHandler: guard('approve'),
      },
      async (request) => {
        const m = memberOf(request);
        return approveEntry(db, {
          organizationId: m.organizationId,
          entryId: request.params.entryId,
          actorUserId: m.userId,
        });
      },
    );
    app.post(
      '/orgs/:organizationId/journal-entries/:entryId/reverse',
      {
        schema: {
          tags,
          summary: 'Post the reversing entry of a posted entry; accepts Idempotency-Key',
          params: entryParams,
          body: reverseEntrySchema.optional(),
          response: { 201: journalEntrySchema },
        },
        preHandler: guard('post'),
      },
      async (request, reply) => {
        const m = memberOf(request);
        const body = request.body ?? {};
        const result = await runIdempotent(
          db,
          {
            organizationId: m.organizationId,
            key: idempotencyKeyOf(request),
            scope: `POST /journal-entries/${request.params.entryId}/reverse`,
            payload: body,
          },
          async (trx) => ({
            statusCode: 201,
            body: await reverseJournalEntry(trx, {
              organizationId: m.organizationId,
              entryId: request.params.entryId,
              actorUserId: m.userId,
              ...body,
            }),
          }),
        );
        if (result.replayed) reply.header('idempotent-replayed', 'true');
        return reply.status(result.statusCode as 201).send(result.body);
      },
    );
    app.post(
      '/orgs/:organizationId/opening-balances',
      {
        schema: {
          tags,
          summary:
            'Post opening balances (the difference goes to Opening balance equity); accepts Idempotency-Key',
          params: orgParams,
          body: openingBalancesSchema,
          response: { 201: journalEntrySchema },
        },
        preHandler: guard('post'),
      },
      async (request, reply) => {
        const m = memberOf(request);
        const result = await runIdempotent(
          db,
          {
            organizationId: m.organizationId,
            key: idempotencyKeyOf(request),
            scope: 'POST /opening-balances',
            payload: request.body,
          },
          async (trx) => ({
            statusCode: 201,
            body: await postOpeningBalances(trx, {
              organizationId: m.organizationId,
              actorUserId: m.userId,
              ...request.body,
            }),
          }),
        );
        if (result.replayed) reply.header('idempotent-replayed', 'true');
        return reply.status(result.statusCode as 201).send(result.body);
      },
    );

    // --- Attachments --------------------------------------------------------------------
    const attachmentSchema = z.object({
      id: z.string(),
      fileName: z.string(),
      contentType: z.string(),
      sizeBytes: z.number(),
      createdAt: z.string(),
    });
    app.post(
      '/orgs/:organizationId/journal-entries/:entryId/attachments',
      {
        schema: {
          tags,
          summary:
            'Attach a receipt (multipart field "file"; PDF, PNG, JPEG, GIF, WebP, HEIC or plain text, at most 10 MB; the type is read from the bytes)',
          params: entryParams,
          consumes: ['multipart/form-data'],
          response: { 201: attachmentSchema },
        },
        preHandler: guard('record'),
      },
      async (request, reply) => {
        const m = memberOf(request);
        const file = await checkUpload(await readMultipartUpload(request));
        const attachment = await storeAttachment(db, 'journal_entry', {
          organizationId: m.organizationId,
          ownerId: request.params.entryId,
          actorUserId: m.userId,
          file,
        });
        return reply.status(201).send(attachment);
      },
    );
    app.get(
      '/orgs/:organizationId/journal-entries/:entryId/attachments/:attachmentId',
      {
        schema: { tags, summary: 'Download an attachment', params: attachmentParams },
        preHandler: guard('read'),
      },
      async (request, reply) => {
        const m = memberOf(request);
        const file = await readAttachment(db, 'journal_entry', {
          organizationId: m.organizationId,
          ownerId: request.params.entryId,
          attachmentId: request.params.attachmentId,
          legacyDir,
        });
        return sendAttachment(reply, file);
      },
    );
    app.delete(
      '/orgs/:organizationId/journal-entries/:entryId/attachments/:attachmentId',
      {
        schema: {
          tags,
          summary: 'Remove an attachment',
          params: attachmentParams,
          response: { 204: z.null() },
        },
        preHandler: guard('record'),
      },
      async (request, reply) => {
        const m = memberOf(request);
        await removeAttachment(db, 'journal_entry', {
          organizationId: m.organizationId,
          ownerId: request.params.entryId,
          attachmentId: request.params.attachmentId,
          actorUserId: m.userId,
          legacyDir,
        });
        return reply.status(204).send(null);
      },
    );

    // --- Fiscal years -------------------------------------------------------------------
    app.get(
      '/orgs/:organizationId/fiscal-years',
      {
        schema: {
          tags,
          summary: 'Fiscal years and whether each is closed',
          params: orgParams,
          response: { 200: z.object({ years: z.array(fiscalYearSchema) }) },
        },
        preHandler: guard('read'),
      },
      async (request) => ({
        years: await listFiscalYears(
          db,
          memberOf(request).organizationId,
          ctx.now().toISOString().slice(0, 10),
        ),
      }),
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
        preHandler: guard('manage_settings'),
      },
      async (request) => {
        const m = memberOf(request);
        return closeFiscalYear(db, {
          organizationId: m.organizationId,
          endDate: request.params.endDate,
          actorUserId: m.userId,
        });
      },
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
        preHandler: guard('manage_settings'),
      },
      async (request) => {
        const m = memberOf(request);
        return reopenFiscalYear(db, {
          organizationId: m.organizationId,
          endDate: request.params.endDate,
          actorUserId: m.userId,
        });
      },
    );

    // --- Reports ------------------------------------------------------------------------
    const rangeQuery = reportRangeQuerySchema.extend(formatQuery.shape);
    const asOfQuery = asOfQuerySchema.extend(formatQuery.shape);
    const prefsOf = (q: z.infer<typeof formatQuery>): FormatPreferences => ({
      dateFormat: q.dateFormat,
      locale: q.locale,
      currencyDisplay: q.currencyDisplay,
    });
    const reportSchema = (summary: string, querystring: z.ZodTypeAny, response: z.ZodTypeAny) => ({
      schema: {
        tags: ['reports'],
        summary: `${summary} (format=json|csv|pdf)`,
        params: orgParams,
        querystring,
        response: { 200: response },
      },
      preHandler: guard('read'),
    });

    app.get(
      '/orgs/:organizationId/reports/trial-balance',
      reportSchema('Trial balance', rangeQuery, trialBalanceSchema),
      async (request, reply) => {
        const q = request.query as z.infer<typeof rangeQuery>;
        const orgId = memberOf(request).organizationId;
        const data = await trialBalance(db, orgId, q);
        return sendReport(
          reply,
          q.format,
          data,
          () => trialBalanceTable(data, prefsOf(q)),
          prefsOf(q),
          `trial-balance-${q.to}`,
          companyName(orgId),
        );
      },
    );
    app.get(
      '/orgs/:organizationId/reports/income-statement',
      reportSchema('Income statement with the previous period', rangeQuery, incomeStatementSchema),
      async (request, reply) => {
        const q = request.query as z.infer<typeof rangeQuery>;
        const orgId = memberOf(request).organizationId;
        const data = await incomeStatement(db, orgId, q);
        return sendReport(
          reply,
          q.format,
          data,
          () => incomeStatementTable(data, prefsOf(q)),
          prefsOf(q),
          `income-statement-${q.to}`,
          companyName(orgId),
        );
      },
    );
    app.get(
      '/orgs/:organizationId/reports/balance-sheet',
      reportSchema('Balance sheet', asOfQuery, balanceSheetSchema),
      async (request, reply) => {
        const q = request.query as z.infer<typeof asOfQuery>;
        const orgId = memberOf(request).organizationId;
        const data = await balanceSheet(db, orgId, q.asOf);
        return sendReport(
          reply,
          q.format,
          data,
          () => balanceSheetTable(data, prefsOf(q)),
          prefsOf(q),
          `balance-sheet-${q.asOf}`,
          companyName(orgId),
        );
      },
    );
    app.get(
      '/orgs/:organizationId/reports/cash-flow',
      reportSchema('Cash flow statement (indirect method)', rangeQuery, cashFlowSchema),
      async (request, reply) => {
        const q = request.query as z.infer<typeof rangeQuery>;
        const orgId = memberOf(request).organizationId;
        const data = await cashFlow(db, orgId, q);
        return sendReport(
          reply,
          q.format,
          data,
          () => cashFlowTable(data, prefsOf(q)),
          prefsOf(q),
          `cash-flow-${q.to}`,
          companyName(orgId),
        );
      },
    );
    const glQuery = generalLedgerQuerySchema.extend(formatQuery.shape);
    app.get(
      '/orgs/:organizationId/reports/general-ledger',
      reportSchema(
        'General ledger of one account with running balance, paginated',
        glQuery,
        generalLedgerSchema,
      ),
      async (request, reply) => {
        const q = request.query as z.infer<typeof glQuery>;
        const orgId = memberOf(request).organizationId;
        // Exports hold the whole range, not one page.
        const data = await generalLedger(
          db,
          orgId,
          q.format === 'json' ? q : { ...q, limit: 100_000, cursor: undefined },
        );
        return sendReport(
          reply,
          q.format,
          data,
          () => generalLedgerTable(data, prefsOf(q)),
          prefsOf(q),
          `general-ledger-${q.to}`,
          companyName(orgId),
        );
      },
    );
    const journalQuery = journalReportQuerySchema.extend(formatQuery.shape);
    const journalReportSchema = z.object({
      currency: z.string(),
      from: z.string().nullable(),
      to: z.string(),
      entries: z.array(
        z.object({
          id: z.string(),
          number: z.number(),
          date: z.string(),
          memo: z.string(),
          reference: z.string().nullable(),
          source: z.string(),
          reversesEntryId: z.string().nullable(),
          lines: z.array(
            z.object({
              lineNo: z.number(),
              accountId: z.string(),
              accountCode: z.string(),
              accountName: z.string(),
              debit: z.number(),
              credit: z.number(),
              currency: z.string().nullable(),
              amount: z.number().nullable(),
              description: z.string().nullable(),
            }),
          ),
        }),
      ),
      nextCursor: z.string().nullable(),
    });
    app.get(
      '/orgs/:organizationId/reports/journal',
      reportSchema('Journal: posted entries with their lines, paginated', journalQuery, journalReportSchema),
      async (request, reply) => {
        const q = request.query as z.infer<typeof journalQuery>;
        const orgId = memberOf(request).organizationId;
        const data = await journalReport(
          db,
          orgId,
          q.format === 'json' ? q : { ...q, limit: 20_000, cursor: undefined },
        );
        return sendReport(
          reply,
          q.format,
          data,
          () => journalTable(data, prefsOf(q)),
          prefsOf(q),
          `journal-${q.to}`,
          companyName(orgId),
        );
      },
    );
    const txQuery = journalReportQuerySchema.extend({
      accountId: z.string().optional(),
      ...formatQuery.shape,
    });
    const txSchema = z.object({
      currency: z.string(),
      from: z.string().nullable(),
      to: z.string(),
      rows: z.array(
        z.object({
          entryId: z.string(),
          entryNumber: z.number(),
          lineNo: z.number(),
          date: z.string(),
          accountId: z.string(),
          account: z.string(),
          memo: z.string(),
          source: z.string(),
          description: z.string().nullable(),
          split: z.string(),
          debit: z.number(),
          credit: z.number(),
        }),
      ),
      nextCursor: z.string().nullable(),
    });
    app.get(
      '/orgs/:organizationId/reports/account-transactions',
      reportSchema('Account transactions with the other side of each entry, paginated', txQuery, txSchema),
      async (request, reply) => {
        const q = request.query as z.infer<typeof txQuery>;
        const orgId = memberOf(request).organizationId;
        const data = await accountTransactions(
          db,
          orgId,
          q.format === 'json' ? q : { ...q, limit: 100_000, cursor: undefined },
        );
        return sendReport(
          reply,
          q.format,
          data,
          () => accountTransactionsTable(data, prefsOf(q)),
          prefsOf(q),
          `account-transactions-${q.to}`,
          companyName(orgId),
        );
      },
    );

    // --- Plain-text accounting ----------------------------------------------------------
    app.get(
      '/orgs/:organizationId/ledger/export.journal',
      {
        schema: {
          tags,
          summary: 'The journal as an hledger/ledger file',
          params: orgParams,
          querystring: z.object({ from: isoDate.optional(), to: isoDate.optional() }),
        },
        preHandler: guard('read'),
      },
      async (request, reply) => {
        const orgId = memberOf(request).organizationId;
        return reply
          .header('content-type', 'text/plain; charset=utf-8')
          .header('content-disposition', 'attachment; filename="kontor.journal"')
          .send(Readable.from(exportJournal(db, orgId, request.query)));
      },
    );
    app.post(
      '/orgs/:organizationId/ledger/import',
      {
        schema: {
          tags,
          summary:
            'Import an hledger/ledger journal file: every transaction is posted, unknown accounts are created; the same file twice is refused (409)',
          params: orgParams,
          body: z.object({
            journal: z
              .string()
              .min(1, 'Paste or upload the journal text.')
              .max(10_000_000, 'The journal is longer than 10 MB; split it by year and import each part.'),
          }),
          response: {
            200: z.object({
              entries: z.number(),
              createdAccounts: z.number(),
              accounts: z.array(
                z.object({
                  journalName: z.string(),
                  accountId: z.string(),
                  code: z.string(),
                  name: z.string(),
                  created: z.boolean(),
                }),
              ),
              notices: z.array(z.object({ line: z.number(), message: z.string() })),
              noticeCount: z.number(),
            }),
            400: errorBody,
            409: errorBody,
          },
        },
        preHandler: guard('manage_settings'),
        bodyLimit: 11 * 1024 * 1024,
      },
      async (request) => {
        const m = memberOf(request);
        if (!roleCan(m.role, 'post')) throw forbidden('Importing posts entries; your role cannot post.');
        return importJournal(db, m.organizationId, m.userId, request.body.journal);
      },
    );
  };
