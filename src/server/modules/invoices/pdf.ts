import { type Invoice, STATUS_LABELS } from '../../../shared/invoices.ts';
import { type Formatter, defaultFormatter, formatterFor } from '../../../shared/format.ts';
import { invoiceTotalsRows } from '../../../shared/invoice-totals.ts';
import { formatPreferencesOfUser } from '../profile/service.ts';
import { loadCompany } from './common.ts';
import { getInvoice } from './invoice-read.ts';
import type { Executor } from './queries.ts';
import type { AppContext } from '../../context.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { getLogo } from './settings.ts';

// The invoice as a PDF, drawn on the server with pdfkit: the company's logo, name, address
// and tax number; the customer; the lines; subtotal, discount, tax per rate and total; what
// was paid or credited and what is due; notes and terms.

type Company = Awaited<ReturnType<typeof loadCompany>>;

const draw = (
  doc: PDFKit.PDFDocument,
  invoice: Invoice,
  company: Company,
  logo: { data: Buffer } | null,
  format: Formatter,
) => {
  // Amounts and dates as the user who makes the PDF (or sends it) reads them (docs/formatting.md).
  const money = (minor: number, currency: string) => format.amount(minor, currency);
  const left = 50;
  const right = doc.page.width - 50;
  const width = right - left;
  const c = invoice.currency;
  let y = 50;
  if (logo) {
    try {
      doc.image(logo.data, left, y, { fit: [120, 60] });
    } catch {
      // An unreadable logo never stops the invoice going out.
    }
  }
  doc
    .font('Helvetica-Bold')
    .fontSize(20)
    .fillColor('#0f172a')
    .text('INVOICE', left, y, { width, align: 'right' });
  doc.font('Helvetica').fontSize(10).fillColor('#334155');
  doc.text(invoice.number ?? 'Draft', left, y + 26, { width, align: 'right' });
  if (
    invoice.storedStatus === 'void' ||
    invoice.storedStatus === 'draft' ||
    invoice.storedStatus === 'paid'
  ) {
    doc.font('Helvetica-Bold').fillColor(invoice.storedStatus === 'paid' ? '#15803d' : '#b91c1c');
    doc.text(STATUS_LABELS[invoice.storedStatus].toUpperCase(), left, y + 40, { width, align: 'right' });
    doc.font('Helvetica').fillColor('#334155');
  }
  y += logo ? 70 : 0;
  doc.font('Helvetica-Bold').fontSize(12).fillColor('#0f172a').text(company.name, left, y);
  doc.font('Helvetica').fontSize(9).fillColor('#475569');
  if (company.address) doc.text(company.address, left, doc.y, { width: 250 });
  if (company.tax_number) doc.text(`Tax number: ${company.tax_number}`, left, doc.y);
  const afterCompany = doc.y;

  // Below the title, number and status on the right, whatever the logo's height.
  const metaTop = Math.max(y + 20, 50 + 60);
  const meta: [string, string][] = [
    ['Issue date', format.date(invoice.issueDate)],
    ['Due date', format.date(invoice.dueDate)],
    ['Currency', c],
  ];
  if (invoice.reference) meta.push(['Reference', invoice.reference]);
  meta.forEach(([label, value], i) => {
    doc
      .fontSize(9)
      .fillColor('#64748b')
      .text(label, right - 200, metaTop + i * 14, { width: 90 });
    doc.fillColor('#0f172a').text(value, right - 110, metaTop + i * 14, { width: 110, align: 'right' });
  });

  y = Math.max(afterCompany, metaTop + meta.length * 14) + 20;
  doc.fontSize(9).fillColor('#64748b').text('BILL TO', left, y);
  doc
    .font('Helvetica-Bold')
    .fontSize(11)
    .fillColor('#0f172a')
    .text(invoice.customer.name, left, y + 12);
  doc.font('Helvetica').fontSize(9).fillColor('#475569');
  if (invoice.customer.company) doc.text(invoice.customer.company);
  if (invoice.customer.billingAddress) doc.text(invoice.customer.billingAddress, { width: 250 });
  if (invoice.customer.email) doc.text(invoice.customer.email);
  if (invoice.customer.taxNumber) doc.text(`Tax number: ${invoice.customer.taxNumber}`);

  // Lines
  y = doc.y + 20;
  const cols = { desc: left, qty: left + 260, price: left + 310, disc: left + 385, amount: left + 425 };
  doc.rect(left, y, width, 20).fill('#f1f5f9');
  doc.fillColor('#334155').font('Helvetica-Bold').fontSize(9);
  doc.text('Description', cols.desc + 6, y + 6, { width: 250 });
  doc.text('Qty', cols.qty, y + 6, { width: 45, align: 'right' });
  doc.text('Unit price', cols.price, y + 6, { width: 70, align: 'right' });
  doc.text('Disc.', cols.disc, y + 6, { width: 35, align: 'right' });
  doc.text('Amount', cols.amount, y + 6, { width: right - cols.amount - 6, align: 'right' });
  y += 26;
  doc.font('Helvetica').fillColor('#0f172a');
  for (const line of invoice.lines) {
    const height = Math.max(doc.heightOfString(line.description, { width: 250 }), 12);
    if (y + height > doc.page.height - 120) {
      doc.addPage();
      y = 50;
    }
    doc.text(line.description, cols.desc + 6, y, { width: 250 });
    doc.text(line.quantity, cols.qty, y, { width: 45, align: 'right' });
    doc.text(money(line.unitPrice, c), cols.price, y, { width: 70, align: 'right' });
    doc.text(line.discountPercent === '0' ? '' : `${line.discountPercent}%`, cols.disc, y, {
      width: 35,
      align: 'right',
    });
    doc.text(money(line.net, c), cols.amount, y, { width: right - cols.amount - 6, align: 'right' });
    y += height + 8;
    doc
      .moveTo(left, y - 4)
      .lineTo(right, y - 4)
      .strokeColor('#e2e8f0')
      .lineWidth(0.5)
      .stroke();
  }

  // Totals
  y += 6;
  const totalRow = (label: string, value: string, bold = false) => {
    if (y > doc.page.height - 80) {
      doc.addPage();
      y = 50;
    }
    doc
      .font(bold ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(bold ? 11 : 9)
      .fillColor('#0f172a');
    doc.text(label, right - 250, y, { width: 150, align: 'right' });
    doc.text(value, right - 100, y, { width: 100, align: 'right' });
    y += bold ? 18 : 14;
  };
  // The same rows, labels and signs as the invoice page and the email (shared/invoice-totals.ts).
  for (const row of invoiceTotalsRows(invoice)) totalRow(row.label, money(row.amount, c), row.strong);

  y += 10;
  for (const [title, body] of [
    ['Notes', invoice.notes],
    ['Terms', invoice.terms],
  ] as const) {
    if (!body) continue;
    doc.font('Helvetica-Bold').fontSize(9).fillColor('#334155').text(title, left, y);
    doc
      .font('Helvetica')
      .fillColor('#475569')
      .text(body, left, doc.y + 2, { width });
    y = doc.y + 10;
  }
};

/** Renders the invoice; resolves with the whole PDF in memory (invoices are a few pages). */
export const renderInvoicePdf = async (
  db: Executor,
  organizationId: string,
  invoiceId: string,
  now: Date,
  format: Formatter = defaultFormatter,
) => {
  const [invoice, company, logo] = await Promise.all([
    getInvoice(db, organizationId, invoiceId, now),
    loadCompany(db, organizationId),
    getLogo(db, organizationId),
  ]);
  // pdfkit (and its fonts) is imported when the first PDF is drawn, not at start (issue 20 §6).
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    // Uncompressed: invoices are small, and the text stays checkable by tests and tools.
    compress: false,
    info: { Title: `Invoice ${invoice.number ?? 'draft'}`, Author: company.name },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  draw(doc, invoice, company, logo, format);
  doc.end();
  return { pdf: await done, invoice, company };
};

export const pdfFileName = (invoice: Invoice) =>
  `${(invoice.number ?? 'draft-invoice').replace(/[^A-Za-z0-9._-]/g, '_')}.pdf`;

/** The formatter of the user who acts (their date format, language, time zone); defaults without one. */
export const actingFormatter = async (ctx: AppContext, userId: string | null | undefined) =>
  formatterFor((await formatPreferencesOfUser(ctx, userId)) ?? {});

/** The PDF route: the file and how the browser should name it. */
export const invoicePdf = async (ctx: AppContext, member: MemberContext, input: { invoiceId: string }) => {
  const { pdf, invoice } = await renderInvoicePdf(
    ctx.database.db,
    member.organizationId,
    input.invoiceId,
    ctx.now(),
    await actingFormatter(ctx, member.userId),
  );
  return { pdf, fileName: pdfFileName(invoice) };
};
