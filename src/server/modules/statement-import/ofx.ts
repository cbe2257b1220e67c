import { exponentOfCode, parseExactDecimal } from './decimal.ts';
import {
  type ParsedStatement,
  type ParsedStatementFile,
  type ParsedStatementRow,
  StatementParseError,
  collectErrors,
} from './types.ts';
import { messageOf } from './values.ts';

// OFX and QFX statements, both the SGML dialect of OFX 1.x (leaf tags never closed) and the
// XML of OFX 2.x. Comments (<!-- -->) are blanked out first, keeping every line where it was.
// Each bank statement (STMTRS) and credit-card statement (CCSTMTRS) is its own statement with
// its own currency, account, period, transactions and ledger balance (LEDGERBAL).

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** Replaces character and entity references once; a reference to no character is reported. */
const decodeEntities = (s: string, onBad: (reference: string) => void) =>
  s.replace(/&(#\d+|#x[0-9a-f]+|\w+);/gi, (all, name: string) => {
    if (name[0] === '#') {
      const hex = name[1] === 'x' || name[1] === 'X';
      const code = hex ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      if (!Number.isSafeInteger(code) || code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
        onBad(all);
        return '';
      }
      return String.fromCodePoint(code);
    }
    return ENTITIES[name.toLowerCase()] ?? all;
  });

type Tag = { name: string; closing: boolean; raw: string; offset: number };

/** Every tag in order with the (raw) text that follows it up to the next tag. */
const tokenize = (body: string, baseOffset: number): Tag[] => {
  const tags: Tag[] = [];
  const re = /<(\/?)([A-Za-z0-9_.]+)[^>]*>([^<]*)/g;
  for (let m = re.exec(body); m; m = re.exec(body)) {
    tags.push({
      name: m[2]!.toUpperCase(),
      closing: m[1] === '/',
      raw: m[3]!.trim(),
      offset: baseOffset + m.index,
    });
  }
  return tags;
};

/** Where each line starts; a line ends at \n, \r\n, \r\r\n or a lone \r (old Mac exports). */
export const lineStartsOf = (text: string) => {
  const starts = [0];
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 10) starts.push(i + 1);
    else if (c === 13) {
      const next = text.charCodeAt(i + 1);
      const crlfFollows = next === 10 || (next === 13 && text.charCodeAt(i + 2) === 10);
      if (!crlfFollows) starts.push(i + 1);
    }
  }
  return starts;
};

export const lineAt = (lineStarts: number[], offset: number) => {
  let lo = 0;
  let hi = lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (lineStarts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
};

/** OFX dates are YYYYMMDD[HHMMSS[.XXX]][[+-h:TZ]]; the bank's calendar date is the first eight digits. */
export const parseOfxDate = (value: string): string | null => {
  const m = /^(\d{4})(\d{2})(\d{2})/.exec(value.trim());
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1 || d > new Date(Date.UTC(y, mo, 0)).getUTCDate()) return null;
  return `${m[1]}-${m[2]}-${m[3]}`;
};

export const looksLikeOfx = (text: string) => /OFXHEADER|<OFX[\s>]/i.test(text.slice(0, 4096));

/** Blanks out <!-- --> comments (newlines kept, so lines stay where they were). */
const withoutComments = (text: string, onUnclosed: (offset: number) => void) => {
  let out = '';
  let from = 0;
  for (let open = text.indexOf('<!--'); open !== -1; open = text.indexOf('<!--', from)) {
    const close = text.indexOf('-->', open + 4);
    if (close === -1) {
      onUnclosed(open);
      return out + text.slice(from);
    }
    out += text.slice(from, open) + text.slice(open, close + 3).replace(/[^\n]/g, ' ');
    from = close + 3;
  }
  return out + text.slice(from);
};

/** Aggregates inside a transaction whose leaves are read with the aggregate's name in front. */
const TRANSACTION_AGGREGATES = new Set([
  'PAYEE',
  'BANKACCTTO',
  'CCACCTTO',
  'CURRENCY',
  'ORIGCURRENCY',
  'IMAGEDATA',
]);

/** Elements of an answer that holds nothing but the sign-on. */
const OFX_SIGNON_ONLY = new Set([
  'OFX',
  'SIGNONMSGSRSV1',
  'SONRS',
  'STATUS',
  'CODE',
  'SEVERITY',
  'MESSAGE',
  'DTSERVER',
  'LANGUAGE',
  'DTPROFUP',
  'DTACCTUP',
  'FI',
  'ORG',
  'FID',
  'SESSCOOKIE',
  'ACCESSKEY',
  'INTU.BID',
  'INTU.USERID',
  'START.TIME',
  'ORIGIN.ID',
  'ERROR.CODE',
]);

type Building = {
  statement: ParsedStatement;
  exponent: number;
  zeroLines: number[];
  /** The currency came from a transaction's CURSYM, the statement stating no CURDEF. */
  currencyFromRows?: boolean;
};

/**
 * Reads every bank and credit-card statement of an OFX/QFX file. `fallbackExponent` and
 * `fallbackCurrency` (the chosen money account's) apply to statements that state no CURDEF.
 */
export const parseOfxFile = (
  raw: string,
  fallbackExponent: number,
  fallbackCurrency: string | null = null,
): ParsedStatementFile => {
  const problems = collectErrors();
  const lineStarts = lineStartsOf(raw);
  const line = (offset: number) => lineAt(lineStarts, offset);
  const text = withoutComments(raw, (offset) =>
    problems.add(line(offset), 'this comment (<!--) is never closed with -->'),
  );
  const start = text.search(/<OFX[\s>]/i);
  if (start === -1) {
    problems.throwIfAny();
    throw new StatementParseError([
      { line: 1, reason: 'this is not an OFX/QFX file: it has no <OFX> element' },
    ]);
  }
  const tags = tokenize(text.slice(start), start);
  const statements: ParsedStatement[] = [];
  const fileNotices: string[] = [];
  let building: Building | null = null;
  let tx: { line: number; fields: Map<string, string>; lines: Map<string, number> } | null = null;
  let sub: string | null = null;
  let inAccountFrom = false;
  let inTranList = false;
  let ledger: { line: number; fields: Map<string, string> } | null = null;
  let status: { line: number; fields: Map<string, string> } | null = null;
  const statusErrors: { line: number; text: string }[] = [];
  const investmentLines: number[] = [];
  let sawOfxEnd = false;

  const amountOf = (b: Building, value: string, at: number, what: string): number | null => {
    try {
      return parseExactDecimal(value, b.exponent, b.statement.currency ?? fallbackCurrency);
    } catch (error) {
      problems.add(at, `${what}: ${messageOf(error)}`);
      return null;
    }
  };

  const finishTransaction = (b: Building, t: NonNullable<typeof tx>) => {
    const f = t.fields;
    const posted = f.get('DTPOSTED') ?? '';
    const date = parseOfxDate(posted);
    if (!date) {
      problems.add(
        t.lines.get('DTPOSTED') ?? t.line,
        posted
          ? `DTPOSTED "${posted}" is not a date (YYYYMMDD)`
          : 'the transaction has no DTPOSTED (date posted)',
      );
    }
    const amountText = f.get('TRNAMT');
    if (!amountText) {
      problems.add(t.line, 'the transaction has no TRNAMT (amount)');
      return;
    }
    if (!date) {
      amountOf(b, amountText, t.lines.get('TRNAMT') ?? t.line, 'TRNAMT');
      return;
    }
    const currencyOfRow = f.get('CURRENCY.CURSYM')?.toUpperCase();
    // A statement without CURDEF takes the currency its transactions state (CURRENCY/CURSYM).
    if (currencyOfRow && !b.statement.currency && !b.currencyFromRows) {
      const exponent = exponentOfCode(currencyOfRow);
      if (exponent === null) {
        problems.add(
          t.lines.get('CURRENCY.CURSYM') ?? t.line,
          `CURSYM "${currencyOfRow}" is not an ISO 4217 currency code`,
        );
        return;
      }
      b.statement.currency = currencyOfRow;
      b.exponent = exponent;
      b.currencyFromRows = true;
    }
    const statementCurrency = b.statement.currency ?? fallbackCurrency;
    if (currencyOfRow && statementCurrency && currencyOfRow !== statementCurrency) {
      problems.add(
        t.line,
        `the transaction's amount is in ${currencyOfRow} (CURRENCY) but the statement is in ${statementCurrency}`,
      );
      return;
    }
    const amount = amountOf(b, amountText, t.lines.get('TRNAMT') ?? t.line, 'TRNAMT');
    if (amount === null) return;
    if (amount === 0) {
      b.zeroLines.push(t.line);
      return;
    }
    const name = f.get('NAME') ?? f.get('PAYEE.NAME') ?? '';
    const memo = f.get('MEMO') ?? '';
    const description = (
      name && memo && memo !== name
        ? `${name} - ${memo}`
        : name || memo || f.get('TRNTYPE') || 'Bank transaction'
    ).slice(0, 500);
    b.statement.rows.push({
      line: t.line,
      date,
      amount,
      description,
      payee: name ? name.slice(0, 200) : null,
      externalId: f.get('FITID')?.slice(0, 200) || null,
    });
  };

  const finishStatement = (b: Building) => {
    if (b.zeroLines.length > 0) {
      b.statement.notices!.push(
        `${b.zeroLines.length} transaction${b.zeroLines.length === 1 ? '' : 's'} of amount 0 moved no money and ${b.zeroLines.length === 1 ? 'is' : 'are'} not imported (line${b.zeroLines.length === 1 ? '' : 's'} ${b.zeroLines.slice(0, 10).join(', ')}${b.zeroLines.length > 10 ? ', …' : ''})`,
      );
    }
    statements.push(b.statement);
  };

  for (const tag of tags) {
    const at = line(tag.offset);
    const value = decodeEntities(tag.raw, (ref) =>
      problems.add(at, `the character reference ${ref} names no Unicode character`),
    );
    const { name, closing } = tag;
    if (name === 'OFX' && closing) sawOfxEnd = true;
    if (name === 'INVSTMTRS' && !closing) investmentLines.push(at);
    if (name === 'STATUS') {
      if (!closing) status = { line: at, fields: new Map() };
      else if (status) {
        if ((status.fields.get('SEVERITY') ?? '').toUpperCase() === 'ERROR') {
          statusErrors.push({
            line: status.line,
            text: `${status.fields.get('CODE') ?? ''} ${status.fields.get('MESSAGE') ?? ''}`.trim(),
          });
        }
        status = null;
      }
      continue;
    }
    if (status && !closing) {
      status.fields.set(name, value);
      continue;
    }
    if (name === 'STMTRS' || name === 'CCSTMTRS') {
      if (!closing) {
        if (building) problems.add(at, `<${name}> starts inside another statement that was never closed`);
        building = {
          statement: {
            format: 'ofx',
            currency: null,
            accountNumber: null,
            closingBalance: null,
            openingBalance: null,
            rows: [],
            line: at,
            kind: name === 'CCSTMTRS' ? 'credit card' : 'bank account',
            periodStart: null,
            periodEnd: null,
            notices: [],
          },
          exponent: fallbackExponent,
          zeroLines: [],
        };
      } else if (building) {
        // SGML exports sometimes leave out </STMTTRN>; a transaction cannot nest, so its end is clear.
        if (tx) finishTransaction(building, tx);
        tx = null;
        finishStatement(building);
        building = null;
      }
      continue;
    }
    const b = building as Building | null;
    if (!b) continue;
    if (name === 'STMTTRN') {
      if (!closing) {
        if (tx) finishTransaction(b, tx);
        tx = { line: at, fields: new Map(), lines: new Map() };
      } else {
        if (!tx) problems.add(at, '</STMTTRN> without a matching <STMTTRN>');
        else finishTransaction(b, tx);
        tx = null;
      }
      sub = null;
      continue;
    }
    if (tx) {
      if (TRANSACTION_AGGREGATES.has(name)) {
        sub = closing ? null : name;
        continue;
      }
      if (name === 'BANKTRANLIST' && closing) {
        finishTransaction(b, tx);
        tx = null;
        inTranList = false;
        continue;
      }
      if (!closing && value !== '') {
        tx.fields.set(sub ? `${sub}.${name}` : name, value);
        tx.lines.set(sub ? `${sub}.${name}` : name, at);
      }
      continue;
    }
    if (name === 'BANKTRANLIST') {
      inTranList = !closing;
      continue;
    }
    if (name === 'BANKACCTFROM' || name === 'CCACCTFROM') {
      inAccountFrom = !closing;
      continue;
    }
    if (name === 'LEDGERBAL') {
      if (!closing) ledger = { line: at, fields: new Map() };
      else if (ledger) {
        const amountText = ledger.fields.get('BALAMT') ?? '';
        const asOf = ledger.fields.get('DTASOF') ?? '';
        const date = parseOfxDate(asOf) ?? b.statement.periodEnd ?? null;
        if (amountText === '') {
          b.statement.notices!.push(`the ledger balance (LEDGERBAL, line ${ledger.line}) states no amount`);
        } else {
          const amount = amountOf(b, amountText, ledger.line, 'BALAMT');
          if (amount !== null) {
            if (date) b.statement.closingBalance = { date, amount };
            else problems.add(ledger.line, `DTASOF "${asOf}" of the ledger balance is not a date (YYYYMMDD)`);
          }
        }
        ledger = null;
      }
      continue;
    }
    if (closing || value === '') continue;
    if (ledger) ledger.fields.set(name, value);
    else if (name === 'CURDEF') {
      const code = value.toUpperCase();
      const exponent = exponentOfCode(code);
      if (exponent === null) problems.add(at, `CURDEF "${value}" is not an ISO 4217 currency code`);
      else {
        b.statement.currency = code;
        b.exponent = exponent;
      }
    } else if (name === 'ACCTID' && inAccountFrom) b.statement.accountNumber = value.slice(0, 100);
    else if (name === 'ACCTTYPE' && inAccountFrom && b.statement.kind === 'bank account')
      b.statement.kind = `bank account (${value.toLowerCase()})`;
    else if (inTranList && name === 'DTSTART') b.statement.periodStart = parseOfxDate(value);
    else if (inTranList && name === 'DTEND') b.statement.periodEnd = parseOfxDate(value);
  }
  if (tx)
    problems.add((tx as { line: number }).line, 'this <STMTTRN> is never closed (the file looks cut off)');
  else if (building)
    problems.add(
      (building as Building).statement.line ?? 1,
      'this statement is never closed (the file looks cut off)',
    );
  if (!sawOfxEnd && problems.errors.length === 0) {
    problems.add(lineStarts.length, 'the file ends before </OFX> (it looks cut off)');
  }
  problems.throwIfAny();
  if (statements.length === 0) {
    if (investmentLines.length > 0) {
      throw new StatementParseError([
        {
          line: investmentLines[0]!,
          reason:
            'this is an investment statement (INVSTMTRS: holdings and trades); only bank and credit-card statements can be imported',
        },
      ]);
    }
    if (statusErrors.length > 0) {
      throw new StatementParseError(
        statusErrors.map((e) => ({
          line: e.line,
          reason: `the bank's server answered with an error (${e.text || 'no message'}) and sent no statement`,
        })),
      );
    }
    // Say what the file is instead: a sign-on answer only, an account list, a profile.
    const names = new Set(tags.map((t) => t.name));
    const what = names.has('ACCTINFORS')
      ? 'it is a list of accounts (ACCTINFORS) the bank offers, without transactions; download a statement of one account instead'
      : names.has('PROFRS')
        ? "it is the bank's OFX profile (PROFRS), without transactions; download a statement instead"
        : names.has('SONRS') && [...names].every((n) => OFX_SIGNON_ONLY.has(n))
          ? "it holds only the bank's answer to signing on (SONRS), without a statement; download the statement again"
          : null;
    throw new StatementParseError([
      {
        line: line(start),
        reason: `the file holds no bank or credit-card statement (STMTRS or CCSTMTRS)${what ? `: ${what}` : ''}`,
      },
    ]);
  }
  for (const e of statusErrors) {
    fileNotices.push(
      `line ${e.line}: the bank answered one request with an error (${e.text || 'no message'}); it sent no statement for it`,
    );
  }
  if (investmentLines.length > 0) {
    fileNotices.push(`line ${investmentLines[0]}: the investment statement (INVSTMTRS) is not imported`);
  }
  for (const s of statements) s.notices = [...(s.notices ?? []), ...fileNotices];
  return { format: 'ofx', statements };
};

export type { ParsedStatementRow };
