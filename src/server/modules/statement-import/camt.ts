import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { exponentOfCode, parseExactDecimal } from './decimal.ts';
import { lineAt, lineStartsOf } from './ofx.ts';
import {
  type ParsedStatement,
  type ParsedStatementFile,
  type ParsedStatementRow,
  StatementParseError,
  collectErrors,
} from './types.ts';
import { messageOf } from './values.ts';

// ISO 20022 bank-to-customer cash management messages, recognised by their content:
// camt.053 statements (BkToCstmrStmt/Stmt), camt.052 account reports (BkToCstmrAcctRpt/Rpt)
// and camt.054 debit/credit notifications (BkToCstmrDbtCdtNtfctn/Ntfctn), versions .001.02
// to .001.13 alike. Each Stmt/Rpt/Ntfctn is one statement. An entry's direction is its
// CdtDbtInd alone: a reversal (RvslInd) is booked by the bank in the direction it states.
// Only booked entries (Sts BOOK) move money; pending and information-only ones are listed
// as a notice, never imported.

type Node = Record<string, unknown>;

const ARRAYS = new Set(['Stmt', 'Rpt', 'Ntfctn', 'Ntry', 'Bal', 'TxDtls', 'NtryDtls', 'Ustrd', 'Strd']);

const META = XMLParser.getMetaDataSymbol() as unknown as symbol;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: true,
  captureMetaData: true,
  isArray: (name) => ARRAYS.has(name),
});

const MESSAGES = [
  { root: 'BkToCstmrStmt', item: 'Stmt', kind: 'camt.053 statement' },
  { root: 'BkToCstmrAcctRpt', item: 'Rpt', kind: 'camt.052 account report' },
  { root: 'BkToCstmrDbtCdtNtfctn', item: 'Ntfctn', kind: 'camt.054 notification' },
] as const;

const get = (node: unknown, ...path: string[]): unknown => {
  let cur = node;
  for (const key of path) {
    if (Array.isArray(cur)) cur = cur[0];
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Node)[key];
  }
  return Array.isArray(cur) ? cur[0] : cur;
};

const list = (node: unknown, key: string): Node[] => {
  const value = node && typeof node === 'object' ? (node as Node)[key] : undefined;
  if (value === undefined || value === null) return [];
  return (Array.isArray(value) ? value : [value]) as Node[];
};

const text = (value: unknown): string => {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number') return String(value);
  if (typeof value === 'object' && '#text' in (value as Node)) return String((value as Node)['#text']).trim();
  return '';
};

/** A date of a Dt/DtTm choice (the calendar date the bank wrote; a time zone does not move it). */
const isoDateOf = (node: unknown): string | null => {
  const value = text(node) || text(get(node, 'Dt')) || text(get(node, 'DtTm'));
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1 || d > new Date(Date.UTC(y, mo, 0)).getUTCDate()) return null;
  return `${m[1]}-${m[2]}-${m[3]}`;
};

/** Party name across versions: Nm (up to .07) or Pty/Nm (.08 and later). */
const nameOf = (party: unknown) => text(get(party, 'Nm')) || text(get(party, 'Pty', 'Nm'));

const accountOf = (acct: unknown) =>
  text(get(acct, 'Id', 'IBAN')) ||
  text(get(acct, 'Id', 'Othr', 'Id')) ||
  text(get(acct, 'Id', 'PrxyId', 'Id'));

export const looksLikeCamt = (content: string) =>
  /<(?:[A-Za-z0-9_]+:)?(?:BkToCstmrStmt|BkToCstmrAcctRpt|BkToCstmrDbtCdtNtfctn)[\s>]|urn:iso:std:iso:20022:tech:xsd:camt\.05[234]\./.test(
    content.slice(0, 16384),
  );
/** @deprecated the name of the CAMT.053-only days; kept for callers that still use it. */
export const looksLikeCamt053 = looksLikeCamt;

/** Character references to no character (&#x110000;, &#0;) are refused with their line. */
export const badCharacterReferences = (content: string, lineStarts: number[]) => {
  const found: { line: number; reason: string }[] = [];
  const re = /&#(x[0-9a-fA-F]+|[0-9]+);/g;
  for (let m = re.exec(content); m && found.length < 10; m = re.exec(content)) {
    const ref = m[1]!;
    const code = ref[0] === 'x' ? Number.parseInt(ref.slice(1), 16) : Number(ref);
    if (!Number.isSafeInteger(code) || code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
      found.push({
        line: lineAt(lineStarts, m.index),
        reason: `the character reference ${m[0]} names no Unicode character`,
      });
    }
  }
  return found;
};

/**
 * Words banks write where a reference is required but they have none (SWIFT's NONREF, SEPA's
 * NOTPROVIDED). Taken for a bank id they would make every such entry a duplicate of the first
 * one ever imported, so they are no reference at all.
 */
const NO_REFERENCE = new Set(['NONREF', 'NOTPROVIDED', 'NOTAVAILABLE', 'NONE', 'N/A', 'NA', '-']);
const realReference = (node: unknown) => {
  const value = text(node);
  return NO_REFERENCE.has(value.toUpperCase()) ? '' : value;
};

const startOf = (node: unknown): number | undefined =>
  node && typeof node === 'object'
    ? (node as Record<symbol, { startIndex?: number } | undefined>)[META]?.startIndex
    : undefined;

/**
 * Where each XML document of the file starts. Banks' "merged" downloads (and OCA's
 * test-camt053-merged) put several complete messages one after the other, each with its own
 * <?xml …?>: every one is read, its statements in file order. A document is split off only
 * right after a closing </Document>, so anything else after the root stays a malformed file.
 */
const documentStarts = (content: string): number[] => {
  const starts = [0];
  const end = /<\/(?:[A-Za-z0-9_]+:)?Document\s*>/g;
  for (let m = end.exec(content); m; m = end.exec(content)) {
    const after = m.index + m[0].length;
    const next = /^\s*(?=<\?xml[\s?]|<(?:[A-Za-z0-9_]+:)?Document[\s>])/.exec(
      content.slice(after, after + 4096),
    );
    if (next && after + next[0].length < content.length) starts.push(after + next[0].length);
  }
  return starts;
};

export const parseCamtFile = (
  content: string,
  fallbackExponent: number,
  fallbackCurrency: string | null = null,
): ParsedStatementFile => {
  const lineStarts = lineStartsOf(content);
  // Bank statements never declare entities; a DTD that does could expand without bound.
  const entityDeclaration = /<!ENTITY/i.exec(content);
  if (entityDeclaration) {
    throw new StatementParseError([
      {
        line: lineAt(lineStarts, entityDeclaration.index),
        reason: 'the file declares XML entities (<!ENTITY>), which bank statements never do',
      },
    ]);
  }
  const starts = documentStarts(content);
  const documents = starts.map((start, i) => ({
    start,
    text: content.slice(start, starts[i + 1] ?? content.length),
  }));
  for (const { start, text: piece } of documents) {
    const firstLine = lineAt(lineStarts, start);
    const valid = XMLValidator.validate(piece);
    if (valid === true) continue;
    // Elements still open at the end: the validator names them all, on line 1.
    const open = /^Invalid '\[(.*)\]' found/s.exec(valid.err.msg);
    if (open) {
      const names = [...open[1]!.matchAll(/"([^"]+)"/g)].map((m) => `<${m[1]}>`);
      const lastLine = firstLine - 1 + piece.replace(/\s+$/, '').split('\n').length;
      throw new StatementParseError([
        {
          line: lastLine,
          reason: `the XML is malformed: the file ends before ${names.join(', ')} ${names.length === 1 ? 'is' : 'are'} closed (it looks cut off)`,
        },
      ]);
    }
    throw new StatementParseError([
      { line: firstLine - 1 + valid.err.line, reason: `the XML is malformed: ${valid.err.msg}` },
    ]);
  }
  const badRefs = badCharacterReferences(content, lineStarts);
  if (badRefs.length > 0) throw new StatementParseError(badRefs);
  const problems = collectErrors();
  const statements: ParsedStatement[] = [];
  /** Reads one XML document's statements (base: where it starts in the file). */
  const readDocument = (piece: string, base: number) => {
    const lineOf = (node: unknown, fallback: number) => {
      const at = startOf(node);
      return at === undefined ? fallback : lineAt(lineStarts, base + at);
    };
    let doc: Node;
    try {
      doc = parser.parse(piece) as Node;
    } catch (error) {
      throw new StatementParseError([
        { line: lineAt(lineStarts, base), reason: `the XML cannot be read: ${messageOf(error)}` },
      ]);
    }
    const document = get(doc, 'Document') as Node | undefined;
    const message = MESSAGES.find((m) => document && typeof document === 'object' && m.root in document);
    if (!document || !message) {
      throw new StatementParseError([
        {
          line: lineOf(document, lineAt(lineStarts, base)),
          reason:
            'this is not an ISO 20022 bank statement: expected Document with BkToCstmrStmt (camt.053), BkToCstmrAcctRpt (camt.052) or BkToCstmrDbtCdtNtfctn (camt.054)',
        },
      ]);
    }
    const root = get(document, message.root) as Node;
    const items = list(root, message.item);
    if (items.length === 0) {
      throw new StatementParseError([
        {
          line: lineOf(root, lineAt(lineStarts, base)),
          reason: `the ${message.root} message holds no ${message.item} (${message.kind})`,
        },
      ]);
    }
    for (const item of items) {
      const itemLine = lineOf(item, 1);
      const balances = list(item, 'Bal');
      const entries = list(item, 'Ntry');
      const stated =
        text(get(item, 'Acct', 'Ccy')) ||
        text(get(balances[0], 'Amt', '@_Ccy')) ||
        text(get(entries[0], 'Amt', '@_Ccy')) ||
        '';
      let currency: string | null = null;
      let exponent = fallbackExponent;
      if (stated) {
        const e = exponentOfCode(stated.toUpperCase());
        if (e === null) {
          problems.add(
            itemLine,
            stated.toUpperCase() === 'XXX'
              ? 'the statement\'s currency is "XXX", ISO 4217\'s code for "no currency": it does not say which currency its amounts are in'
              : `the currency "${stated}" is not an ISO 4217 code`,
          );
          continue;
        }
        currency = stated.toUpperCase();
        exponent = e;
      }
      const amountOf = (amt: unknown, at: number, what: string): number | null => {
        const ccy = text(get(amt, '@_Ccy')).toUpperCase();
        const expected = currency ?? fallbackCurrency;
        if (ccy && expected && ccy !== expected) {
          problems.add(at, `${what} is in ${ccy} but the account is kept in ${expected}`);
          return null;
        }
        const value = text(amt);
        if (value === '') {
          problems.add(at, `${what} is missing or empty: the file does not say how much moved`);
          return null;
        }
        if (value.startsWith('-')) {
          problems.add(
            at,
            `${what} "${value}" is negative; ISO 20022 amounts are positive and CdtDbtInd gives the direction`,
          );
          return null;
        }
        try {
          return parseExactDecimal(value, exponent, currency ?? fallbackCurrency);
        } catch (error) {
          problems.add(at, `${what}: ${messageOf(error)}`);
          return null;
        }
      };
      const directionOf = (node: unknown, at: number, what: string): 1 | -1 | null => {
        const indicator = text(get(node, 'CdtDbtInd'));
        if (indicator === 'CRDT') return 1;
        if (indicator === 'DBIT') return -1;
        problems.add(at, `${what}: CdtDbtInd "${indicator}" must be CRDT or DBIT`);
        return null;
      };

      let openingBalance: ParsedStatement['openingBalance'] = null;
      let closingBalance: ParsedStatement['closingBalance'] = null;
      let interim: ParsedStatement['closingBalance'] = null;
      const balanceNotices: string[] = [];
      for (const bal of balances) {
        const at = lineOf(bal, itemLine);
        const code = text(get(bal, 'Tp', 'CdOrPrtry', 'Cd')) || text(get(bal, 'Tp', 'CdOrPrtry', 'Prtry'));
        // Booked balances: opening (OPBD) or the previous statement's closing (PRCD), closing
        // (CLBD), interim booked (ITBD, the running balance of an intraday report).
        if (!['OPBD', 'PRCD', 'CLBD', 'ITBD'].includes(code)) continue;
        const balanceCcy = text(get(bal, 'Amt', '@_Ccy')).toUpperCase();
        if (balanceCcy && currency && balanceCcy !== currency) {
          // A balance is for reconciliation only; one in another currency is shown as left out.
          balanceNotices.push(
            `the ${code} balance on line ${at} is in ${balanceCcy}, not ${currency}; it is not used`,
          );
          continue;
        }
        const amount = amountOf(get(bal, 'Amt'), at, `balance ${code}`);
        const sign = directionOf(bal, at, `balance ${code}`);
        const date = isoDateOf(get(bal, 'Dt'));
        if (amount === null || sign === null) continue;
        if (!date) {
          problems.add(at, `balance ${code} has no valid date (Dt or DtTm)`);
          continue;
        }
        const value = { date, amount: sign * amount || 0 };
        if (code === 'OPBD' || (code === 'PRCD' && !openingBalance)) openingBalance = value;
        else if (code === 'CLBD') closingBalance = value;
        else if (code === 'ITBD' && (!interim || date >= interim.date)) interim = value;
      }
      const rows: ParsedStatementRow[] = [];
      const notBooked: { line: number; status: string }[] = [];
      for (const entry of entries) {
        const at = lineOf(entry, itemLine);
        const status = (
          text(get(entry, 'Sts', 'Cd')) ||
          text(get(entry, 'Sts', 'Prtry')) ||
          text(get(entry, 'Sts'))
        ).toUpperCase();
        if (status && status !== 'BOOK') {
          notBooked.push({ line: at, status });
          continue;
        }
        const amount = amountOf(get(entry, 'Amt'), at, 'the entry amount (Amt)');
        const sign = directionOf(entry, at, 'the entry');
        if (amount === null || sign === null) continue;
        const date = isoDateOf(get(entry, 'BookgDt')) ?? isoDateOf(get(entry, 'ValDt'));
        if (!date) {
          problems.add(at, 'the entry has no valid booking date (BookgDt) or value date (ValDt)');
          continue;
        }
        const reversal = text(get(entry, 'RvslInd')) === 'true';
        const details = list(entry, 'NtryDtls').flatMap((d) => list(d, 'TxDtls'));
        const tx = details[0];
        // The other party: whom we paid on a debit, who paid us on a credit; a reversal returns
        // money to (or from) the party of the original transaction.
        const paidOut = (sign === -1) !== reversal;
        const parties = get(tx, 'RltdPties');
        const payee = paidOut
          ? nameOf(get(parties, 'Cdtr')) || nameOf(get(parties, 'UltmtCdtr'))
          : nameOf(get(parties, 'Dbtr')) || nameOf(get(parties, 'UltmtDbtr'));
        const remittance = details
          .flatMap((d) => list(get(d, 'RmtInf'), 'Ustrd'))
          .map(text)
          .filter(Boolean)
          .join(' ');
        const structured = details
          .flatMap((d) => list(get(d, 'RmtInf'), 'Strd'))
          .map((s) => text(get(s, 'CdtrRefInf', 'Ref')))
          .filter(Boolean)
          .join(' ');
        const description =
          remittance ||
          text(get(tx, 'AddtlTxInf')) ||
          text(get(entry, 'AddtlNtryInf')) ||
          structured ||
          payee ||
          'Bank transaction';
        const one = details.length === 1;
        const reference =
          realReference(get(entry, 'AcctSvcrRef')) ||
          (one ? realReference(get(tx, 'Refs', 'AcctSvcrRef')) : '') ||
          realReference(get(entry, 'NtryRef')) ||
          (one ? realReference(get(tx, 'Refs', 'Prtry', 'Ref')) : '') ||
          (one ? realReference(get(tx, 'Refs', 'EndToEndId')) : '');
        rows.push({
          line: at,
          date,
          amount: sign * amount,
          description: description.replace(/\s+/g, ' ').slice(0, 500),
          payee: payee ? payee.slice(0, 200) : null,
          externalId: reference ? reference.slice(0, 200) : null,
        });
      }
      const notices: string[] = [...balanceNotices];
      if (notBooked.length > 0) {
        notices.push(
          `${notBooked.length} entr${notBooked.length === 1 ? 'y is' : 'ies are'} not booked yet (${[...new Set(notBooked.map((n) => n.status))].join(', ')}) and ${notBooked.length === 1 ? 'is' : 'are'} not imported (line${notBooked.length === 1 ? '' : 's'} ${notBooked
            .slice(0, 10)
            .map((n) => n.line)
            .join(', ')}${notBooked.length > 10 ? ', …' : ''})`,
        );
      }
      const zero = rows.filter((r) => r.amount === 0);
      if (zero.length > 0) {
        notices.push(
          `${zero.length} entr${zero.length === 1 ? 'y' : 'ies'} of amount 0 moved no money and ${zero.length === 1 ? 'is' : 'are'} not imported (line${zero.length === 1 ? '' : 's'} ${zero
            .slice(0, 10)
            .map((r) => r.line)
            .join(', ')})`,
        );
      }
      if (!closingBalance && interim) {
        closingBalance = interim;
        notices.push(
          `the closing balance shown is the latest interim booked balance (ITBD) of ${interim.date}`,
        );
      }
      statements.push({
        format: 'camt053',
        currency,
        accountNumber: accountOf(get(item, 'Acct')) || null,
        openingBalance,
        closingBalance,
        rows: rows.filter((r) => r.amount !== 0),
        line: itemLine,
        kind: message.kind,
        periodStart: isoDateOf(get(item, 'FrToDt', 'FrDtTm')),
        periodEnd: isoDateOf(get(item, 'FrToDt', 'ToDtTm')),
        notices,
      });
    }
  };
  for (const { start, text: piece } of documents) {
    readDocument(piece, start);
  }
  problems.throwIfAny();
  return { format: 'camt053', statements };
};
