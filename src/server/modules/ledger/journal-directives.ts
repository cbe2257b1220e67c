import { fail } from './journal-syntax.ts';

// Journal directives: automated-transaction queries and the tables of directives that are
// understood, ignored with a notice or refused (see journal-syntax.ts for the overview).

// --- Automated-transaction queries --------------------------------------------------------

const QUERY_PREFIX = /^(desc|payee|note|amt|cur|tag|date2?|status|real|depth|code|type|expr|inacct):/i;

export const compileQuery = (text: string, line: number): ((account: string) => boolean) => {
  const terms = text.trim().split(/\s+/).filter(Boolean);
  if (terms.length === 0) return fail(line, 'an automated transaction needs a query after "=".');
  const positive: RegExp[] = [];
  const negative: RegExp[] = [];
  let negateNext = false;
  for (const term of terms) {
    if (term === 'not') {
      negateNext = true;
      continue;
    }
    let t = term;
    let negate = negateNext;
    negateNext = false;
    if (t.startsWith('not:')) {
      negate = !negate;
      t = t.slice(4);
    }
    if (t.startsWith('acct:')) t = t.slice(5);
    if (QUERY_PREFIX.test(t) || /^(and|or|expr|payee)$/i.test(t) || /^[@%=()'"]/.test(t) || t === ')') {
      return fail(
        line,
        `the automated transaction query "${text.trim()}" uses "${term}"; Kontor applies only account-name queries (regular expressions, not:), so it refuses the file rather than skip the rule.`,
      );
    }
    if (t.length > 1 && t.startsWith('/') && t.endsWith('/')) t = t.slice(1, -1);
    // A quantified group holding a quantifier ("(a+)+") can take exponential time: refused.
    if (t.length > 200 || /\([^)]*[*+?}][^)]*\)\s*[*+?{]/.test(t)) {
      fail(
        line,
        `the regular expression "${t.slice(0, 60)}" is too complex for Kontor to apply safely; simplify it.`,
      );
    }
    let re: RegExp;
    try {
      re = new RegExp(t, 'i');
    } catch {
      return fail(line, `"${t}" is not a regular expression Kontor can read.`);
    }
    (negate ? negative : positive).push(re);
  }
  return (account) =>
    (positive.length === 0 || positive.some((re) => re.test(account))) &&
    !negative.some((re) => re.test(account));
};

// --- Lines ------------------------------------------------------------------------------

export const TYPE_TAGS: Record<string, 'asset' | 'liability' | 'equity' | 'income' | 'expense'> = {
  a: 'asset',
  asset: 'asset',
  assets: 'asset',
  c: 'asset',
  cash: 'asset',
  l: 'liability',
  liability: 'liability',
  liabilities: 'liability',
  e: 'equity',
  equity: 'equity',
  v: 'equity',
  conversion: 'equity',
  r: 'income',
  revenue: 'income',
  revenues: 'income',
  x: 'expense',
  expense: 'expense',
  expenses: 'expense',
};

/** Directives that change nothing Kontor imports: ignored with a notice. */
export const IGNORED: Record<string, string> = {
  account: 'account declaration ignored (accounts are created from the postings)',
  payee: 'payee declaration ignored',
  tag: 'tag declaration ignored',
  P: 'market price ignored (Kontor uses the costs written on postings, @ and @@)',
  N: 'no-market-price directive ignored',
  value: 'value directive ignored (valuation only)',
  define: 'define ignored (value expressions are not used by the import)',
};

/** Directives whose effect Kontor cannot reproduce: the file is refused naming the line. */
export const REFUSED: Record<string, string> = {
  include: 'include cannot be followed in an upload; paste the included file in its place.',
  import: 'import cannot be followed in an upload.',
  C: 'commodity conversions (C) change amounts; Kontor cannot apply them.',
  'apply bucket':
    'a default balancing account fills in amounts Kontor would have to guess; write the posting.',
  assert: 'assert directives cannot be checked by Kontor.',
  check: 'check directives cannot be checked by Kontor.',
  expr: 'value expressions cannot be evaluated by Kontor.',
  eval: 'value expressions cannot be evaluated by Kontor.',
  python: 'python blocks cannot be run by Kontor.',
  i: 'timeclock entries are not accounting transactions.',
  I: 'timeclock entries are not accounting transactions.',
  o: 'timeclock entries are not accounting transactions.',
  O: 'timeclock entries are not accounting transactions.',
  b: 'timeclock entries are not accounting transactions.',
  h: 'timeclock entries are not accounting transactions.',
  'apply parent': 'apply parent is not supported; use apply account.',
};

export const firstWords = (line: string) => {
  const words = line.trim().split(/\s+/);
  return {
    one: words[0] ?? '',
    two: `${words[0] ?? ''} ${words[1] ?? ''}`,
    three: words.slice(0, 3).join(' '),
  };
};

/** The part of a posting line before its comment, and the comment. */
export const splitComment = (text: string) => {
  let inQuote = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    if (ch === '"') inQuote = !inQuote;
    if (ch === ';' && !inQuote) return { main: text.slice(0, i), comment: text.slice(i + 1).trim() };
  }
  return { main: text, comment: null as string | null };
};

/** Parses a journal's text. Throws JournalSyntaxError naming the first line it cannot take. */
