import { type CsvError, parse } from 'csv-parse/sync';
import {
  CSV_DELIMITERS,
  type CsvDateFormat,
  type CsvMapping,
  type DecimalSeparator,
} from '../../../shared/transactions.ts';
import {
  type CsvTableLayout,
  type ParsedStatement,
  type ParsedStatementRow,
  collectErrors,
  StatementParseError,
} from './types.ts';
import {
  detectDateFormat,
  detectDecimalMark,
  looksLikeAmount,
  looksLikeDate,
  messageOf,
  parseDateIn,
  readAmount,
  toMinor,
} from './values.ts';

// CSV statements as banks export them, read with csv-parse (the app's one CSV reader,
// decision record 0017): any of , ; tab |, a BOM, \n, \r\n, \r or \r\r\n line ends, quoted
// fields spanning lines, preamble lines above the header and summary lines below the data.
// Each row is read through a column mapping the user confirms once per money account.

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
const isBlank = (fields: string[]) => fields.every((f) => f.trim() === '');

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
const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
const HINTS = {
  date: /^(buchungstag|buchungsdatum|buchung|booking date|transaction date|posting date|posted date|date|datum|fecha|date operation|date de l'operation|completed date|date processed|datum provedeni|konyveles datuma|tranzakcio datuma|created|created_utc|started date|valutadatum|wertstellung|value date)$/,
  description:
    /^(description|transaction description|verwendungszweck|omschrijving|omschrijving-1|vrije mededeling|mededeling|kozlemeny|zprava|concepto|libelle|label|remarque|narrative|particulars|details|memo|text|note|notes|item title)$/,
  // Only when nothing better names the description (ING and Sparkasse write the kind of
  // booking, "Lastschrift", there; others the whole text).
  description2: /^(buchungstext|transaction details)$/,
  payee:
    /^(payee|counterparty|merchant|beguenstigter|beguenstigter\/zahlungspflichtiger|auftraggeber\/empfanger|empfanger|beneficiary|partner name|partner nev|partner neve|naam tegenpartij|nazev protiuctu|counterparty name)$/,
  payee2: /^(name|naam|to|from)$/,
  amount:
    /^(amount|value|betrag|betrag \(eur\)|importe|transaction amount|amount \(\w{3}\)|bedrag|montant|osszeg|tranzakcio osszege|zauctovana castka|net|umsatz|amount in \w{3})$/,
  debit:
    /^(debit|debit amount|money out|paid out|withdrawal|withdrawals|withdrawals \(\w{3}\)|out|soll|debet|ausgang|belastung|charge|charges)$/,
  credit:
    /^(credit|credit amount|money in|paid in|deposit|deposits|deposits \(\w{3}\)|in|haben|eingang|gutschrift|credits)$/,
  indicator:
    /^(d\/c|c\/d|dr\/cr|cr\/dr|debit\/credit|credit\/debit|s\/h|soll\/haben|af bij|bij\/af|bevetel\/kiadas|sign|direction|type)$/,
  currency: /^(currency|waehrung|wahrung|munt|devizanem|mena uctu|devise|moneda|valuta|ccy)$/,
  reference:
    /^(reference|referenz|reference number|ref|transactiereferentie|kundenreferenz.*|end-to-end.*|betalingskenmerk|reporting_category|type|transaction type)$/,
  externalId:
    /^(id|transaction id|fitid|id transakce|tranzakcioazonosito|balance_transaction_id|transaktions-id|volgnr)$/,
};
type HintKey = keyof typeof HINTS;
// Each hint's names in order of preference: "Description" before "Details" (Chase writes
// DEBIT/CREDIT under Details), the booking date before the value date.
const RANKED = Object.fromEntries(
  Object.entries(HINTS).map(([key, re]) => [
    key,
    re.source
      .slice(2, -2)
      .split('|')
      .map((alt) => new RegExp(`^(?:${alt})$`)),
  ]),
) as Record<HintKey, RegExp[]>;

const DEBIT_WORDS = [
  'd',
  'dr',
  'db',
  'debit',
  'debet',
  's',
  'soll',
  '-',
  'af',
  'out',
  'outflow',
  'kiadas',
  'withdrawal',
  'ausgang',
  'belastung',
];
const CREDIT_WORDS = [
  'c',
  'cr',
  'credit',
  'h',
  'haben',
  '+',
  'bij',
  'in',
  'inflow',
  'bevetel',
  'deposit',
  'eingang',
  'gutschrift',
];

/** Splits a column's distinct values into debit and credit indicators; null when one is unknown. */
export const classifyIndicators = (values: string[]) => {
  const distinct = [...new Set(values.map((v) => v.trim()))];
  const debit: string[] = [];
  const credit: string[] = [];
  const blank = distinct.includes('');
  for (const v of distinct) {
    if (v === '') continue;
    const f = fold(v);
    if (DEBIT_WORDS.includes(f)) debit.push(v);
    else if (CREDIT_WORDS.includes(f)) credit.push(v);
    else return null;
  }
  if (debit.length + credit.length === 0) return null;
  // A blank cell means the other side when only one side is written (card statements
  // write "CR" beside payments only). The mapping step shows this for the user to confirm.
  if (blank) {
    if (credit.length > 0 && debit.length === 0) debit.push('');
    else if (debit.length > 0 && credit.length === 0) credit.push('');
  }
  return { debit, credit };
};

export type CsvLayout = {
  hasHeader: boolean;
  headerRow: number;
  firstDataRow: number;
  footerRows: number;
};

const dataLike = (fields: string[]) => {
  const dateAt = fields.findIndex((f) => looksLikeDate(f));
  return dateAt >= 0 && fields.some((f, i) => i !== dateAt && looksLikeAmount(f) && !looksLikeDate(f));
};
const textLike = (fields: string[]) => {
  const filled = fields.filter((f) => f.trim() !== '');
  return (
    filled.length >= Math.max(2, Math.ceil(fields.length / 2)) &&
    filled.every((f) => !looksLikeDate(f) && !looksLikeAmount(f))
  );
};

/**
 * Finds the table in the file: the first row that looks like a transaction (a date and an
 * amount), the header row above it (a row of names with as many columns), and the summary
 * rows after the last transaction. Rows between the header and the first transaction are
 * kept as data, so they are refused by line rather than skipped unseen.
 */
export const detectLayout = (records: CsvRecord[]): CsvLayout => {
  const counts = new Map<number, number>();
  for (const r of records)
    if (r.fields.length > 1) counts.set(r.fields.length, (counts.get(r.fields.length) ?? 0) + 1);
  const width = [...counts.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]?.[0] ?? 1;
  const fits = (r: CsvRecord) => Math.abs(r.fields.length - width) <= 1;
  const first = records.findIndex((r) => fits(r) && dataLike(r.fields));
  if (first < 0) {
    const header = records.findIndex((r) => fits(r) && textLike(r.fields));
    return {
      hasHeader: header >= 0,
      headerRow: Math.max(header, 0),
      firstDataRow: header + 1,
      footerRows: 0,
    };
  }
  let header = -1;
  for (let i = first - 1; i >= 0; i -= 1) {
    if (fits(records[i]!) && textLike(records[i]!.fields)) {
      header = i;
      break;
    }
  }
  // Rows above and below the table are left out only when they cannot be a transaction
  // row: another width, or words without a digit where the date goes ("Balance at start
  // of period", "Total"). A row with a mistyped date stays in the table and is refused.
  const dateAt = records[first]!.fields.findIndex((f) => looksLikeDate(f));
  const outside = (r: CsvRecord) =>
    isBlank(r.fields) || !fits(r) || /^[^\d]*\p{L}[^\d]*$/u.test((r.fields[dateAt] ?? '').trim());
  let start = header >= 0 ? header + 1 : first;
  while (header < 0 && start > 0 && !outside(records[start - 1]!)) start -= 1;
  let end = records.length;
  while (end > first + 1 && outside(records[end - 1]!)) end -= 1;
  return {
    hasHeader: header >= 0,
    headerRow: Math.max(header, 0),
    firstDataRow: start,
    footerRows: records.length - end,
  };
};

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

const column = (records: CsvRecord[], index: number | null) =>
  index === null ? [] : records.map((r) => r.fields[index] ?? '');

/** A mapping guessed from the header names and all the values, for the user to confirm. */
export const suggestCsvMapping = (records: CsvRecord[], delimiter: CsvMapping['delimiter']) => {
  const layout = detectLayout(records);
  const { header, body } = tableOf(records, { ...layout, firstDataRow: layout.firstDataRow });
  const names = (header?.fields ?? []).map(fold);
  const width = Math.max(...body.slice(0, 50).map((r) => r.fields.length), names.length, 1);
  const taken = new Set<number>();
  const find = (key: HintKey, accept: (i: number) => boolean = () => true) => {
    for (const name of RANKED[key]) {
      const i = names.findIndex((h, j) => !taken.has(j) && name.test(h) && accept(j));
      if (i >= 0) {
        taken.add(i);
        return i;
      }
    }
    return null;
  };
  // Column roles are judged on the first and last rows; formats below read every value.
  const sample = body.length > 400 ? [...body.slice(0, 200), ...body.slice(-200)] : body;
  const share = (i: number, test: (v: string) => boolean) => {
    const values = column(sample, i).filter((v) => v.trim() !== '');
    return values.length === 0 ? 0 : values.filter(test).length / values.length;
  };
  const isDates = (i: number) => share(i, looksLikeDate) >= 0.5;
  const isAmounts = (i: number) => share(i, (v) => looksLikeAmount(v) && !looksLikeDate(v)) >= 0.8;
  let dateColumn = find('date', isDates);
  if (dateColumn === null) {
    for (let i = 0; i < width; i += 1) {
      if (!taken.has(i) && isDates(i)) {
        dateColumn = i;
        taken.add(i);
        break;
      }
    }
  }
  let amountColumn = find('amount', isAmounts);
  let debitColumn: number | null = null;
  let creditColumn: number | null = null;
  if (amountColumn === null) {
    debitColumn = find('debit');
    creditColumn = find('credit');
    if (debitColumn === null || creditColumn === null) {
      debitColumn = null;
      creditColumn = null;
    }
  }
  if (amountColumn === null && debitColumn === null) {
    // No header names them: two neighbouring amount columns never filled on the same row
    // are money out and money in (which is which the user confirms); else the first
    // column of amounts that is not a running balance.
    for (let i = 0; i + 1 < width && debitColumn === null; i += 1) {
      if (taken.has(i) || taken.has(i + 1) || i === dateColumn || i + 1 === dateColumn) continue;
      const a = column(sample, i).map((v) => v.trim() !== '');
      const b = column(sample, i + 1).map((v) => v.trim() !== '');
      const exclusive = a.every((x, k) => !(x && b[k])) && a.some(Boolean) && b.some(Boolean);
      if (exclusive && isAmounts(i) && isAmounts(i + 1)) {
        debitColumn = i;
        creditColumn = i + 1;
        taken.add(i);
        taken.add(i + 1);
      }
    }
  }
  if (amountColumn === null && debitColumn === null) {
    for (let i = 0; i < width; i += 1) {
      if (
        !taken.has(i) &&
        i !== dateColumn &&
        isAmounts(i) &&
        !/saldo|balance|egyenleg/.test(names[i] ?? '')
      ) {
        amountColumn = i;
        taken.add(i);
        break;
      }
    }
  }
  let indicatorColumn: number | null = null;
  let indicators: { debit: string[]; credit: string[] } | null = null;
  if (amountColumn !== null) {
    const candidates = [...Array(width).keys()].filter((i) => !taken.has(i));
    const hinted = candidates.filter((i) => HINTS.indicator.test(names[i] ?? ''));
    for (const i of [...hinted, ...candidates.filter((c) => !hinted.includes(c))]) {
      if (column(sample, i).every((v) => v.trim() === '')) continue;
      if (!classifyIndicators(column(sample, i))) continue;
      // The first and last rows look like indicators: every value of the column must be one.
      const c = classifyIndicators(column(body, i));
      if (c && (hinted.includes(i) || c.debit.length + c.credit.length >= 2)) {
        indicatorColumn = i;
        indicators = c;
        taken.add(i);
        break;
      }
    }
  }
  const payeeColumn = find('payee') ?? find('payee2');
  const descriptionColumn = find('description') ?? find('description2') ?? payeeColumn;
  const currencyColumn = find('currency', (i) => share(i, (v) => /^[A-Za-z]{3}$/.test(v.trim())) >= 0.8);
  const externalIdColumn = find('externalId');
  const referenceColumn = find('reference');
  const amountValues = [amountColumn, debitColumn, creditColumn].flatMap((c) => column(body, c));
  const decimal = detectDecimalMark(amountValues);
  const date = detectDateFormat(column(body, dateColumn));
  // Without a named description: the column of the longest texts that are neither dates
  // nor amounts (not a "*" flag column).
  const textLength = (i: number) => column(sample, i).reduce((n, v) => n + v.trim().length, 0);
  const textColumn =
    descriptionColumn ??
    [...Array(width).keys()]
      .filter((i) => !taken.has(i) && share(i, (v) => !looksLikeAmount(v) && !looksLikeDate(v)) >= 0.8)
      .sort((a, b) => textLength(b) - textLength(a) || a - b)[0] ??
    null;
  // A mapping names at most column 200 and row 1000 (csvMappingSchema); a table beyond that is
  // mapped by hand, never half-suggested.
  const outOfReach =
    Math.max(layout.headerRow, layout.firstDataRow, layout.footerRows) > 999 ||
    [dateColumn, textColumn, amountColumn, debitColumn, creditColumn].some((c) => c !== null && c > 199);
  const within = (c: number | null) => (c !== null && c > 199 ? null : c);
  const mapping: CsvMapping | null =
    outOfReach ||
    dateColumn === null ||
    textColumn === null ||
    (amountColumn === null && debitColumn === null)
      ? null
      : {
          delimiter,
          hasHeader: layout.hasHeader,
          headerRow: layout.headerRow,
          firstDataRow: layout.firstDataRow,
          footerRows: layout.footerRows,
          dateColumn,
          descriptionColumn: textColumn,
          payeeColumn: payeeColumn === textColumn ? null : within(payeeColumn),
          amountColumn,
          debitColumn,
          creditColumn,
          indicatorColumn: within(indicatorColumn),
          debitIndicators: indicators?.debit ?? [],
          creditIndicators: indicators?.credit ?? [],
          currencyColumn: within(currencyColumn),
          referenceColumn: within(referenceColumn),
          externalIdColumn: within(externalIdColumn),
          dateFormat: date.format ?? date.fitting[0] ?? 'YYYY-MM-DD',
          decimalSeparator: decimal.mark ?? '.',
          invertAmounts: false,
          continuationRows: 'leave_out',
        };
  return { layout, mapping, dateFormatChoices: date.fitting, ambiguousAmounts: decimal.ambiguousValues };
};

const lineList = (records: CsvRecord[]) => {
  if (records.length === 0) return '';
  const lines = records.map((r) => r.line);
  return lines.length === 1 ? `Line ${lines[0]}` : `Lines ${lines[0]}–${lines[lines.length - 1]}`;
};

/** What the mapping step needs: the delimiter, the records, a suggested mapping and what is unsure. */
export const sniffCsv = (text: string) => {
  const delimiter = detectDelimiter(text);
  const records = readCsvRecords(text, delimiter);
  const suggestion = suggestCsvMapping(records, delimiter);
  const { layout } = suggestion;
  const table = tableOf(records, layout);
  const notes: string[] = [];
  if (table.above.length > 0)
    notes.push(
      table.above.length === 1
        ? `${lineList(table.above)}, above the ${layout.hasHeader ? 'header' : 'first transaction'}, is not a transaction.`
        : `${lineList(table.above)}, above the ${layout.hasHeader ? 'header' : 'first transaction'}, are not transactions.`,
    );
  if (table.below.length > 0)
    notes.push(
      table.below.length === 1
        ? `${lineList(table.below)}, after the last transaction, is a summary, not a transaction.`
        : `${lineList(table.below)}, after the last transaction, are a summary, not transactions.`,
    );
  const m = suggestion.mapping;
  if (m) {
    const amounts = [m.amountColumn, m.debitColumn, m.creditColumn].filter((c): c is number => c !== null);
    const bare = table.body.filter(
      (r) =>
        !isBlank(r.fields) &&
        (r.fields[m.dateColumn] ?? '').trim() === '' &&
        amounts.every((c) => (r.fields[c] ?? '').trim() === ''),
    );
    if (bare.length > 0)
      notes.push(
        `${
          bare.length === 1
            ? `Line ${bare[0]!.line} has`
            : `${bare.length} rows (${bare
                .slice(0, 5)
                .map((r) => `line ${r.line}`)
                .join(', ')}${bare.length > 5 ? ', …' : ''}) have`
        } neither a date nor an amount: they are left out and listed, unless you choose to add such rows to the description above them.`,
      );
  }
  if (suggestion.dateFormatChoices.length > 1)
    notes.push(
      `Every date fits both ${suggestion.dateFormatChoices.join(' and ')}: choose the one your bank uses.`,
    );
  if (suggestion.ambiguousAmounts.length > 0)
    notes.push(
      `Amounts such as ${suggestion.ambiguousAmounts.map((a) => `"${a}"`).join(', ')} read differently with a decimal point and a decimal comma: choose the decimal mark.`,
    );
  const head = records.slice(0, 40);
  const tail = records.slice(Math.max(40, records.length - 10));
  return {
    delimiter,
    header: layout.hasHeader
      ? (records[layout.headerRow]?.fields ?? [])
      : (table.body[0]?.fields.map(() => '') ?? []),
    sampleRows: table.body.slice(0, 10).map((r) => r.fields),
    suggestedMapping: suggestion.mapping,
    // What the page shows of each line: enough to recognise it, bounded for very wide files.
    records: [...head, ...tail].map((r) => ({
      ...r,
      fields: r.fields.slice(0, 200).map((f) => (f.length > 300 ? `${f.slice(0, 300)}…` : f)),
    })),
    totalRecords: records.length,
    dateFormatChoices: suggestion.dateFormatChoices,
    ambiguousAmounts: suggestion.ambiguousAmounts,
    notes,
  };
};

const cell = (fields: string[], index: number | null) => (index === null ? '' : (fields[index] ?? '').trim());
const clean = (s: string) => s.replace(/\s+/g, ' ').trim();

export type CsvParseOptions = {
  exponent: number;
  /** The money account's currency: rows and amounts naming another one are refused. */
  currency?: string | null;
};

/** Reads a whole CSV statement through a mapping; refuses the file with every bad line listed. */
export const parseCsvStatement = (
  text: string,
  mapping: CsvMapping,
  options: number | CsvParseOptions,
): ParsedStatement & { csvLayout: CsvTableLayout } => {
  const { exponent, currency = null } = typeof options === 'number' ? { exponent: options } : options;
  const records = readCsvRecords(text, mapping.delimiter);
  const { header, body, above, below } = tableOf(records, mapping);
  const problems = collectErrors();
  const rows: ParsedStatementRow[] = [];
  const dataRows = body.filter((r) => !isBlank(r.fields));
  if (dataRows.length === 0)
    problems.add(body[0]?.line ?? records[records.length - 1]?.line ?? 1, 'the file has no transaction rows');
  const used = [
    mapping.dateColumn,
    mapping.descriptionColumn,
    mapping.payeeColumn,
    mapping.amountColumn,
    mapping.debitColumn,
    mapping.creditColumn,
    mapping.externalIdColumn,
    mapping.indicatorColumn,
    mapping.currencyColumn,
    mapping.referenceColumn,
  ].filter((c): c is number => c !== null);
  const widest = Math.max(...used);
  const decimal: DecimalSeparator = mapping.decimalSeparator;
  const debitSet = new Set(mapping.debitIndicators.map((v) => v.trim().toLowerCase()));
  const creditSet = new Set(mapping.creditIndicators.map((v) => v.trim().toLowerCase()));
  const name = (i: number | null) =>
    i === null ? '' : header?.fields[i]?.trim() ? `"${header.fields[i]!.trim()}"` : `column ${i + 1}`;
  const leftOut: { line: number; text: string }[] = [];
  const amountCells = [mapping.amountColumn, mapping.debitColumn, mapping.creditColumn].filter(
    (c): c is number => c !== null,
  );
  const joined: { line: number; to: number }[] = [];
  /** Position in dataRows of the record that last made or extended a row. */
  let lastK = -2;
  for (let k = 0; k < dataRows.length; k += 1) {
    const { line, fields } = dataRows[k]!;
    // A row with neither a date nor an amount moves no money: a bank's second line of a
    // description, or a note. It is left out and listed in the preview, never dropped unseen
    // — or, when the user says the bank wraps long texts, added to the row right above.
    if (cell(fields, mapping.dateColumn) === '' && amountCells.every((c) => cell(fields, c) === '')) {
      const text = clean(fields.join(' '));
      const above = rows[rows.length - 1];
      if (mapping.continuationRows === 'append' && above && lastK === k - 1) {
        above.description = `${above.description} ${text}`.slice(0, 500);
        joined.push({ line, to: above.line });
        lastK = k;
        continue;
      }
      leftOut.push({ line, text: text.slice(0, 200) });
      continue;
    }
    if (fields.length <= widest) {
      problems.add(line, `expected at least ${widest + 1} columns, found ${fields.length}`);
      continue;
    }
    const dateText = cell(fields, mapping.dateColumn);
    const date = parseDateIn(dateText, mapping.dateFormat as CsvDateFormat);
    if (!date) {
      problems.add(
        line,
        dateText === ''
          ? `the date (${name(mapping.dateColumn)}) is empty`
          : `"${dateText}" in ${name(mapping.dateColumn)} is not a date in the format ${mapping.dateFormat}`,
      );
      continue;
    }
    let amount: number;
    let column: number | null = null;
    try {
      const read = (index: number) => {
        column = index;
        const raw = cell(fields, index);
        const value = readAmount(raw, decimal);
        if (value.currency && currency && value.currency !== currency)
          throw new Error(`"${raw}" is in ${value.currency}, the account in ${currency}`);
        return toMinor(value, exponent, raw);
      };
      if (mapping.amountColumn !== null) {
        amount = read(mapping.amountColumn);
        if (mapping.indicatorColumn !== null) {
          const ind = cell(fields, mapping.indicatorColumn);
          const key = ind.toLowerCase();
          column = mapping.indicatorColumn;
          if (debitSet.has(key)) amount = -Math.abs(amount);
          else if (creditSet.has(key)) amount = Math.abs(amount);
          else
            throw new Error(
              `${ind === '' ? 'the cell is blank' : `"${ind}"`}, which is neither a money-out (${mapping.debitIndicators.map((v) => v || 'blank').join(', ') || 'none'}) nor a money-in (${mapping.creditIndicators.map((v) => v || 'blank').join(', ') || 'none'}) indicator`,
            );
        }
      } else {
        const out = cell(fields, mapping.debitColumn);
        const inn = cell(fields, mapping.creditColumn);
        if (out === '' && inn === '') {
          column = mapping.debitColumn;
          throw new Error(`both ${name(mapping.debitColumn)} and ${name(mapping.creditColumn)} are empty`);
        }
        const outMinor = out === '' ? 0 : Math.abs(read(mapping.debitColumn!));
        const inMinor = inn === '' ? 0 : Math.abs(read(mapping.creditColumn!));
        if (outMinor !== 0 && inMinor !== 0) {
          column = mapping.debitColumn;
          throw new Error(
            `both ${name(mapping.debitColumn)} and ${name(mapping.creditColumn)} hold an amount`,
          );
        }
        amount = inMinor - outMinor;
      }
    } catch (error) {
      problems.add(line, `${name(column)}: ${messageOf(error)}`);
      continue;
    }
    if (mapping.invertAmounts) amount = -amount || 0;
    if (amount === 0) {
      problems.add(line, 'the amount is zero; a bank statement line moves money');
      continue;
    }
    if (mapping.currencyColumn !== null) {
      const rowCurrency = cell(fields, mapping.currencyColumn).toUpperCase();
      if (currency && rowCurrency !== currency) {
        problems.add(
          line,
          rowCurrency === ''
            ? `the currency (${name(mapping.currencyColumn)}) is empty`
            : `the row is in ${rowCurrency} but the account is kept in ${currency}; import ${rowCurrency} rows into a ${rowCurrency} account`,
        );
        continue;
      }
    }
    const payee = clean(cell(fields, mapping.payeeColumn)) || null;
    const reference = clean(cell(fields, mapping.referenceColumn));
    const externalId = cell(fields, mapping.externalIdColumn) || null;
    const description =
      clean(cell(fields, mapping.descriptionColumn)) || payee || reference || externalId || '';
    if (description === '') {
      problems.add(line, 'the description, payee and reference are all empty');
      continue;
    }
    lastK = k;
    rows.push({
      line,
      date,
      amount,
      description: description.slice(0, 500),
      payee: payee?.slice(0, 200) ?? null,
      externalId: externalId?.slice(0, 200) ?? null,
    });
  }
  problems.throwIfAny();
  return {
    format: 'csv',
    currency: null,
    accountNumber: null,
    closingBalance: null,
    rows,
    csvLayout: {
      headerLine: header?.line ?? null,
      firstLine: dataRows[0]?.line ?? 1,
      lastLine: dataRows[dataRows.length - 1]?.line ?? 1,
      linesAbove: above.map((r) => r.line),
      linesBelow: below.map((r) => r.line),
      leftOut,
      joined,
    },
    notices: [
      ...leftOut.map((r) => `Line ${r.line} has no date and no amount and was left out: "${r.text}"`),
      ...joined.map((r) => `Line ${r.line} was added to the description of line ${r.to}`),
    ],
  };
};
