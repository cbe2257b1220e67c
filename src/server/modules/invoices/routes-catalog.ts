import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  invoiceSettingsSchema,
  invoiceSettingsUpdateSchema,
  invoicingAccountsSchema,
  itemInputSchema,
  itemListQuerySchema,
  itemListSchema,
  itemSchema,
  itemUpdateSchema,
  taxRateInputSchema,
  taxRateListSchema,
  taxRateSchema,
  taxRateUpdateSchema,
} from '../../../shared/invoices.ts';
import type { AppContext } from '../../context.ts';
import { memberOf } from '../../http/tenancy.ts';
import {
  createItem,
  createTaxRate,
  listInvoicingAccounts,
  listItems,
  listTaxRates,
  updateItem,
  updateTaxRate,
} from './catalog.ts';
import { guarded, itemParams, orgParams, taxRateParams } from './routes-common.ts';
import { getInvoiceSettings, readLogo, updateInvoiceSettings } from './settings.ts';

// What invoices are made of: items, tax rates, the accounts invoicing offers, and the invoice
// settings with the logo. Tax rates and settings need 'manage_settings'.

export const invoiceCatalogRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/orgs/:organizationId/items',
      guarded(ctx, 'read', 'Products and services', {
        params: orgParams,
        querystring: itemListQuerySchema,
        response: { 200: itemListSchema },
      }),
      async (request) => listItems(ctx, memberOf(request), request.query),
    );
    app.post(
      '/orgs/:organizationId/items',
      guarded(ctx, 'record', 'Create an item', {
        params: orgParams,
        body: itemInputSchema,
        response: { 201: itemSchema },
      }),
      async (request, reply) =>
        reply.status(201).send(await createItem(ctx, memberOf(request), request.body)),
    );
    app.patch(
      '/orgs/:organizationId/items/:itemId',
      guarded(ctx, 'record', 'Edit or archive an item', {
        params: itemParams,
        body: itemUpdateSchema,
        response: { 200: itemSchema },
      }),
      async (request) =>
        updateItem(ctx, memberOf(request), { ...request.body, itemId: request.params.itemId }),
    );
    app.get(
      '/orgs/:organizationId/tax-rates',
      guarded(ctx, 'read', 'Tax rates', { params: orgParams, response: { 200: taxRateListSchema } }),
      async (request) => listTaxRates(ctx, memberOf(request)),
    );
    app.post(
      '/orgs/:organizationId/tax-rates',
      guarded(ctx, 'manage_settings', 'Create a tax rate', {
        params: orgParams,
        body: taxRateInputSchema,
        response: { 201: taxRateSchema },
      }),
      async (request, reply) =>
        reply.status(201).send(await createTaxRate(ctx, memberOf(request), request.body)),
    );
    app.patch(
      '/orgs/:organizationId/tax-rates/:taxRateId',
      guarded(ctx, 'manage_settings', 'Rename or archive a tax rate', {
        params: taxRateParams,
        body: taxRateUpdateSchema,
        response: { 200: taxRateSchema },
      }),
      async (request) =>
        updateTaxRate(ctx, memberOf(request), { ...request.body, taxRateId: request.params.taxRateId }),
    );
    app.get(
      '/orgs/:organizationId/invoicing-accounts',
      guarded(
        ctx,
        'read',
        'Accounts invoicing can use: income, tax liabilities, bank and cash for deposits',
        {
          params: orgParams,
          response: { 200: invoicingAccountsSchema },
        },
      ),
      async (request) => listInvoicingAccounts(ctx, memberOf(request)),
    );
    app.get(
      '/orgs/:organizationId/invoice-settings',
      guarded(ctx, 'read', 'Invoice numbering, defaults and company details', {
        params: orgParams,
        response: { 200: invoiceSettingsSchema },
      }),
      async (request) => getInvoiceSettings(ctx, memberOf(request)),
    );
    app.patch(
      '/orgs/:organizationId/invoice-settings',
      guarded(ctx, 'manage_settings', 'Change invoice prefix, numbering, address, tax number, logo', {
        params: orgParams,
        body: invoiceSettingsUpdateSchema,
        response: { 200: invoiceSettingsSchema },
      }),
      async (request) => updateInvoiceSettings(ctx, memberOf(request), request.body),
    );
    app.get(
      '/orgs/:organizationId/invoice-settings/logo',
      guarded(ctx, 'read', 'The logo printed on invoices', { params: orgParams }),
      async (request, reply) => {
        const logo = await readLogo(ctx, memberOf(request));
        return reply
          .header('content-type', logo.contentType)
          .header('cache-control', 'private, no-cache')
          .send(logo.data);
      },
    );
  };
