import {
  supplierImportResultSchema,
  supplierImportSchema,
  supplierInputSchema,
  supplierListQuerySchema,
  supplierListSchema,
  supplierSchema,
  supplierStatementQuerySchema,
  supplierStatementSchema,
  supplierUpdateSchema,
} from '../../../shared/payables.ts';
import { csvReply, csvRows } from '../../http/csv.ts';
import { companyRoutePlugin } from '../../http/routes.ts';
import { importSuppliers } from './supplier-import.ts';
import { readSupplierStatement, supplierStatementCsv } from './supplier-statement.ts';
import { createSupplier, listSuppliers, readSupplier, updateSupplier } from './suppliers.ts';

// Payables routes: suppliers, their CSV import and their statement. Reading needs 'read',
// creating, editing, archiving and importing 'record'.

export const payablesSuppliersRoutes = companyRoutePlugin(['payables'], (route) => {
  route.get(
    '/suppliers',
    {
      summary: 'Suppliers, searchable by name, company or email, and paged',
      permission: 'read',
      query: supplierListQuerySchema,
      response: supplierListSchema,
    },
    listSuppliers,
  );
  route.post(
    '/suppliers',
    {
      summary: 'Create a supplier',
      permission: 'record',
      body: supplierInputSchema,
      response: supplierSchema,
      status: 201,
    },
    createSupplier,
  );
  route.post(
    '/suppliers/import',
    {
      summary: 'Import suppliers from CSV text: all rows or none; existing names are skipped',
      permission: 'record',
      body: supplierImportSchema,
      response: supplierImportResultSchema,
      bodyLimit: 12 * 1024 * 1024,
    },
    importSuppliers,
  );
  route.get(
    '/suppliers/:supplierId',
    {
      summary: 'A supplier with what the company owes them and the credit they gave',
      permission: 'read',
      response: supplierSchema,
    },
    readSupplier,
  );
  route.patch(
    '/suppliers/:supplierId',
    {
      summary: 'Edit, archive or restore a supplier',
      permission: 'record',
      body: supplierUpdateSchema,
      response: supplierSchema,
    },
    updateSupplier,
  );
  route.get(
    '/suppliers/:supplierId/statement',
    {
      summary: "A supplier's statement in the base currency: documents and running balance over a date range",
      permission: 'read',
      query: supplierStatementQuerySchema,
      response: supplierStatementSchema,
    },
    readSupplierStatement,
  );
  route.get(
    '/suppliers/:supplierId/statement.csv',
    {
      summary: "A supplier's statement as CSV",
      permission: 'read',
      query: supplierStatementQuerySchema,
      produces: ['text/csv'],
    },
    async (c, member, input, { reply }) => {
      const csv = await supplierStatementCsv(c, member, input);
      return csvReply(reply, csv.fileName).send(csvRows(csv.rows));
    },
  );
});
