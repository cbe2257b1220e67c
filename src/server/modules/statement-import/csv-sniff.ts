import type { CsvMapping } from '../../../shared/transactions.ts';
import { type CsvRecord, detectDelimiter, isBlank, readCsvRecords, tableOf } from './csv-records.ts';
import { parseCsvStatement } from './csv.ts';
import {
  detectDateFormat,
  detectDecimalMark,
  looksLikeAmount,
  looksLikeDate,
  parseBankAmount,
} from './values.ts';

// Sniffing a CSV statement: which lines are the table, and a column mapping to suggest
// (overview in csv.ts).

const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[\s_]+/g, ' ')
    .trim();
const HINTS = {
  date: /^(buchungstag|buchungsdatum|buchung|booking date|transaction date|posting date|posted date|date|datum|fecha|date operation|date de l'operation|completed date|date processed|datum provedeni|konyveles datuma|tranzakcio datuma|created|created utc|started date|valutadatum|wertstellung|value date)$/,
  description:
    /^(description|transaction description|verwendungszweck|omschrijving|omschrijving-1|vrije mededeling|mededeling|kozlemeny|zprava|concepto|libelle|label|remarque|narrative|particulars|details|memo|text|note|notes|item title)$/,
  // Only when nothing better names the description (ING and Sparkasse write the kind of
  // booking, "Lastschrift", there; others the whole text).
  description2: /^(buchungstext|transaction details)$/,
  payee:
    /^(payee|counterparty|merchant|beguenstigter|beguenstigter\/zahlungspflichtiger|auftraggeber\/empfanger|empfanger|beneficiary|partner name|partner nev|partner neve|naam tegenpartij|nazev protiuctu|counterparty name)$/,
  payee2: /^(name|naam|to|from)$/,
  amount:
    /^(amount|value|betrag|buchungsbetrag|betrag \(eur\)|importe|transaction amount|amount \(\w{3}\)|bedrag|montant|osszeg|tranzakcio osszege|zauctovana castka|net|umsatz|amount in \w{3})$/,
  debit:
    /^(debit|debit amount|money out|paid out|outflow|withdrawal|withdrawals|withdrawals \(\w{3}\)|out|soll|debet|ausgang|belastung|charge|charges)$/,
  credit:
    /^(credit|credit amount|money in|paid in|inflow|deposit|deposits|deposits \(\w{3}\)|in|haben|eingang|gutschrift|credits)$/,
  indicator:
    /^(d\/c|c\/d|dr\/cr|cr\/dr|debit\/credit|credit\/debit|s\/h|soll\/haben|af bij|bij\/af|bevetel\/kiadas|sign|direction|type)$/,
  currency: /^(currency|waehrung|wahrung|buchungswahrung|munt|devizanem|mena uctu|devise|moneda|valuta|ccy)$/,
  reference:
    /^(reference|referenz|reference number|ref|transactiereferentie|kundenreferenz.*|end-to-end.*|betalingskenmerk|reporting category|type|transaction type)$/,
  externalId:
    /^(id|transaction id|fitid|id transakce|tranzakcioazonosito|balance transaction id|transaktions-id|volgnr)$/,
};
type HintKey = keyof typeof HINTS;
/** Date columns that bound the statement or date a balance, not a transaction. */
const PERIOD_OR_BALANCE =
  /\b(initial|final|start|end|from|to|period|statement|opening|closing|balance|saldo)\b/;
/**
 * Amount-like columns that are not what the account moved by: a running balance, the
 * original (foreign-currency) amount of a card payment, an exchange rate, a fee.
 */
const NOT_THE_AMOUNT =
  /saldo|balance|egyenleg|original|orig\.|fremd|foreign|kurs|exchange|rate\b|fee|gebuhr|entgelt/;
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
  // Rows of the table have the table's width; some banks add cells at the end of some rows
  // (a wrapped text in extra columns), so a dated row with an amount that is narrower by a
  // quarter or any wider also belongs to it. The header may be narrower than such rows.
  const fits = (r: CsvRecord) =>
    Math.abs(r.fields.length - width) <= 1 ||
    r.fields.length > width ||
    (r.fields.length >= width * 0.75 && dataLike(r.fields));
  const headerFits = (r: CsvRecord) =>
    fits(r) || (r.fields.length >= Math.max(2, Math.ceil(width * 0.6)) && r.fields.length <= width + 1);
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
    if (headerFits(records[i]!) && textLike(records[i]!.fields)) {
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
    // Columns named for the statement's period or its balances ("initial_date", "final_date")
    // hold one date for every row; a transaction's own date comes first.
    const dateColumns = [...Array(width).keys()].filter((i) => !taken.has(i) && isDates(i));
    dateColumn = dateColumns.find((i) => !PERIOD_OR_BALANCE.test(names[i] ?? '')) ?? dateColumns[0] ?? null;
    if (dateColumn !== null) taken.add(dateColumn);
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
    // A column of whole numbers that never changes (an account number on every row) is not
    // the amount; a column written with decimals or signs is preferred to whole numbers.
    const candidates = [...Array(width).keys()].filter(
      (i) => !taken.has(i) && i !== dateColumn && isAmounts(i) && !NOT_THE_AMOUNT.test(names[i] ?? ''),
    );
    const values = (i: number) =>
      column(sample, i)
        .map((v) => v.trim())
        .filter(Boolean);
    const constantNumber = (i: number) => {
      const v = values(i);
      return v.length > 1 && new Set(v).size === 1 && /^\d+$/.test(v[0]!);
    };
    const written = (i: number) => values(i).some((v) => /[.,]\d{1,3}\D*$|^[-+(\u2212]|[-)]$/.test(v));
    const usable = candidates.filter((i) => !constantNumber(i));
    const chosen = usable.find(written) ?? usable[0] ?? null;
    if (chosen !== null) {
      amountColumn = chosen;
      taken.add(chosen);
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
  // Of the columns named like a description, one filled on every row comes first (Oberbank
  // leaves "Verwendungszweck" empty where "Text" holds the whole booking text).
  const filled = (i: number) => column(sample, i).every((v) => v.trim() !== '');
  const descriptionColumn =
    find('description', filled) ?? find('description') ?? find('description2') ?? payeeColumn;
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

const BALANCE_NAME =
  /^(balance|running balance|running bal\.?|saldo|kontostand|solde|egyenleg|balance after)$/;

/**
 * A running balance column says which way each row moved the money. When every change of the
 * balance is the opposite of the amount the suggested mapping reads (a card export with money
 * out positive, a "Debit" column that is money in) — or the balance is a card's debt — the
 * sniff says so. False when the balance agrees or cannot tell (no balance column, a row it
 * cannot read, fewer than three rows).
 */
const balanceSaysInverted = (text: string, records: CsvRecord[], mapping: CsvMapping): boolean => {
  const header = mapping.hasHeader ? records[mapping.headerRow] : undefined;
  if (!header) return false;
  const used = new Set(
    [mapping.amountColumn, mapping.debitColumn, mapping.creditColumn, mapping.dateColumn].filter(
      (c) => c !== null,
    ),
  );
  const balanceAt = header.fields.findIndex((f, i) => !used.has(i) && BALANCE_NAME.test(fold(f)));
  if (balanceAt < 0) return false;
  let rows: { line: number; amount: number; date: string }[];
  try {
    rows = parseCsvStatement(text, mapping, { exponent: 4 }).rows;
  } catch {
    return false;
  }
  const byLine = new Map(records.map((r) => [r.line, r.fields[balanceAt] ?? '']));
  const balances: number[] = [];
  for (const row of rows) {
    try {
      balances.push(parseBankAmount(byLine.get(row.line) ?? '', 4, mapping.decimalSeparator));
    } catch {
      return false;
    }
  }
  // Two changes of the balance at least, read in the file's date order (oldest first or
  // newest first; both when every row has one date): one could agree by chance.
  if (rows.length < 3) return false;
  const first = rows[0]!.date;
  const last = rows[rows.length - 1]!.date;
  const agrees = (sign: 1 | -1) =>
    (first <= last &&
      rows.slice(1).every((row, k) => balances[k + 1]! - balances[k]! === sign * row.amount)) ||
    (first >= last &&
      rows.slice(1).every((_, k) => balances[k]! - balances[k + 1]! === sign * rows[k]!.amount));
  return !agrees(1) && agrees(-1);
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
  // Only said, never changed: a card's balance is what is owed and moves against the
  // account's own signs, so the user decides.
  if (suggestion.mapping && balanceSaysInverted(text, records, suggestion.mapping)) {
    notes.push(
      `The balance column moves the other way than the amounts are read${suggestion.mapping.debitColumn !== null ? ' (the money-out column raises it)' : ''}: if this account's money out is shown as positive, tick "Money out is shown as positive"; a card's balance owed moves this way on its own.`,
    );
  }
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
