import {
  type ParsedStatement,
  type ParsedStatementRow,
  collectErrors,
  StatementParseError,
} from './types.ts';
import { messageOf, parseBankAmount } from './values.ts';

// OFX and QFX statements, both the SGML dialect of OFX 1.x (leaf tags never closed) and the
// XML of OFX 2.x. Only what a statement needs is read: the transactions (STMTTRN), the
// currency, the account id and the ledger balance.

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
const decode = (s: string) =>
  s.replace(/&(#\d+|#x[0-9a-f]+|\w+);/gi, (all, name: string) => {
    if (name[0] === '#') {
      const code =
        name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isFinite(code) ? String.fromCodePoint(code) : all;
    }
    return ENTITIES[name.toLowerCase()] ?? all;
  });

type Tag = { name: string; closing: boolean; text: string; offset: number };

/** Every tag in order with the text that follows it up to the next tag. */
const tokenize = (body: string, baseOffset: number): Tag[] => {
  const tags: Tag[] = [];
  const re = /<(\/?)([A-Za-z0-9_.]+)[^>]*>([^<]*)/g;
  for (let m = re.exec(body); m; m = re.exec(body)) {
    tags.push({
      name: m[2]!.toUpperCase(),
      closing: m[1] === '/',
      text: decode(m[3]!.trim()),
      offset: baseOffset + m.index,
    });
  }
  return tags;
};

const lineAt = (lineStarts: number[], offset: number) => {
  let lo = 0;
  let hi = lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (lineStarts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
};

export const lineStartsOf = (text: string) => {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
};

/** OFX dates are YYYYMMDD[HHMMSS[.XXX]][[+-h:TZ]]; the bank's calendar date is the first eight digits. */
export const parseOfxDate = (value: string): string | null => {
  const m = /^(\d{4})(\d{2})(\d{2})/.exec(value.trim());
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1 || d > new Date(Date.UTC(y, mo, 0)).getUTCDate()) return null;
  return `${m[1]}-${m[2]}-${m[3]}`;
};

const ofxAmount = (text: string, exponent: number) =>
  parseBankAmount(text, exponent, text.includes(',') && !text.includes('.') ? ',' : '.');

export const looksLikeOfx = (text: string) => /OFXHEADER|<OFX[\s>]/i.test(text.slice(0, 4096));

export const parseOfxStatement = (text: string, exponent: number): ParsedStatement => {
  const start = text.search(/<OFX>/i);
  if (start === -1) {
    throw new StatementParseError([
      { line: 1, reason: 'this is not an OFX/QFX file: it has no <OFX> element' },
    ]);
  }
  const lineStarts = lineStartsOf(text);
  const tags = tokenize(text.slice(start), start);
  const problems = collectErrors();
  const rows: ParsedStatementRow[] = [];
  let currency: string | null = null;
  let accountNumber: string | null = null;
  let closingBalance: ParsedStatement['closingBalance'] = null;
  let current: { line: number; fields: Map<string, string> } | null = null;
  let inPayee = false;
  let inLedgerBalance: Map<string, string> | null = null;
  let sawTransactionList = false;
  let sawOfxEnd = false;

  const finish = (tx: NonNullable<typeof current>) => {
    const f = tx.fields;
    const date = parseOfxDate(f.get('DTPOSTED') ?? '');
    if (!date) {
      problems.add(tx.line, `DTPOSTED "${f.get('DTPOSTED') ?? ''}" is not an OFX date (YYYYMMDD)`);
      return;
    }
    const amountText = f.get('TRNAMT');
    if (!amountText) {
      problems.add(tx.line, 'the transaction has no TRNAMT');
      return;
    }
    let amount: number;
    try {
      amount = ofxAmount(amountText, exponent);
    } catch (error) {
      problems.add(tx.line, `TRNAMT: ${messageOf(error)}`);
      return;
    }
    if (amount === 0) return; // banks list zero-amount notices; they move no money
    const name = f.get('NAME') ?? f.get('PAYEE.NAME') ?? '';
    const memo = f.get('MEMO') ?? '';
    const description = (
      name && memo && memo !== name
        ? `${name} - ${memo}`
        : name || memo || f.get('TRNTYPE') || 'Bank transaction'
    ).slice(0, 500);
    rows.push({
      line: tx.line,
      date,
      amount,
      description,
      payee: (name || null)?.slice(0, 200) ?? null,
      externalId: f.get('FITID')?.slice(0, 200) || null,
    });
  };

  for (const tag of tags) {
    if (tag.name === 'OFX' && tag.closing) sawOfxEnd = true;
    if (tag.name === 'BANKTRANLIST' && !tag.closing) sawTransactionList = true;
    if (tag.name === 'STMTTRN') {
      if (!tag.closing) {
        if (current) {
          problems.add(current.line, 'this <STMTTRN> is not closed before the next one starts');
        }
        current = { line: lineAt(lineStarts, tag.offset), fields: new Map() };
      } else {
        if (!current) {
          problems.add(lineAt(lineStarts, tag.offset), '</STMTTRN> without a matching <STMTTRN>');
        } else {
          finish(current);
        }
        current = null;
      }
      continue;
    }
    if (tag.name === 'BANKTRANLIST' && tag.closing && current) {
      problems.add(current.line, 'this <STMTTRN> is not closed before </BANKTRANLIST>');
      current = null;
    }
    if (tag.name === 'PAYEE') inPayee = !tag.closing;
    if (tag.name === 'LEDGERBAL') {
      if (!tag.closing) inLedgerBalance = new Map();
      else if (inLedgerBalance) {
        const date = parseOfxDate(inLedgerBalance.get('DTASOF') ?? '');
        const amountText = inLedgerBalance.get('BALAMT');
        if (date && amountText) {
          try {
            closingBalance = { date, amount: ofxAmount(amountText, exponent) };
          } catch (error) {
            problems.add(lineAt(lineStarts, tag.offset), `BALAMT: ${messageOf(error)}`);
          }
        }
        inLedgerBalance = null;
      }
      continue;
    }
    if (tag.closing || tag.text === '') continue;
    if (current) current.fields.set(inPayee && tag.name === 'NAME' ? 'PAYEE.NAME' : tag.name, tag.text);
    else if (inLedgerBalance) inLedgerBalance.set(tag.name, tag.text);
    else if (tag.name === 'CURDEF' && !currency) currency = tag.text.toUpperCase();
    else if (tag.name === 'ACCTID' && !accountNumber) accountNumber = tag.text;
  }
  if (current) problems.add(current.line, 'this <STMTTRN> is never closed (the file looks cut off)');
  if (!sawTransactionList)
    problems.add(lineAt(lineStarts, start), 'the file has no <BANKTRANLIST> of transactions');
  if (!sawOfxEnd && problems.errors.length === 0) {
    problems.add(lineStarts.length, 'the file ends before </OFX> (it looks cut off)');
  }
  problems.throwIfAny();
  return { format: 'ofx', currency, accountNumber, closingBalance, rows };
};
