import { badRequest } from '../../../shared/errors.ts';
import { requireVerifiedSender } from '../../auth/verification.ts';
import type { AppContext } from '../../context.ts';
import { sendMail } from '../mail/service.ts';
import { invoiceTotalsRows } from '../../../shared/invoice-totals.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import type { emailInvoiceSchema } from '../../../shared/invoices.ts';
import type { z } from 'zod';
import { type Actor, actorOf, addEvent, recordActorAudit, refuseTransition } from './documents.ts';
import { getInvoice } from './invoice-read.ts';
import { type Executor, updateCompanyRow } from './queries.ts';
import { actingFormatter, pdfFileName, renderInvoicePdf } from './pdf.ts';

// Emails an invoice with its PDF attached, through the mail service (SMTP, or the outbox
// when SMTP_URL is unset), and records when and to whom it went.

/** Emails the invoice as `actor` (the send route, the email route, the recurring runner). */
export const emailInvoice = async (
  ctx: AppContext,
  actor: Actor,
  invoiceId: string,
  options: { to?: string; subject?: string; message?: string },
) => {
  const db = ctx.database.db;
  // Mail to a customer leaves in the sender's name: they must have verified their address.
  await requireVerifiedSender(ctx, actor.userId);
  // Dates and amounts as the sending user reads them (docs/formatting.md).
  const format = await actingFormatter(ctx, actor.userId);
  const { pdf, invoice, company } = await renderInvoicePdf(
    db,
    actor.organizationId,
    invoiceId,
    actor.now,
    format,
  );
  if (invoice.storedStatus === 'draft') {
    throw refuseTransition('emailed', 'draft', 'Send it first so it has a number and is posted.');
  }
  if (invoice.storedStatus === 'void')
    throw refuseTransition('emailed', 'void', 'A void invoice is not owed.');
  const to = options.to ?? invoice.customer.email;
  if (!to) {
    throw badRequest(
      'customer_email_missing',
      `${invoice.customer.name} has no email address. Add one to the customer or enter it here.`,
    );
  }
  // The totals as the invoice page and the PDF show them: same rows, labels and signs.
  const totals = invoiceTotalsRows(invoice).map(
    (r) => `${r.label}: ${format.amount(r.amount, invoice.currency)}`,
  );
  const dueDate = format.date(invoice.dueDate);
  const intro =
    options.message?.trim() || `Please find attached invoice ${invoice.number} from ${company.name}.`;
  const text = `${intro}\n\n${totals.join('\n')}\nDue date: ${dueDate}\n\n${company.name}`;
  const escapeHtml = (s: string) => s.replace(/[&<>"]/g, (ch) => `&#${ch.charCodeAt(0)};`);
  const totalsHtml = totals.map((line) => `${escapeHtml(line)}<br>`).join('');
  const html = `<p>${escapeHtml(intro).replace(/\n/g, '<br>')}</p><p>${totalsHtml}Due date: ${dueDate}</p><p>${escapeHtml(company.name)}</p>`;
  await sendMail(ctx, {
    to,
    subject: options.subject ?? `Invoice ${invoice.number} from ${company.name}`,
    text,
    html,
    attachments: [{ filename: pdfFileName(invoice), content: pdf, contentType: 'application/pdf' }],
  });
  await markEmailed(db, actor, invoiceId, to);
  return { to };
};

const markEmailed = async (db: Executor, actor: Actor, id: string, to: string) => {
  await updateCompanyRow(db, 'invoices', actor.organizationId, id, { emailed_at: actor.now });
  await addEvent(db, actor, id, 'emailed', `Emailed to ${to} with the PDF attached`);
  await recordActorAudit(db, actor, 'invoice.emailed', ['invoice', id], {
    after: { to },
  });
};

/** The email route: mails the PDF again and answers with the invoice (its history shows it). */
export const emailInvoiceToCustomer = async (
  ctx: AppContext,
  member: MemberContext,
  { invoiceId, ...options }: z.output<typeof emailInvoiceSchema> & { invoiceId: string },
) => {
  const actor = actorOf(ctx, member);
  await emailInvoice(ctx, actor, invoiceId, options);
  return getInvoice(ctx.database.db, actor.organizationId, invoiceId, actor.now);
};
