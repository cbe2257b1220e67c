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
import { companyRoutePlugin } from '../../http/routes.ts';
import {
  createItem,
  createTaxRate,
  listInvoicingAccounts,
  listItems,
  listTaxRates,
  updateItem,
  updateTaxRate,
} from './catalog.ts';
import { getInvoiceSettings, readLogo, updateInvoiceSettings } from './settings.ts';

// What invoices are made of: items, tax rates, the accounts invoicing offers, and the invoice
// settings with the logo. Tax rates and settings need 'manage_settings'.

export const invoiceCatalogRoutes = companyRoutePlugin(['invoices'], (route) => {
  route.get(
    '/items',
    {
      summary: 'Products and services',
      permission: 'read',
      query: itemListQuerySchema,
      response: itemListSchema,
    },
    listItems,
  );
  route.post(
    '/items',
    {
      summary: 'Create an item',
      permission: 'record',
      body: itemInputSchema,
      response: itemSchema,
      status: 201,
    },
    createItem,
  );
  route.patch(
    '/items/:itemId',
    {
      summary: 'Edit or archive an item',
      permission: 'record',
      body: itemUpdateSchema,
      response: itemSchema,
    },
    updateItem,
  );
  route.get(
    '/tax-rates',
    { summary: 'Tax rates', permission: 'read', response: taxRateListSchema },
    listTaxRates,
  );
  route.post(
    '/tax-rates',
    {
      summary: 'Create a tax rate',
      permission: 'manage_settings',
      body: taxRateInputSchema,
      response: taxRateSchema,
      status: 201,
    },
    createTaxRate,
  );
  route.patch(
    '/tax-rates/:taxRateId',
    {
      summary: 'Rename or archive a tax rate',
      permission: 'manage_settings',
      body: taxRateUpdateSchema,
      response: taxRateSchema,
    },
    updateTaxRate,
  );
  route.get(
    '/invoicing-accounts',
    {
      summary: 'Accounts invoicing can use: income, tax liabilities, bank and cash for deposits',
      permission: 'read',
      response: invoicingAccountsSchema,
    },
    listInvoicingAccounts,
  );
  route.get(
    '/invoice-settings',
    {
      summary: 'Invoice numbering, defaults and company details',
      permission: 'read',
      response: invoiceSettingsSchema,
    },
    getInvoiceSettings,
  );
  route.patch(
    '/invoice-settings',
    {
      summary: 'Change invoice prefix, numbering, address, tax number, logo',
      permission: 'manage_settings',
      body: invoiceSettingsUpdateSchema,
      response: invoiceSettingsSchema,
    },
    updateInvoiceSettings,
  );
  route.get(
    '/invoice-settings/logo',
    { summary: 'The logo printed on invoices', permission: 'read', produces: ['image/*'] },
    async (c, member, _input, { reply }) => {
      const logo = await readLogo(c, member);
      return reply
        .header('content-type', logo.contentType)
        .header('cache-control', 'private, no-cache')
        .send(logo.data);
    },
  );
});
