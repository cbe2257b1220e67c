import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  accountCreateSchema,
  accountSchema,
  accountUpdateSchema,
  chartImportResultSchema,
  chartImportSchema,
  ledgerSettingsSchema,
  ledgerSettingsUpdateSchema,
} from '../../../shared/ledger.ts';
import type { AppContext } from '../../context.ts';
import { memberOf, requirePermission } from '../../http/tenancy.ts';
import { accountParams, orgParams, tags } from './routes-common.ts';
import {
  addAccount,
  changeAccount,
  changeLedgerSettings,
  chartOfAccounts,
  importChart,
  readLedgerSettings,
  removeAccount,
} from './service.ts';

// Ledger settings (lock date, approval) and the chart of accounts.

export const ledgerAccountRoutes =
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
    app.delete(
      '/orgs/:organizationId/accounts/:accountId',
      {
        schema: {
          tags,
          summary: 'Delete an account that never took a posting',
          params: accountParams,
          response: { 204: z.null() },
        },
        preHandler: requirePermission(ctx, 'manage_settings'),
      },
      async (request, reply) => {
        await removeAccount(ctx, memberOf(request), request.params);
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
          body: chartImportSchema,
          response: { 200: chartImportResultSchema },
        },
        preHandler: requirePermission(ctx, 'manage_settings'),
      },
      async (request) => importChart(ctx, memberOf(request), request.body),
    );
  };
