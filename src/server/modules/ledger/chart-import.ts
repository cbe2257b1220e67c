import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { parse } from 'csv-parse/sync';
import { badRequest, notFound } from '../../../shared/errors.ts';
import {
  ACCOUNT_SUBTYPES,
  ACCOUNT_TYPES,
  type AccountTypeName,
  DEFAULT_SUBTYPE,
} from '../../../shared/ledger.ts';
import { isCurrencyCode } from '../../../shared/money.ts';
import { recordAudit } from '../audit/record.ts';
import { inTransaction } from '../../db/transaction.ts';
import { type Executor, selectAccounts, selectSettings } from './queries.ts';
import { isMoneySubtype } from './accounts.ts';

// Importing a chart of accounts from CSV: every row is checked before anything is written.

/** Splits CSV text into rows (RFC 4180: quoted fields, doubled quotes, CRLF). */
export const parseCsv = (text: string): string[][] => {
  // csv-parse is the app's one CSV reader (decision record 0017): RFC 4180 quoting, BOM,
  // any line end. Broken quoting is refused with its line rather than read some other way.
  let rows: string[][];
  try {
    rows = parse(text, { bom: true, relax_column_count: true, skip_empty_lines: true }) as string[][];
  } catch (error) {
    const e = error as { code?: unknown; lines?: unknown };
    if (typeof e.code !== 'string') throw error;
    throw badRequest(
      'csv_invalid',
      `The chart was not imported: line ${String(e.lines)} has a quote (") that does not open or close a field. Nothing was changed.`,
    );
  }
  return rows.filter((r) => r.some((f) => f.trim() !== ''));
};

/**
 * Imports accounts from CSV with a header row: code, name, type, and optionally subtype,
 * parent_code, currency, description. Existing codes are renamed/updated; new ones added.
 * All rows are checked before anything is written; any error writes nothing.
 */
export const importChartCsv = (
  db: Executor,
  organizationId: string,
  actorUserId: string | null,
  csv: string,
) =>
  inTransaction(db, async (trx) => {
    const rows = parseCsv(csv);
    if (rows.length < 2)
      throw badRequest(
        'csv_empty',
        'The file has no accounts. Put a header row first, then one account per row.',
      );
    const header = rows[0]!.map((h) => h.trim().toLowerCase().replace(/\s+/g, '_'));
    const col = (name: string) => header.indexOf(name);
    for (const required of ['code', 'name', 'type']) {
      if (col(required) < 0)
        throw badRequest('csv_missing_column', `The header row needs a "${required}" column.`);
    }
    const settings = await selectSettings(trx, organizationId);
    if (!settings) throw notFound('Company not found.');
    const existing = new Map((await selectAccounts(trx, organizationId)).map((a) => [a.code, a]));
    const errors: string[] = [];
    const parsed = rows.slice(1).map((r, i) => {
      const get = (name: string) => (col(name) >= 0 ? (r[col(name)] ?? '').trim() : '');
      const line = i + 2;
      const type = get('type').toLowerCase() as AccountTypeName;
      const subtype = get('subtype').toLowerCase().replace(/\s+/g, '_') || DEFAULT_SUBTYPE[type];
      const currency = get('currency').toUpperCase() || settings.base_currency.trim();
      if (!get('code') || get('code').length > 20)
        errors.push(`Row ${line}: the code must be 1 to 20 characters.`);
      if (!get('name') || get('name').length > 120)
        errors.push(`Row ${line}: the name must be 1 to 120 characters.`);
      if (!ACCOUNT_TYPES.includes(type))
        errors.push(`Row ${line}: type must be one of ${ACCOUNT_TYPES.join(', ')}.`);
      else if (!ACCOUNT_SUBTYPES[type].includes(subtype))
        errors.push(`Row ${line}: "${subtype}" is not a ${type} subtype.`);
      if (!isCurrencyCode(currency)) errors.push(`Row ${line}: "${currency}" is not a currency code.`);
      const prior = existing.get(get('code'));
      if (prior && prior.type !== type)
        errors.push(`Row ${line}: account ${get('code')} exists as ${prior.type}; its type cannot change.`);
      else if (
        prior
          ? isMoneySubtype(prior.type, prior.subtype) !== isMoneySubtype(type, subtype)
          : isMoneySubtype(type, subtype)
      )
        errors.push(
          `Row ${line}: bank, cash, payment-processor and credit-card accounts are money accounts; add them in the Wallet, and keep the subtype of existing ones.`,
        );
      return {
        code: get('code'),
        name: get('name'),
        type,
        subtype,
        currency,
        parentCode: get('parent_code'),
        description: get('description'),
      };
    });
    const codes = new Set<string>();
    for (const p of parsed) {
      if (codes.has(p.code)) errors.push(`Code ${p.code} appears twice in the file.`);
      codes.add(p.code);
    }
    // Names are unique ignoring case: against the file's other rows and the accounts it leaves as they are.
    const names = new Map<string, string>();
    for (const a of existing.values())
      if (!codes.has(a.code)) names.set(a.name.toLowerCase(), `account ${a.code}`);
    parsed.forEach((p, i) => {
      const key = p.name.toLowerCase();
      const holder = names.get(key);
      if (holder)
        errors.push(
          `Row ${i + 2}: the name "${p.name}" is already used by ${holder} (names must differ by more than letter case).`,
        );
      else names.set(key, `row ${i + 2}`);
    });
    for (const p of parsed) {
      if (p.parentCode && !codes.has(p.parentCode) && !existing.has(p.parentCode)) {
        errors.push(`Account ${p.code}: parent code ${p.parentCode} is not in the file or the chart.`);
      }
    }
    if (errors.length > 0)
      throw badRequest('csv_invalid', `The chart was not imported: ${errors.slice(0, 10).join(' ')}`, {
        errors,
      });
    let created = 0;
    let updated = 0;
    const idByCode = new Map([...existing.values()].map((a) => [a.code, a.id]));
    // Renames may swap names between accounts; park the renamed ones under their ids first so
    // the unique name index never sees two accounts with one name in between.
    const renamed = parsed
      .map((p) => existing.get(p.code))
      .filter((a, i) => a && a.name.toLowerCase() !== parsed[i]!.name.toLowerCase())
      .map((a) => a!.id);
    if (renamed.length > 0)
      await trx
        .updateTable('accounts')
        .set({ name: sql<string>`'renaming ' || id` })
        .where('organization_id', '=', organizationId)
        .where('id', 'in', renamed)
        .execute();
    for (const p of parsed) {
      const prior = existing.get(p.code);
      if (prior) {
        await trx
          .updateTable('accounts')
          .set({
            name: p.name,
            subtype: p.subtype,
            description: p.description || prior.description,
            updated_at: new Date(),
          })
          .where('organization_id', '=', organizationId)
          .where('id', '=', prior.id)
          .execute();
        updated += 1;
      } else {
        const id = randomUUID();
        idByCode.set(p.code, id);
        await trx
          .insertInto('accounts')
          .values({
            organization_id: organizationId,
            id,
            code: p.code,
            name: p.name,
            type: p.type,
            subtype: p.subtype,
            parent_id: null,
            currency: p.currency,
            description: p.description,
            system_key: null,
          })
          .execute();
        created += 1;
      }
    }
    for (const p of parsed) {
      if (!p.parentCode) continue;
      await trx
        .updateTable('accounts')
        .set({ parent_id: idByCode.get(p.parentCode)! })
        .where('organization_id', '=', organizationId)
        .where('code', '=', p.code)
        .execute();
    }
    await recordAudit(trx, {
      organizationId,
      actorUserId,
      action: 'account.imported',
      entityType: 'account',
      entityId: 'chart',
      after: { created, updated },
    });
    return { created, updated };
  });
