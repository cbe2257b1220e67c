import { CSV_DELIMITERS, type CsvMapping } from '../../../shared/transactions.ts';
import {
  type ParsedStatement,
  type ParsedStatementRow,
  collectErrors,
  StatementParseError,
} from './types.ts';
import { guessDateFormat, guessDecimalSeparator, messageOf, parseBankAmount, parseDateIn } from './values.ts';

// CSV statements as banks export them (RFC 4180 quoting, any of , ; tab |, BOM, CRLF),
// read through a column mapping the user confirms once per account.

export type CsvRecord = { line: number; fields: string[] };

/** Splits CSV text into records, each with the line it starts on. Quoted fields may span lines. */
export const readCsvRecords = (text: string, delimiter: string): CsvRecord[] => {
  const records: CsvRecord[] = [];
  const input = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const n = input.length;
  let i = 0;
  let line = 1;
  while (i < n) {
    const startLine = line;
    const fields: string[] = [];
    let field = '';
    let endOfRecord = false;
    while (!endOfRecord) {
      if (i < n && input[i] === '"') {
        i += 1;
        let closed = false;
        while (i < n) {
          const c = input[i]!;
          if (c === '"') {
            if (input[i + 1] === '"') {
              field += '"';
              i += 2;
              continue;
            }
            i += 1;
            closed = true;
            break;
          }
          if (c === '\n') line += 1;
          field += c;
          i += 1;
        }
        if (!closed) {
          throw new StatementParseError([
            { line: startLine, reason: 'a quoted field is never closed (missing ")' },
          ]);
        }
        // Text after the closing quote up to the delimiter is kept, as spreadsheet programs do.
        while (i < n && input[i] !== delimiter && input[i] !== '\n' && input[i] !== '\r') {
          field += input[i];
          i += 1;
        }
      } else {
        let next = i;
        while (next < n && input[next] !== delimiter && input[next] !== '\n' && input[next] !== '\r')
          next += 1;
        field += input.slice(i, next);
        i = next;
      }
      fields.push(field);
      field = '';
      if (i >= n) {
        endOfRecord = true;
      } else if (input[i] === delimiter) {
        i += 1;
      } else {
        if (input[i] === '\r') i += 1;
        if (input[i] === '\n') i += 1;
        line += 1;
        endOfRecord = true;
      }
    }
    if (!(fields.length === 1 && fields[0]!.trim() === '')) records.push({ line: startLine, fields });
  }
  return records;
};

/** The delimiter that splits the first lines into the most, equal-sized columns. */
export const detectDelimiter = (text: string): CsvMapping['delimiter'] => {
  const lines = text
    .replace(/^\ufeff/, '')
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '')
    .slice(0, 10);
  let best: CsvMapping['delimiter'] = ',';
  let bestScore = 0;
  for (const d of CSV_DELIMITERS) {
    const counts = lines.map((l) => l.split(d).length - 1);
    const min = Math.min(...counts);
    const score = min > 0 ? min * 10 + (counts.every((c) => c === counts[0]) ? 5 : 0) : 0;
    if (score > bestScore) {
      best = d;
      bestScore = score;
    }
  }
  return best;
};

const HEADER_HINTS: Record<string, RegExp> = {
  date: /^(date|booking date|transaction date|posted date|posting date|buchungstag|datum|value date|fecha)$/i,
  description:
    /^(description|details|memo|narrative|reference|text|verwendungszweck|transaction description|concepto)$/i,
  payee: /^(payee|name|counterparty|merchant|beguenstigter|empfänger|beneficiary)$/i,
  amount: /^(amount|value|betrag|importe|transaction amount|amount \(\w{3}\))$/i,
  debit: /^(debit|money out|paid out|withdrawal|withdrawals|out|soll)$/i,
  credit: /^(credit|money in|paid in|deposit|deposits|in|haben)$/i,
  externalId: /^(id|transaction id|reference number|fitid|ref)$/i,
};

/** A mapping guessed from the header names and sample values, for the user to confirm. */
export const suggestCsvMapping = (
  header: string[],
  samples: string[][],
  delimiter: CsvMapping['delimiter'],
): CsvMapping | null => {
  const find = (key: string) => {
    const i = header.findIndex((h) => HEADER_HINTS[key]!.test(h.trim()));
    return i >= 0 ? i : null;
  };
  const dateColumn = find('date');
  const descriptionColumn = find('description') ?? find('payee');
  const amountColumn = find('amount');
  const debitColumn = find('debit');
  const creditColumn = find('credit');
  if (dateColumn === null || descriptionColumn === null) return null;
  if (amountColumn === null && (debitColumn === null || creditColumn === null)) return null;
  const dateFormat = guessDateFormat(samples.map((r) => r[dateColumn] ?? '')) ?? 'YYYY-MM-DD';
  const amountSamples = samples.flatMap((r) =>
    [amountColumn, debitColumn, creditColumn].filter((c): c is number => c !== null).map((c) => r[c] ?? ''),
  );
  const payeeColumn = find('payee');
  return {
    delimiter,
    hasHeader: true,
    dateColumn,
    descriptionColumn,
    payeeColumn: payeeColumn === descriptionColumn ? null : payeeColumn,
    amountColumn,
    debitColumn: amountColumn === null ? debitColumn : null,
    creditColumn: amountColumn === null ? creditColumn : null,
    externalIdColumn: find('externalId'),
    dateFormat,
    decimalSeparator: guessDecimalSeparator(amountSamples),
    invertAmounts: false,
  };
};

export const sniffCsv = (text: string) => {
  const delimiter = detectDelimiter(text);
  // The first 64 KB, cut at a line end, hold the header and sample rows.
  const head =
    text.length > 64 * 1024 ? text.slice(0, text.lastIndexOf('\n', 64 * 1024) + 1 || 64 * 1024) : text;
  let records: CsvRecord[];
  try {
    records = readCsvRecords(head, delimiter);
  } catch {
    // A quoted field spanning the cut: read the first lines only.
    records = readCsvRecords(head.split(/\r?\n/).slice(0, 12).join('\n'), delimiter);
  }
  const header = records[0]?.fields ?? [];
  const sampleRows = records.slice(1, 11).map((r) => r.fields);
  return {
    delimiter,
    header,
    sampleRows,
    suggestedMapping: suggestCsvMapping(header, sampleRows, delimiter),
  };
};

const cell = (fields: string[], index: number | null) => (index === null ? '' : (fields[index] ?? '').trim());

/** Reads a whole CSV statement through a mapping; refuses the file with every bad line listed. */
export const parseCsvStatement = (text: string, mapping: CsvMapping, exponent: number): ParsedStatement => {
  const records = readCsvRecords(text, mapping.delimiter);
  const body = mapping.hasHeader ? records.slice(1) : records;
  const problems = collectErrors();
  if (body.length === 0) problems.add(records[0]?.line ?? 1, 'the file has no transaction rows');
  const used = [
    mapping.dateColumn,
    mapping.descriptionColumn,
    mapping.payeeColumn,
    mapping.amountColumn,
    mapping.debitColumn,
    mapping.creditColumn,
    mapping.externalIdColumn,
  ].filter((c): c is number => c !== null);
  const widest = Math.max(...used);
  const rows: ParsedStatementRow[] = [];
  for (const { line, fields } of body) {
    if (fields.length <= widest) {
      problems.add(line, `expected at least ${widest + 1} columns, found ${fields.length}`);
      continue;
    }
    const dateText = cell(fields, mapping.dateColumn);
    const date = parseDateIn(dateText, mapping.dateFormat);
    if (!date) {
      problems.add(line, `"${dateText}" is not a date in the format ${mapping.dateFormat}`);
      continue;
    }
    let amount: number;
    try {
      if (mapping.amountColumn !== null) {
        amount = parseBankAmount(cell(fields, mapping.amountColumn), exponent, mapping.decimalSeparator);
      } else {
        const out = cell(fields, mapping.debitColumn);
        const inn = cell(fields, mapping.creditColumn);
        if (out === '' && inn === '') throw new Error('both the money-out and money-in columns are empty');
        const outMinor = out === '' ? 0 : Math.abs(parseBankAmount(out, exponent, mapping.decimalSeparator));
        const inMinor = inn === '' ? 0 : Math.abs(parseBankAmount(inn, exponent, mapping.decimalSeparator));
        amount = inMinor - outMinor;
      }
    } catch (error) {
      problems.add(line, `amount: ${messageOf(error)}`);
      continue;
    }
    if (mapping.invertAmounts) amount = -amount || 0;
    if (amount === 0) {
      problems.add(line, 'the amount is zero');
      continue;
    }
    const payee = cell(fields, mapping.payeeColumn) || null;
    const description = cell(fields, mapping.descriptionColumn) || payee || '';
    if (description === '') {
      problems.add(line, 'the description is empty');
      continue;
    }
    rows.push({
      line,
      date,
      amount,
      description: description.slice(0, 500),
      payee: payee?.slice(0, 200) ?? null,
      externalId: cell(fields, mapping.externalIdColumn).slice(0, 200) || null,
    });
  }
  problems.throwIfAny();
  return { format: 'csv', currency: null, accountNumber: null, closingBalance: null, rows };
};
