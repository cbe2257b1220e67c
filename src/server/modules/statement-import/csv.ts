import type { CsvDateFormat, CsvMapping, DecimalSeparator } from '../../../shared/transactions.ts';
import { isBlank, readCsvRecords, tableOf } from './csv-records.ts';
import {
  type CsvTableLayout,
  type ParsedStatement,
  type ParsedStatementRow,
  collectErrors,
} from './types.ts';
import { messageOf, parseDateIn, readAmount, toMinor } from './values.ts';

// CSV statements as banks export them, read with csv-parse (the app's one CSV reader,
// decision record 0017): any of , ; tab |, a BOM, \n, \r\n, \r or \r\r\n line ends, quoted
// fields spanning lines, preamble lines above the header and summary lines below the data.
// Each row is read through a column mapping the user confirms once per money account.

// Records, the delimiter and the table a mapping reads: csv-records.ts; the sniff and suggested mapping: csv-sniff.ts;
// here each row is read through the confirmed mapping.

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
  const zeroLines: number[] = [];
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
      // A row of amount 0 moves no money (a bank's notice of new terms, a declined card
      // payment): left out and said, as in OFX and CAMT, never refused nor dropped unseen.
      zeroLines.push(line);
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
      ...(zeroLines.length > 0
        ? [
            `${zeroLines.length} row${zeroLines.length === 1 ? '' : 's'} of amount 0 moved no money and ${zeroLines.length === 1 ? 'is' : 'are'} not imported (line${zeroLines.length === 1 ? '' : 's'} ${zeroLines.slice(0, 10).join(', ')}${zeroLines.length > 10 ? ', …' : ''})`,
          ]
        : []),
    ],
  };
};
