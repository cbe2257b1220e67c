import { describe, expect, it } from 'vitest';
import { invoiceTotalsRows } from '../../../shared/invoice-totals.ts';
import { extractPdfText, setUpTestInvoicing } from '../../testing/invoices.ts';

// Issue 13 §5: an invoice's paid and credited amounts show with the right sign everywhere. The
// invoice page (its data through the API), the PDF and the email show the same totals block:
// every figure positive, labelled for what it does — Total, Paid, Credited, Amount due — never
// "Paid -$2,000.00".

const fixture = setUpTestInvoicing({ name: 'Signs Co' });

const pdfTextOf = async (invoiceId: string) => {
  const res = await fixture.t.app.inject({
    method: 'GET',
    url: `/api/orgs/${fixture.company.id}/invoices/${invoiceId}/pdf`,
    headers: { cookie: fixture.company.owner.cookie },
  });
  expect(res.statusCode).toBe(200);
  return extractPdfText(res.rawPayload);
};

const emailOf = async (invoiceId: string) => {
  const res = await fixture.client.post(`/invoices/${invoiceId}/email`, {});
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const list = await fixture.t.app.inject({
    method: 'GET',
    url: '/api/dev/mailbox?to=billing@northwind.example',
  });
  const latest = list.json().messages[0];
  return (await fixture.t.app.inject({ method: 'GET', url: `/api/dev/mailbox/${latest.id}` })).json() as {
    text: string;
    html: string;
  };
};

describe('invoice totals: the same correctly signed figures on the page, the PDF and the email', () => {
  it('shows Paid and Credited as positive amounts and Amount due as Total − Paid − Credited', async () => {
    // $4,000.00 of work with 20% VAT, and a $1,000.00 item with 10% off: total $5,700.00.
    const draft = await fixture.client.post('/invoices', {
      customerId: fixture.fx.customerId,
      issueDate: '2026-03-01',
      lines: [
        { description: 'Design work', quantity: '1', unitPrice: 400_000, taxRateIds: [fixture.fx.taxRateId] },
        { description: 'Printing', quantity: '1', unitPrice: 100_000, discountPercent: '10' },
      ],
    });
    expect(draft.status, JSON.stringify(draft.body)).toBe(201);
    const id = draft.body.id as string;
    expect((await fixture.client.post(`/invoices/${id}/send`)).status).toBe(200);
    const paid = await fixture.client.post(`/invoices/${id}/payments`, {
      date: '2026-03-05',
      amount: 200_000,
      depositAccountId: fixture.fx.bankId,
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    const credit = await fixture.client.post(`/invoices/${id}/credit-notes`, {
      date: '2026-03-06',
      lines: [{ description: 'Late delivery', quantity: '1', unitPrice: 50_000 }],
    });
    expect(credit.status, JSON.stringify(credit.body)).toBe(201);

    // The page's data: the API's summary fields, and the rows the page draws from them.
    const invoice = (await fixture.client.get(`/invoices/${id}`)).body;
    expect(invoice).toMatchObject({
      total: 570_000,
      amountPaid: 200_000,
      amountCredited: 50_000,
      amountDue: 320_000,
    });
    expect(invoice.amountDue).toBe(invoice.total - invoice.amountPaid - invoice.amountCredited);
    const expected: [string, string][] = [
      ['Discounts included', '$100.00'],
      ['Subtotal', '$4,900.00'],
      ['VAT 20% (20%)', '$800.00'],
      ['Total', '$5,700.00'],
      ['Paid', '$2,000.00'],
      ['Credited', '$500.00'],
      ['Amount due', '$3,200.00'],
    ];
    const rows = invoiceTotalsRows(invoice);
    expect(rows.map((r) => [r.label, r.amount])).toEqual([
      ['Discounts included', 10_000],
      ['Subtotal', 490_000],
      ['VAT 20% (20%)', 80_000],
      ['Total', 570_000],
      ['Paid', 200_000],
      ['Credited', 50_000],
      ['Amount due', 320_000],
    ]);

    // The PDF: each label followed by its figure, in the same order, and no negative amount.
    const pdf = await pdfTextOf(id);
    const totalsBlock = pdf.slice(pdf.indexOf('Discounts included')).split('\n').slice(0, 14);
    expect(totalsBlock).toEqual(expected.flat());
    expect(pdf).not.toMatch(/-\s*\$/);

    // The email: the same lines, text and HTML, and no negative amount.
    const mail = await emailOf(id);
    expect(mail.text).toContain(expected.map(([label, value]) => `${label}: ${value}`).join('\n'));
    for (const [label, value] of expected) expect(mail.html).toContain(`${label}: ${value}<br>`);
    expect(mail.text).not.toMatch(/-\s*\$/);
    expect(mail.html).not.toMatch(/-\s*\$/);
  });

  it('leaves Paid and Credited out until there are any, and shows a fully paid invoice as $0.00 due', async () => {
    const draft = await fixture.client.post('/invoices', {
      customerId: fixture.fx.customerId,
      issueDate: '2026-03-01',
      lines: [{ description: 'Retainer', quantity: '1', unitPrice: 123_456 }],
    });
    const id = draft.body.id as string;
    expect((await fixture.client.post(`/invoices/${id}/send`)).status).toBe(200);
    let pdf = await pdfTextOf(id);
    expect(pdf).not.toContain('Paid');
    expect(pdf).not.toContain('Credited');
    expect(pdf).toContain('Amount due\n$1,234.56');

    const pay = await fixture.client.post(`/invoices/${id}/payments`, {
      date: '2026-03-05',
      amount: 123_456,
      depositAccountId: fixture.fx.bankId,
    });
    expect(pay.status).toBe(201);
    const invoice = (await fixture.client.get(`/invoices/${id}`)).body;
    expect(invoiceTotalsRows(invoice).map((r) => [r.key, r.amount])).toEqual([
      ['subtotal', 123_456],
      ['total', 123_456],
      ['paid', 123_456],
      ['due', 0],
    ]);
    pdf = await pdfTextOf(id);
    expect(pdf).toContain('Total\n$1,234.56\nPaid\n$1,234.56\nAmount due\n$0.00');
    const mail = await emailOf(id);
    expect(mail.text).toContain('Total: $1,234.56\nPaid: $1,234.56\nAmount due: $0.00');
  });
});
