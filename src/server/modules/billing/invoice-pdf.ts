import type { Selectable } from 'kysely';
import { type Formatter, defaultFormatter } from '../../../shared/format.ts';
import type { BillingInvoicesTable } from '../../db/types.ts';

// A local provider's invoice as a PDF (pdfkit, as the invoices module draws company invoices):
// Kontor as seller, the account holder as buyer, the line, the amounts and the paid stamp.
// Uncompressed so the text stays checkable by tests and tools. Stripe's invoices carry
// Stripe's own PDF link instead.

type InvoiceRow = Selectable<BillingInvoicesTable>;

export const billingInvoicePdf = async (
  invoice: InvoiceRow,
  buyer: { name: string; email: string },
  format: Formatter = defaultFormatter,
): Promise<Buffer> => {
  // Amounts exact from minor units, days in the account holder's date format and time zone.
  const money = (minor: number, currency: string) => format.amount(Number(minor), currency);
  const day = (value: Date | string | null) => (value ? format.dayOf(value) : '');
  // pdfkit (and its fonts) is imported when the first PDF is drawn, not at start (issue 20 §6).
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    compress: false,
    info: { Title: `Invoice ${invoice.number}`, Author: 'Kontor' },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const left = 50;
  const right = doc.page.width - 50;
  const width = right - left;
  const currency = invoice.currency.trim();
  doc
    .font('Helvetica-Bold')
    .fontSize(20)
    .fillColor('#0f172a')
    .text('INVOICE', left, 50, { width, align: 'right' });
  doc
    .font('Helvetica')
    .fontSize(10)
    .fillColor('#334155')
    .text(invoice.number, left, 76, { width, align: 'right' });
  if (invoice.status === 'paid') {
    doc.font('Helvetica-Bold').fillColor('#15803d').text('PAID', left, 90, { width, align: 'right' });
  }
  doc.font('Helvetica-Bold').fontSize(14).fillColor('#0f172a').text('Kontor', left, 50);
  doc.font('Helvetica').fontSize(9).fillColor('#475569').text('Business finance platform', left, 68);

  doc.fontSize(9).fillColor('#64748b').text('BILL TO', left, 130);
  doc.font('Helvetica-Bold').fontSize(11).fillColor('#0f172a').text(buyer.name, left, 142);
  doc.font('Helvetica').fontSize(9).fillColor('#475569').text(buyer.email, left, 157);

  const meta: [string, string][] = [
    ['Date', day(invoice.created_at)],
    ['Period', invoice.period_start ? `${day(invoice.period_start)} to ${day(invoice.period_end)}` : ''],
    ['Currency', currency],
  ];
  meta.forEach(([label, value], i) => {
    doc
      .fontSize(9)
      .fillColor('#64748b')
      .text(label, right - 220, 130 + i * 14, { width: 60 });
    doc.fillColor('#0f172a').text(value, right - 160, 130 + i * 14, { width: 160, align: 'right' });
  });

  let y = 200;
  doc.rect(left, y, width, 18).fill('#f1f5f9');
  doc.fillColor('#334155').font('Helvetica-Bold').fontSize(9);
  doc.text('Description', left + 6, y + 5);
  doc.text('Amount', right - 106, y + 5, { width: 100, align: 'right' });
  y += 24;
  doc.font('Helvetica').fillColor('#0f172a');
  doc.text(invoice.description || 'Kontor subscription', left + 6, y, { width: width - 130 });
  doc.text(money(invoice.amount_due, currency), right - 106, y, { width: 100, align: 'right' });
  y = Math.max(doc.y, y + 14) + 16;
  const totals: [string, string][] = [
    ['Total', money(invoice.amount_due, currency)],
    ['Amount paid', money(invoice.amount_paid, currency)],
    ['Amount due', money(Number(invoice.amount_due) - Number(invoice.amount_paid), currency)],
  ];
  for (const [label, value] of totals) {
    doc.font(label === 'Total' ? 'Helvetica-Bold' : 'Helvetica').fontSize(10);
    doc.text(label, right - 260, y, { width: 150 });
    doc.text(value, right - 106, y, { width: 100, align: 'right' });
    y += 16;
  }
  doc.end();
  return done;
};
