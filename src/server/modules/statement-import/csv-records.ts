import { type CsvError, parse } from 'csv-parse/sync';
import { CSV_DELIMITERS, type CsvMapping } from '../../../shared/transactions.ts';
import { StatementParseError } from './types.ts';

// Reading a CSV file into records with csv-parse, and guessing its delimiter (overview in csv.ts).

export type CsvRecord = {
  /** 0-based among the file's records (blank lines are not records). */
  index: number;
  /** 1-based line of the file where the record starts. */
  line: number;
  fields: string[];
};

/**
 * One line end for every convention: \r\r\n (a CRLF file converted once more), \r\n, \r, \n.
 * Done before reading, so line numbers in messages count the lines an editor shows.
 */
export const normalizeLineEnds = (text: string) =>
  (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).replace(/\r\r\n|\r\n|\r/g, '\n');

const csvReason = (error: CsvError) => {
  switch (error.code) {
    case 'INVALID_OPENING_QUOTE':
      return 'a quote (") appears inside a field that does not start with one; the columns of this line cannot be told apart';
    case 'CSV_INVALID_CLOSING_QUOTE':
      return 'text follows a closing quote (") before the next delimiter; the columns of this line cannot be told apart';
    case 'CSV_QUOTE_NOT_CLOSED':
      return 'a quoted field is never closed (missing ")';
    default:
      return error.message;
  }
};

/** Splits CSV text into records, each with the line it starts on. Refuses broken quoting by line. */
export const readCsvRecords = (text: string, delimiter: string, options: { relaxQuotes?: boolean } = {}) => {
  const input = normalizeLineEnds(text);
  const records: CsvRecord[] = [];
  let lastEnd = 0;
  try {
    parse(input, {
      delimiter,
      record_delimiter: '\n',
      relax_column_count: true,
      relax_quotes: options.relaxQuotes ?? false,
      skip_empty_lines: true,
      on_record: (record, context) => {
        const fields = record as unknown as string[];
        // context.lines is the line the record ends on; quoted line breaks are kept in its fields.
        let inside = 0;
        for (const f of fields) for (let i = f.indexOf('\n'); i >= 0; i = f.indexOf('\n', i + 1)) inside += 1;
        lastEnd = context.lines;
        records.push({ index: records.length, line: context.lines - inside, fields });
        return null;
      },
    });
  } catch (error) {
    const e = error as CsvError;
    if (typeof e.code !== 'string') throw error;
    let line: number = typeof e.lines === 'number' ? e.lines : 1;
    if (e.code === 'CSV_QUOTE_NOT_CLOSED') {
      // The record began after the last complete one (skipping blank lines).
      const lines = input.split('\n');
      line = lastEnd + 1;
      while (line < lines.length && lines[line - 1] === '') line += 1;
    }
    throw new StatementParseError([{ line, reason: csvReason(e) }]);
  }
  return records;
};

/** A record of empty cells carries nothing (separator-only lines such as ",,,,"). */
export const isBlank = (fields: string[]) => fields.every((f) => f.trim() === '');

/**
 * The delimiter that splits the most lines into the same number of columns: the file's
 * table, not its preamble, decides ("Saldo;150,00;EUR" above a semicolon table).
 */
export const detectDelimiter = (text: string): CsvMapping['delimiter'] => {
  const head = normalizeLineEnds(text.slice(0, 64 * 1024))
    .split('\n')
    .slice(0, 200)
    .join('\n');
  let best: CsvMapping['delimiter'] = ',';
  let bestScore = 0;
  for (const d of CSV_DELIMITERS) {
    let records: CsvRecord[];
    try {
      records = readCsvRecords(head, d, { relaxQuotes: true });
    } catch {
      try {
        records = readCsvRecords(head.split('\n').slice(0, 30).join('\n'), d, { relaxQuotes: true });
      } catch {
        continue;
      }
    }
    const counts = new Map<number, number>();
    for (const r of records)
      if (r.fields.length > 1) counts.set(r.fields.length, (counts.get(r.fields.length) ?? 0) + 1);
    let score = 0;
    for (const [columns, rows] of counts) score = Math.max(score, rows * (columns - 1));
    if (score > bestScore) {
      best = d;
      bestScore = score;
    }
  }
  return best;
};

// Header names in the languages of the banks Kontor users bank with (compared without case,
// accents folded).

/** The records a mapping reads as transactions, and those above and below them. */
export const tableOf = (
  records: CsvRecord[],
  mapping: Pick<CsvMapping, 'hasHeader' | 'headerRow' | 'firstDataRow' | 'footerRows'>,
) => {
  const header = mapping.hasHeader ? (records[mapping.headerRow] ?? null) : null;
  const start = mapping.firstDataRow ?? (mapping.hasHeader ? mapping.headerRow + 1 : 0);
  const end = Math.max(start, records.length - mapping.footerRows);
  return {
    header,
    body: records.slice(start, end),
    above: records.slice(0, start).filter((r) => r !== header),
    below: records.slice(end),
  };
};
