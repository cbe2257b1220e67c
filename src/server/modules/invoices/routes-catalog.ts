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
import { memberOf, requirePermission } from '../../http/tenancy.ts';
import {
  createItem,
  createTaxRate,
  listInvoicingAccounts,
  listItems,
  listTaxRates,
  updateItem,
  updateTaxRate,
} from './catalog.ts';
import { itemParams, orgParams, tags, taxRateParams } from './routes-common.ts';
import { getInvoiceSettings, readLogo, updateInvoiceSettings } from './settings.ts';

// What invoices are made of: items, tax rates, the accounts invoicing offers, and the invoice
// settings with the logo. Tax rates and settings need 'manage_settings'.

export const invoiceCatalogRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const read = requirePermission(ctx, 'read');
    const record = requirePermission(ctx, 'record');
    const settings = requirePermission(ctx, 'manage_settings');
    app.get(
      '/orgs/:organizationId/items',
      {
        preHandler: read,
        schema: {
          tags,
          summary: 'Products and services',
          params: orgParams,
          querystring: itemListQuerySchema,
          response: { 200: itemListSchema },
        },
      },
      async (request) => listItems(ctx, memberOf(request), request.query),
    );
    app.post(
      '/orgs/:organizationId/items',
      {
        preHandler: record,
        schema: {
          tags,
          summary: 'Create an item',
          params: orgParams,
          body: itemInputSchema,
          response: { 201: itemSchema },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await createItem(ctx, memberOf(request), request.body)),
    );
    app.patch(
      '/orgs/:organizationId/items/:itemId',
      {
        preHandler: record,
        schema: {
          tags,
          summary: 'Edit or archive an item',
          params: itemParams,
          body: itemUpdateSchema,
          response: { 200: itemSchema },
        },
      },
      async (request) =>
        updateItem(ctx, memberOf(request), { ...request.body, itemId: request.params.itemId }),
    );
    app.get(
      '/orgs/:organizationId/tax-rates',
      {
        preHandler: read,
        schema: { tags, summary: 'Tax rates', params: orgParams, response: { 200: taxRateListSchema } },
      },
      async (request) => listTaxRates(ctx, memberOf(request)),
    );
    app.post(
      '/orgs/:organizationId/tax-rates',
      {
        preHandler: settings,
        schema: {
          tags,
          summary: 'Create a tax rate',
          params: orgParams,
          body: taxRateInputSchema,
          response: { 201: taxRateSchema },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await createTaxRate(ctx, memberOf(request), request.body)),
    );
    app.patch(
      '/orgs/:organizationId/tax-rates/:taxRateId',
      {
        preHandler: settings,
        schema: {
          tags,
          summary: 'Rename or archive a tax rate',
          params: taxRateParams,
          body: taxRateUpdateSchema,
          response: { 200: taxRateSchema },
        },
      },
      async (request) =>
        updateTaxRate(ctx, memberOf(request), { ...request.body, taxRateId: request.params.taxRateId }),
    );
    app.get(
      '/orgs/:organizationId/invoicing-accounts',
      {
        preHandler: read,
        schema: {
          tags,
          summary: 'Accounts invoicing can use: income, tax liabilities, bank and cash for deposits',
          params: orgParams,
          response: { 200: invoicingAccountsSchema },
        },
      },
      async (request) => listInvoicingAccounts(ctx, memberOf(request)),
    );
    app.get(
      '/orgs/:organizationId/invoice-settings',
      {
        preHandler: read,
        schema: {
          tags,
          summary: 'Invoice numbering, defaults and company details',
          params: orgParams,
          response: { 200: invoiceSettingsSchema },
        },
      },
      async (request) => getInvoiceSettings(ctx, memberOf(request)),
    );
    app.patch(
      '/orgs/:organizationId/invoice-settings',
      {
        preHandler: settings,
        schema: {
          tags,
          summary: 'Change invoice prefix, numbering, address, tax number, logo',
          params: orgParams,
          body: invoiceSettingsUpdateSchema,
          response: { 200: invoiceSettingsSchema },
        },
      },
      async (request) => updateInvoiceSettings(ctx, memberOf(request), request.body),
    );
    app.get(
      '/orgs/:organizationId/invoice-settings/logo',
      { preHandler: read, schema: { tags, summary: 'The logo printed on invoices', params: orgParams } },
      async (request, reply) => {
        const logo = await readLogo(ctx, memberOf(request));
        return reply
          .header('content-type', logo.contentType)
          .header('cache-control', 'private, no-cache')
          .send(logo.data);
      },
    );
  };
