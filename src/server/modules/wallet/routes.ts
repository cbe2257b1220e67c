import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isoDate } from '../../../shared/ledger.ts';
import {
  balanceHistorySchema,
  depositAccountInputSchema,
  exchangeRateInputSchema,
  exchangeRateSchema,
  moneyAccountCreateSchema,
  moneyAccountSchema,
  moneyAccountUpdateSchema,
  walletSummarySchema,
} from '../../../shared/wallet.ts';
import type { AppContext } from '../../context.ts';
import { memberOf, requirePermission } from '../../http/tenancy.ts';
import { runIdempotentRequest } from '../../http/idempotency.ts';
import {
  balanceHistory,
  createMoneyAccount,
  deleteMoneyAccount,
  getMoneyAccount,
  getWalletSummary,
  listExchangeRates,
  setDepositAccount,
  setExchangeRate,
  updateMoneyAccount,
} from './service.ts';

const orgParams = z.object({ organizationId: z.string().min(1) });
const idParams = orgParams.extend({ id: z.string().min(1).max(100) });
const tags = ['wallet'];

const today = (ctx: AppContext) => ctx.now().toISOString().slice(0, 10);

export const walletRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/orgs/:organizationId/wallet',
      {
        schema: {
          tags,
          summary:
            'Money accounts with their ledger balances (today or asOf), the cash total and what the cards owe',
          params: orgParams,
          querystring: z.object({ asOf: isoDate.optional() }),
          response: { 200: walletSummarySchema },
        },
        preHandler: requirePermission(ctx, 'read'),
      },
      async (request) => getWalletSummary(ctx, memberOf(request), request.query.asOf ?? today(ctx)),
    );

    app.put(
      '/orgs/:organizationId/wallet/deposit-account',
      {
        schema: {
          tags,
          summary: 'Choose the deposit account: where invoice payments go unless another is picked',
          params: orgParams,
          body: depositAccountInputSchema,
          response: { 200: walletSummarySchema },
        },
        preHandler: requirePermission(ctx, 'manage_settings'),
      },
      async (request) => setDepositAccount(ctx, memberOf(request), request.body.moneyAccountId),
    );

    app.get(
      '/orgs/:organizationId/wallet/history',
      {
        schema: {
          tags,
          summary: 'Month-end balances over time',
          params: orgParams,
          querystring: z.object({ months: z.coerce.number().int().min(1).max(60).default(12) }),
          response: { 200: balanceHistorySchema },
        },
        preHandler: requirePermission(ctx, 'read'),
      },
      async (request) => balanceHistory(ctx, memberOf(request), request.query.months, today(ctx)),
    );

    app.post(
      '/orgs/:organizationId/wallet/accounts',
      {
        schema: {
          tags,
          summary: 'Add a money account (creates its ledger account and posts the opening balance)',
          params: orgParams,
          body: moneyAccountCreateSchema,
          response: { 201: moneyAccountSchema },
        },
        preHandler: requirePermission(ctx, 'manage_settings'),
      },
      async (request, reply) => {
        const member = memberOf(request);
        const result = await runIdempotentRequest(
          ctx,
          request,
          { organizationId: member.organizationId, scope: 'POST /wallet/accounts', statusCode: 201 },
          (trxCtx) => createMoneyAccount(trxCtx, member, request.body),
        );
        return reply.status(result.statusCode as 201).send(result.body);
      },
    );

    app.get(
      '/orgs/:organizationId/wallet/accounts/:id',
      {
        schema: {
          tags,
          summary: 'One money account',
          params: idParams,
          response: { 200: moneyAccountSchema },
        },
        preHandler: requirePermission(ctx, 'read'),
      },
      async (request) => getMoneyAccount(ctx, memberOf(request), request.params.id),
    );

    app.patch(
      '/orgs/:organizationId/wallet/accounts/:id',
      {
        schema: {
          tags,
          summary:
            'Rename, change details or the opening balance and date, archive or unarchive a money account',
          params: idParams,
          body: moneyAccountUpdateSchema,
          response: { 200: moneyAccountSchema },
        },
        preHandler: requirePermission(ctx, 'manage_settings'),
      },
      async (request) => updateMoneyAccount(ctx, memberOf(request), request.params.id, request.body),
    );

    app.delete(
      '/orgs/:organizationId/wallet/accounts/:id',
      {
        schema: {
          tags,
          summary: 'Delete a money account that has no activity (one with activity is archived instead)',
          params: idParams,
          response: { 204: z.null() },
        },
        preHandler: requirePermission(ctx, 'manage_settings'),
      },
      async (request, reply) => {
        await deleteMoneyAccount(ctx, memberOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/orgs/:organizationId/wallet/rates',
      {
        schema: {
          tags,
          summary: 'Exchange rates, newest first',
          params: orgParams,
          response: { 200: z.object({ rates: z.array(exchangeRateSchema) }) },
        },
        preHandler: requirePermission(ctx, 'read'),
      },
      async (request) => ({ rates: await listExchangeRates(ctx, memberOf(request)) }),
    );

    app.post(
      '/orgs/:organizationId/wallet/rates',
      {
        schema: {
          tags,
          summary: 'Set the rate of a currency on a date (base units per one unit)',
          params: orgParams,
          body: exchangeRateInputSchema,
          response: { 200: exchangeRateSchema },
        },
        preHandler: requirePermission(ctx, 'post'),
      },
      async (request) => setExchangeRate(ctx, memberOf(request), request.body),
    );
  };
