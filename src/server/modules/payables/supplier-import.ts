import { randomUUID } from 'node:crypto';
import { type CsvError, parse } from 'csv-parse/sync';
import type { z } from 'zod';
import { badRequest } from '../../../shared/errors.ts';
import { isCurrencyCode } from '../../../shared/money.ts';
import {
  type SupplierImportResult,
  type supplierImportSchema,
  supplierInputSchema,
} from '../../../shared/payables.ts';
import { recordMemberAudit } from '../audit/record.ts';
import { inMemberTransaction, loadCompany } from '../invoices/common.ts';
import { supplierRowValues } from './suppliers.ts';
import { selectSupplierNames } from './suppliers-queries.ts';

// Importing suppliers from a CSV file (UTF-8, comma separated, a header row naming the columns
// in any order and any case). All or nothing: the import either brings in exactly what the
// file says or refuses it naming each bad line and its problem, and saves nothing. A row whose
// supplier already exists (same name, ignoring case), or that repeats an earlier row's name,
// is skipped and reported; that is not an error. Quoting is strict (RFC 4180): a stray quote
// refuses the file naming its line. Columns: docs/payables.md.

/** The columns an import reads, and the supplier field each fills. */
export const SUPPLIER_IMPORT_COLUMNS = {
  name: 'name',
  company: 'company',
  email: 'email',
  phone: 'phone',
  address: 'address',
  tax_number: 'taxNumber',
  currency: 'currency',
  payment_terms_days: 'paymentTermsDays',
  bank_account_name: 'bankAccountName',
  bank_account_number: 'bankAccountNumber',
  bank_code: 'bankCode',
  notes: 'notes',
} as const;
type Column = keyof typeof SUPPLIER_IMPORT_COLUMNS;

/** At most this many problems are listed in one refusal. */
const MAX_PROBLEMS = 50;
const MAX_ROWS = 10_000;

type Problem = { line: number; problem: string };
type Row = { line: number; fields: string[] };

const quoteReason = (error: CsvError) => {
  switch (error.code) {
    case 'INVALID_OPENING_QUOTE':
      return 'a quote (") appears inside a field that does not start with one; put the whole field in quotes and double the quote ("")';
    case 'CSV_INVALID_CLOSING_QUOTE':
      return 'text follows a closing quote (") before the next comma';
    case 'CSV_QUOTE_NOT_CLOSED':
      return 'a quoted field is never closed (missing ")';
    case 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH':
      return 'the line has a different number of columns than the header';
    default:
      return error.message;
  }
};

const refuse = (problems: Problem[]) => {
  const shown = problems.slice(0, MAX_PROBLEMS);
  const more = problems.length > shown.length ? ` (and ${problems.length - shown.length} more)` : '';
  return badRequest(
    'invalid_import',
    `Nothing was imported. ${shown.map((p) => `Line ${p.line}: ${p.problem}`).join('; ')}${more}. Correct the file and import it again.`,
    { problems: shown },
  );
};

/** The file's records with the line each starts on (a byte order mark and any line ends allowed). */
export const readSupplierCsv = (text: string): Row[] => {
  const input = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).replace(/\r\n|\r/g, '\n');
  const rows: Row[] = [];
  let lastEnd = 0;
  try {
    parse(input, {
      delimiter: ',',
      record_delimiter: '\n',
      relax_quotes: false,
      relax_column_count: false,
      skip_empty_lines: true,
      on_record: (record, context) => {
        const fields = record as unknown as string[];
        let inside = 0;
        for (const f of fields) for (let i = f.indexOf('\n'); i >= 0; i = f.indexOf('\n', i + 1)) inside += 1;
        lastEnd = context.lines;
        rows.push({ line: context.lines - inside, fields });
        return null;
      },
    });
  } catch (error) {
    const e = error as CsvError;
    if (typeof e.code !== 'string') throw error;
    let line = typeof e.lines === 'number' ? e.lines : 1;
    if (e.code === 'CSV_QUOTE_NOT_CLOSED') {
      const lines = input.split('\n');
      line = lastEnd + 1;
      while (line < lines.length && lines[line - 1] === '') line += 1;
    }
    throw refuse([{ line, problem: quoteReason(e) }]);
  }
  return rows;
};

/** The header's columns in file order; refuses unknown, repeated and missing required ones. */
const readHeader = (header: Row): Column[] => {
  const problems: Problem[] = [];
  const seen = new Set<string>();
  const columns = header.fields.map((raw) => {
    const name = raw.trim().toLowerCase().replace(/\s+/g, '_');
    if (!(name in SUPPLIER_IMPORT_COLUMNS)) {
      problems.push({
        line: header.line,
        problem: `unknown column "${raw.trim()}" (the columns are ${Object.keys(SUPPLIER_IMPORT_COLUMNS).join(', ')})`,
      });
    } else if (seen.has(name)) {
      problems.push({ line: header.line, problem: `the column "${name}" appears twice` });
    }
    seen.add(name);
    return name as Column;
  });
  if (!seen.has('name')) problems.push({ line: header.line, problem: 'the header has no "name" column' });
  if (problems.length) throw refuse(problems);
  return columns;
};

const FIELD_WORDS: Record<string, string> = {
  name: 'name',
  company: 'company',
  email: 'email',
  phone: 'phone',
  address: 'address',
  taxNumber: 'tax_number',
  currency: 'currency',
  paymentTermsDays: 'payment_terms_days',
  bankAccountName: 'bank_account_name',
  bankAccountNumber: 'bank_account_number',
  bankCode: 'bank_code',
  notes: 'notes',
};

/** One row as supplier input, or the problems with it. */
const readRow = (
  columns: Column[],
  row: Row,
  baseCurrency: string,
): { ok: true; value: z.output<typeof supplierInputSchema> } | { ok: false; problems: Problem[] } => {
  const raw: Record<string, unknown> = {};
  const problems: Problem[] = [];
  columns.forEach((column, i) => {
    const text = (row.fields[i] ?? '').trim();
    if (text === '') return;
    const field = SUPPLIER_IMPORT_COLUMNS[column];
    if (field === 'paymentTermsDays') {
      if (!/^\d+$/.test(text)) {
        problems.push({
          line: row.line,
          problem: `payment_terms_days "${text}" is not a whole number of days (0 to 365)`,
        });
        return;
      }
      raw[field] = Number(text);
    } else raw[field] = text;
  });
  const parsed = supplierInputSchema.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? '');
      const column = FIELD_WORDS[field] ?? field;
      problems.push({
        line: row.line,
        problem:
          field === 'name' && raw.name === undefined
            ? 'the name is missing'
            : `${column}: ${issue.message}${raw[field] !== undefined ? ` ("${String(raw[field])}")` : ''}`,
      });
    }
  } else if (parsed.data.currency && !isCurrencyCode(parsed.data.currency)) {
    problems.push({ line: row.line, problem: `currency "${parsed.data.currency}" is not a currency code` });
  }
  if (problems.length || !parsed.success) return { ok: false, problems };
  return { ok: true, value: { ...parsed.data, currency: parsed.data.currency ?? baseCurrency } };
};

/** Imports the suppliers of a CSV file, or with dryRun checks it and reports what would happen. */
export const importSuppliers = inMemberTransaction(
  async (trx, member, input: z.output<typeof supplierImportSchema>): Promise<SupplierImportResult> => {
    const { organizationId } = member;
    const company = await loadCompany(trx, organizationId);
    const rows = readSupplierCsv(input.csv);
    const [header, ...records] = rows;
    if (!header) throw badRequest('invalid_import', 'The file has no header row. Nothing was imported.');
    const columns = readHeader(header);
    if (records.length === 0) {
      throw badRequest('invalid_import', 'The file has a header but no suppliers. Nothing was imported.');
    }
    if (records.length > MAX_ROWS) {
      throw badRequest(
        'invalid_import',
        `The file has ${records.length} suppliers; an import takes at most ${MAX_ROWS}. Split it and import each part.`,
      );
    }
    const existing = await selectSupplierNames(trx, organizationId);
    const firstLine = new Map<string, number>();
    const problems: Problem[] = [];
    const skipped: SupplierImportResult['skipped'] = [];
    const toCreate: z.output<typeof supplierInputSchema>[] = [];
    for (const record of records) {
      if (record.fields.every((f) => f.trim() === '')) continue;
      const read = readRow(columns, record, company.base_currency);
      if (!read.ok) {
        problems.push(...read.problems);
        continue;
      }
      const key = read.value.name.toLowerCase();
      if (existing.has(key)) {
        skipped.push({
          line: record.line,
          name: read.value.name,
          reason: 'A supplier with this name already exists.',
        });
      } else if (firstLine.has(key)) {
        skipped.push({
          line: record.line,
          name: read.value.name,
          reason: `Line ${firstLine.get(key)} already has a supplier with this name.`,
        });
      } else {
        firstLine.set(key, record.line);
        toCreate.push(read.value);
      }
    }
    if (problems.length) throw refuse(problems);
    if (!input.dryRun) {
      for (let i = 0; i < toCreate.length; i += 500) {
        await trx
          .insertInto('suppliers')
          .values(
            toCreate.slice(i, i + 500).map((value) => ({
              organization_id: organizationId,
              id: randomUUID(),
              ...supplierRowValues(value, value.currency!),
            })),
          )
          .execute();
      }
      await recordMemberAudit(trx, member, 'suppliers.imported', ['supplier_import', organizationId], {
        after: {
          created: toCreate.length,
          skipped: skipped.length,
          names: toCreate.map((s) => s.name).slice(0, 100),
        },
      });
    }
    return { created: toCreate.length, skipped, dryRun: input.dryRun };
  },
);
