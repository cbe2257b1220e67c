import type { z } from 'zod';
import { badRequest, notFound } from '../../../shared/errors.ts';
import type { AppContext } from '../../context.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import type { InvoiceSettings, invoiceSettingsUpdateSchema } from '../../../shared/invoices.ts';
import { recordMemberAudit } from '../audit/record.ts';
import { inMemberTransaction, sentColumns } from './common.ts';
import { type Executor, ensureSettings, selectCompany, selectCompanyLogo } from './queries.ts';

// Invoice settings: number prefixes and the next number, default notes and terms, and the
// company details printed on invoices (address, tax number, logo). The latter are columns
// this module added to organizations.

const selectInvoiceSettings = async (db: Executor, organizationId: string): Promise<InvoiceSettings> => {
  const [settings, company] = await Promise.all([
    ensureSettings(db, organizationId),
    selectCompany(db, organizationId),
  ]);
  return {
    invoicePrefix: settings.invoice_prefix,
    nextInvoiceNumber: settings.next_invoice_number,
    creditNotePrefix: settings.credit_note_prefix,
    defaultTerms: settings.default_terms,
    defaultNotes: settings.default_notes,
    address: company?.address ?? '',
    taxNumber: company?.tax_number ?? '',
    hasLogo: Boolean(company?.has_logo),
  };
};

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff]);

/** Reads a logo sent as a data: URL, accepting only real PNG or JPEG bytes (what the PDF can draw). */
export const parseLogo = (dataUrl: string) => {
  const match = /^data:(image\/(?:png|jpeg));base64,([A-Za-z0-9+/=\s]+)$/.exec(dataUrl);
  if (!match) throw badRequest('invalid_logo', 'Upload the logo as a PNG or JPEG image.');
  const data = Buffer.from(match[2]!, 'base64');
  if (data.length === 0 || data.length > 500 * 1024)
    throw badRequest('invalid_logo', 'The logo must be at most 500 KB.');
  const isPng = data.subarray(0, 4).equals(PNG);
  const isJpeg = data.subarray(0, 3).equals(JPEG);
  if (!isPng && !isJpeg) throw badRequest('invalid_logo', 'The file is not a PNG or JPEG image.');
  return { data, contentType: isPng ? 'image/png' : 'image/jpeg' };
};

export const updateInvoiceSettings = inMemberTransaction(
  async (trx, member, input: z.output<typeof invoiceSettingsUpdateSchema>) => {
    const { organizationId } = member;
    const before = await selectInvoiceSettings(trx, organizationId);
    if (input.nextInvoiceNumber !== undefined && input.nextInvoiceNumber < before.nextInvoiceNumber) {
      const prefix = input.invoicePrefix ?? before.invoicePrefix;
      if (prefix === before.invoicePrefix) {
        throw badRequest(
          'invoice_number_backwards',
          `The next number cannot go back below ${before.nextInvoiceNumber} with the same prefix: numbers would repeat.`,
        );
      }
    }
    const logo = input.logo ? parseLogo(input.logo) : input.logo === null ? null : undefined;
    await trx
      .updateTable('invoice_settings')
      .set({
        ...sentColumns(input, {
          invoicePrefix: 'invoice_prefix',
          nextInvoiceNumber: 'next_invoice_number',
          creditNotePrefix: 'credit_note_prefix',
          defaultTerms: 'default_terms',
          defaultNotes: 'default_notes',
        }),
        updated_at: new Date(),
      })
      .where('organization_id', '=', organizationId)
      .execute();
    if (input.address !== undefined || input.taxNumber !== undefined || logo !== undefined) {
      await trx
        .updateTable('organizations')
        .set({
          ...sentColumns(input, { address: 'address', taxNumber: 'tax_number' }),
          ...(logo !== undefined
            ? { logo_data: logo?.data ?? null, logo_content_type: logo?.contentType ?? null }
            : {}),
        })
        .where('id', '=', organizationId)
        .execute();
    }
    const after = await selectInvoiceSettings(trx, organizationId);
    await recordMemberAudit(trx, member, 'invoice_settings.updated', ['invoice_settings', organizationId], {
      before,
      after,
    });
    return after;
  },
);

export const getLogo = async (db: Executor, organizationId: string) => {
  const row = await selectCompanyLogo(db, organizationId);
  return row?.logo_data ? { data: row.logo_data, contentType: row.logo_content_type ?? 'image/png' } : null;
};

export const getInvoiceSettings = (ctx: AppContext, member: MemberContext) =>
  selectInvoiceSettings(ctx.database.db, member.organizationId);

/** The logo printed on invoices; 404 when none is uploaded. */
export const readLogo = async (ctx: AppContext, member: MemberContext) => {
  const logo = await getLogo(ctx.database.db, member.organizationId);
  if (!logo) throw notFound('No logo uploaded yet.');
  return logo;
};
