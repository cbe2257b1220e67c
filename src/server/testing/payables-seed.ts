import type { App } from '../app.ts';
import type { DatabaseHandle } from '../db/client.ts';
import { okCompanyRoute } from './api.ts';
import type { TestCompany } from './companies.ts';
import { ensureLedger } from './invoices.ts';

// One of every payables resource in a company, made through the API as a bookkeeper would:
// a supplier, a tax rate, a draft bill and an open one with an attachment, a money account,
// a payment, a batch payment, a supplier credit applied to a bill and partly refunded, and a
// recurring bill schedule. The tenant-isolation walk seeds the other company with it, so its
// lists hand the walk real ids of every kind; the fuzz test draws valid ids from it.

export type PayablesSeed = {
  supplierId: string;
  taxRateId: string;
  expenseAccountId: string;
  draftBillId: string;
  openBillId: string;
  paidBillId: string;
  attachmentId: string;
  moneyAccountId: string;
  paymentAccountId: string;
  paymentId: string;
  batchId: string;
  creditId: string;
  allocationId: string;
  refundId: string;
  scheduleId: string;
};

export const seedTestPayables = async (
  app: App,
  database: DatabaseHandle,
  company: TestCompany,
): Promise<PayablesSeed> => {
  await ensureLedger(database, company);
  const ok = <T = any>(method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) =>
    okCompanyRoute<T>(app, company, method, url, body);
  const accounts = await ok<{ accounts: { id: string; code: string }[] }>('GET', '/accounts');
  const expenseAccountId = accounts.accounts.find((a) => a.code === '6500')!.id;
  const taxRate = await ok('POST', '/tax-rates', { name: 'Input VAT 20%', percent: '20' });
  const supplier = await ok('POST', '/suppliers', {
    name: 'Seeded Paper Co',
    email: 'billing@paper.example',
    defaultAccountId: expenseAccountId,
    bankAccountNumber: 'GB33BUKB20201555555555',
  });
  const bill = (reference: string, unitPrice: number) => ({
    supplierId: supplier.id,
    reference,
    issueDate: '2026-03-01',
    lines: [{ description: 'Paper', quantity: '2', unitPrice, taxRateIds: [taxRate.id] }],
  });
  const draft = await ok('POST', '/bills', bill('SEED-1', 5_000));
  const open = await ok('POST', '/bills', bill('SEED-2', 20_000));
  await ok('POST', `/bills/${open.id}/submit`);
  const paid = await ok('POST', '/bills', bill('SEED-3', 1_000));
  await ok('POST', `/bills/${paid.id}/submit`);
  const attachment = await ok('POST', `/bills/${open.id}/attachments`, {
    fileName: 'bill.txt',
    dataBase64: Buffer.from('Supplier invoice SEED-2').toString('base64'),
  });
  const money = await ok('POST', '/wallet/accounts', {
    name: 'Operating account',
    kind: 'bank',
    currency: company.baseCurrency,
    openingDate: '2026-01-01',
    openingBalance: 1_000_000,
  });
  const payment = await ok('POST', `/bills/${open.id}/payments`, {
    date: '2026-03-05',
    amount: 1_000,
    paymentAccountId: money.ledgerAccountId,
  });
  const batch = await ok('POST', '/bill-payments', {
    date: '2026-03-06',
    paymentAccountId: money.ledgerAccountId,
    bills: [{ billId: paid.id, amount: paid.total }],
  });
  const credit = await ok('POST', '/supplier-credits', {
    supplierId: supplier.id,
    reference: 'SEED-CN-1',
    date: '2026-03-07',
    lines: [{ description: 'Returned paper', quantity: '1', unitPrice: 3_000 }],
  });
  const applied = await ok('POST', `/supplier-credits/${credit.id}/apply`, {
    billId: open.id,
    amount: 1_000,
  });
  const refund = await ok('POST', `/supplier-credits/${credit.id}/refunds`, {
    date: '2026-03-08',
    amount: 500,
    paymentAccountId: money.ledgerAccountId,
  });
  const schedule = await ok('POST', '/bill-schedules', {
    supplierId: supplier.id,
    frequency: 'monthly',
    startDate: '2026-12-01',
    reference: 'RENT',
    lines: [{ description: 'Rent', quantity: '1', unitPrice: 150_000 }],
  });
  const last = <T extends { id: string }>(list: T[] | undefined) => list?.at(-1)?.id ?? '';
  return {
    supplierId: supplier.id,
    taxRateId: taxRate.id,
    expenseAccountId,
    draftBillId: draft.id,
    openBillId: open.id,
    paidBillId: paid.id,
    attachmentId: attachment.id,
    moneyAccountId: money.id,
    paymentAccountId: money.ledgerAccountId,
    paymentId: payment.paymentId,
    batchId: batch.id,
    creditId: credit.id,
    allocationId: applied.allocationId ?? last(applied.allocations),
    refundId: refund.refundId ?? last(refund.refunds),
    scheduleId: schedule.id,
  };
};
