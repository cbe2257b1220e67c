import { XMLParser, XMLValidator } from 'fast-xml-parser';
import {
  type ParsedStatement,
  type ParsedStatementRow,
  collectErrors,
  StatementParseError,
} from './types.ts';
import { lineStartsOf } from './ofx.ts';
import { messageOf, parseBankAmount } from './values.ts';

// ISO 20022 CAMT.053 bank-to-customer statements (versions 001.02 to 001.08 read alike):
// one Stmt with its balances and booked entries (Ntry).

type Node = Record<string, unknown>;

const ARRAYS = new Set(['Stmt', 'Ntry', 'Bal', 'TxDtls', 'NtryDtls', 'Ustrd']);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  isArray: (name) => ARRAYS.has(name),
});

const get = (node: unknown, ...path: string[]): unknown => {
  let cur = node;
  for (const key of path) {
    if (Array.isArray(cur)) cur = cur[0];
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Node)[key];
  }
  return Array.isArray(cur) ? cur[0] : cur;
};

const text = (value: unknown): string => {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number') return String(value);
  if (typeof value === 'object' && '#text' in (value as Node)) return String((value as Node)['#text']).trim();
  return '';
};

const isoDateOf = (node: unknown): string | null => {
  const value = text(get(node, 'Dt')) || text(get(node, 'DtTm'));
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1 || d > new Date(Date.UTC(y, mo, 0)).getUTCDate()) return null;
  return `${m[1]}-${m[2]}-${m[3]}`;
};

const nameOf = (party: unknown) => text(get(party, 'Nm')) || text(get(party, 'Pty', 'Nm'));

export const looksLikeCamt053 = (content: string) => /BkToCstmrStmt/.test(content.slice(0, 8192));

export const parseCamt053Statement = (content: string, exponent: number): ParsedStatement => {
  const valid = XMLValidator.validate(content);
  if (valid !== true) {
    throw new StatementParseError([
      { line: valid.err.line, reason: `the XML is malformed: ${valid.err.msg}` },
    ]);
  }
  let doc: Node;
  try {
    doc = parser.parse(content) as Node;
  } catch (error) {
    throw new StatementParseError([{ line: 1, reason: `the XML cannot be read: ${messageOf(error)}` }]);
  }
  const statements = (get(doc, 'Document', 'BkToCstmrStmt') as Node | undefined)?.Stmt as Node[] | undefined;
  if (!statements || statements.length === 0) {
    throw new StatementParseError([
      { line: 1, reason: 'this is not a CAMT.053 statement: no Document/BkToCstmrStmt/Stmt' },
    ]);
  }
  const accounts = new Set(
    statements.map((s) => text(get(s, 'Acct', 'Id', 'IBAN')) || text(get(s, 'Acct', 'Id', 'Othr', 'Id'))),
  );
  if (accounts.size > 1) {
    throw new StatementParseError([
      {
        line: 1,
        reason: `the file holds statements of ${accounts.size} different accounts; export one account per file`,
      },
    ]);
  }
  const lineStarts = lineStartsOf(content);
  const entryLines: number[] = [];
  const entryTag = /<(?:[A-Za-z0-9_]+:)?Ntry[\s>]/g;
  for (let m = entryTag.exec(content); m; m = entryTag.exec(content)) {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= m.index) lo = mid;
      else hi = mid - 1;
    }
    entryLines.push(lo + 1);
  }
  const problems = collectErrors();
  const rows: ParsedStatementRow[] = [];
  let currency: string | null = text(get(statements[0], 'Acct', 'Ccy')) || null;
  let closingBalance: ParsedStatement['closingBalance'] = null;
  let entryIndex = 0;
  for (const stmt of statements) {
    for (const bal of (stmt.Bal as Node[] | undefined) ?? []) {
      const code = text(get(bal, 'Tp', 'CdOrPrtry', 'Cd'));
      if (code !== 'CLBD') continue;
      const date = isoDateOf(get(bal, 'Dt'));
      try {
        const amount = parseBankAmount(text(get(bal, 'Amt')), exponent, '.');
        const sign = text(get(bal, 'CdtDbtInd')) === 'DBIT' ? -1 : 1;
        if (date) closingBalance = { date, amount: sign * amount || 0 };
      } catch {
        // A closing balance is a convenience for reconciliation; the entries are what count.
      }
    }
    for (const entry of (stmt.Ntry as Node[] | undefined) ?? []) {
      const line = entryLines[entryIndex] ?? 1;
      entryIndex += 1;
      const status = text(get(entry, 'Sts')) || text(get(entry, 'Sts', 'Cd'));
      if (status && status !== 'BOOK') continue; // pending and information-only entries move no money yet
      const amountNode = get(entry, 'Amt');
      const amountText = text(amountNode);
      const entryCurrency =
        typeof amountNode === 'object' && amountNode ? text((amountNode as Node)['@_Ccy']) : '';
      if (entryCurrency) currency ??= entryCurrency;
      if (entryCurrency && currency && entryCurrency !== currency) {
        problems.add(line, `the entry is in ${entryCurrency} but the statement is in ${currency}`);
        continue;
      }
      let amount: number;
      try {
        amount = parseBankAmount(amountText, exponent, '.');
      } catch (error) {
        problems.add(line, `Amt: ${messageOf(error)}`);
        continue;
      }
      const indicator = text(get(entry, 'CdtDbtInd'));
      if (indicator !== 'CRDT' && indicator !== 'DBIT') {
        problems.add(line, `CdtDbtInd "${indicator}" must be CRDT or DBIT`);
        continue;
      }
      let sign = indicator === 'DBIT' ? -1 : 1;
      if (text(get(entry, 'RvslInd')) === 'true') sign = -sign;
      const date = isoDateOf(get(entry, 'BookgDt')) ?? isoDateOf(get(entry, 'ValDt'));
      if (!date) {
        problems.add(line, 'the entry has no valid BookgDt (booking date)');
        continue;
      }
      const tx = get(entry, 'NtryDtls', 'TxDtls');
      const unstructured = ((get(tx, 'RmtInf') as Node | undefined)?.Ustrd as unknown[] | undefined) ?? [];
      const remittance = unstructured.map(text).filter(Boolean).join(' ');
      const payee =
        indicator === 'DBIT' ? nameOf(get(tx, 'RltdPties', 'Cdtr')) : nameOf(get(tx, 'RltdPties', 'Dbtr'));
      const description =
        remittance ||
        text(get(entry, 'AddtlNtryInf')) ||
        text(get(tx, 'AddtlTxInf')) ||
        payee ||
        'Bank transaction';
      const endToEnd = text(get(tx, 'Refs', 'EndToEndId'));
      rows.push({
        line,
        date,
        amount: sign * amount || 0,
        description: description.slice(0, 500),
        payee: payee ? payee.slice(0, 200) : null,
        externalId:
          (
            text(get(entry, 'AcctSvcrRef')) ||
            text(get(entry, 'NtryRef')) ||
            (endToEnd !== 'NOTPROVIDED' ? endToEnd : '')
          ).slice(0, 200) || null,
      });
    }
  }
  problems.throwIfAny();
  return {
    format: 'camt053',
    currency,
    accountNumber:
      text(get(statements[0], 'Acct', 'Id', 'IBAN')) ||
      text(get(statements[0], 'Acct', 'Id', 'Othr', 'Id')) ||
      null,
    closingBalance,
    rows: rows.filter((r) => r.amount !== 0),
  };
};
