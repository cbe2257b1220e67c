// Reads a journal file line by line into transactions (overview in journal-syntax.ts).
import {
  fail,
  type Notice,
  type Amount,
  type Assertion,
  type Posting,
  type Transaction,
  type AutoPosting,
  type AutoRule,
  type ParsedJournal,
  type Pending,
  type Decimal,
  DATE_TOKEN,
  parseDate,
} from './journal-syntax.ts';
import { unquote, splitAmount, resolveAmounts, formatMark, parseExpression } from './journal-amounts.ts';
import { compileQuery, TYPE_TAGS, IGNORED, REFUSED, firstWords, splitComment } from './journal-directives.ts';

export const parseJournalText = (input: string): ParsedJournal => {
  const text = input.replace(/^\uFEFF/, '');
  const lines = text.split(/\r\n|\n|\r/);
  const transactions: Transaction[] = [];
  const autoRules: AutoRule[] = [];
  const notices: Notice[] = [];
  const accountTypes: ParsedJournal['accountTypes'] = new Map();
  const pending: Pending[] = [];
  const formats = new Map<string, '.' | ','>();
  const notice = (line: number, message: string) => notices.push({ line, message });

  let block: { kind: string; line: number } | null = null;
  let tx: Transaction | null = null;
  let auto: AutoRule | null = null;
  let lastPosting: Posting | null = null;
  let body: 'periodic' | 'commodity' | 'account' | 'payee' | 'other' | null = null;
  let bodyCommodity = '';
  let year: number | null = null;
  const yearStack: (number | null)[] = [];
  let declaredMark: '.' | ',' | null = null;
  let defaultSymbol = '';
  /** Account aliases, applied most recent first (as hledger and ledger do). */
  const aliases: ({ from: string; to: string } | { pattern: RegExp; to: string })[] = [];
  /** ledger `account NAME` + `payee REGEX`: postings to an account named Unknown go to NAME. */
  const unknownPayees: { pattern: RegExp; account: string; line: number }[] = [];
  /** ledger `payee NAME` + `alias REGEX`: descriptions the pattern matches become NAME. */
  const payeeAliases: { pattern: RegExp; payee: string }[] = [];
  /** ledger `commodity SYMBOL` + `alias OTHER`: OTHER is read as SYMBOL. */
  const commodityAliases = new Map<string, string>();
  let bodyAccount = '';
  let bucket: { account: string; line: number } | null = null;
  let bodyPayee = '';
  const applyAccount: string[] = [];
  const applyStack: string[] = [];

  const amountOf = (textPart: string, line: number, set: (a: Amount) => void) => {
    const raw = splitAmount(textPart, line, defaultSymbol, declaredMark);
    raw.symbol = commodityAliases.get(raw.symbol) ?? raw.symbol;
    pending.push({ raw, set });
  };

  /** Value expressions are evaluated once their amounts' decimal marks are known. */
  const finishers: (() => void)[] = [];
  const expressionOf = (textPart: string, line: number, set: (a: Amount) => void) => {
    const { operands, evaluate } = parseExpression(textPart.trim(), line, declaredMark);
    const values: Decimal[] = [];
    operands.forEach((raw, k) => {
      raw.symbol = commodityAliases.get(raw.symbol) ?? raw.symbol;
      pending.push({
        raw,
        set: (a) => {
          values[k] = a.value;
        },
      });
    });
    const fallback = defaultSymbol;
    finishers.push(() => {
      const result = evaluate(values);
      set({ symbol: result.symbol || fallback, value: result.value, line });
    });
  };

  /** A ledger mask or hledger regular expression: case-insensitive, matching anywhere. */
  const pattern = (source: string, line: number) => {
    if (source.length > 200 || /\([^)]*[*+?}][^)]*\)\s*[*+?{]/.test(source)) {
      fail(
        line,
        `the regular expression "${source.slice(0, 60)}" is too complex for Kontor to apply safely; simplify it.`,
      );
    }
    try {
      return new RegExp(source, 'i');
    } catch {
      return fail(line, `"${source}" is not a regular expression Kontor can read.`);
    }
  };

  const accountName = (name: string, line: number) => {
    let n = name.trim();
    if (n === '') fail(line, 'a posting has no account name.');
    if (n.length > 250) fail(line, 'the account name is longer than 250 characters.');
    for (let i = aliases.length - 1; i >= 0; i -= 1) {
      const alias = aliases[i]!;
      if ('pattern' in alias) {
        // hledger: every match is replaced, \1… are the groups.
        n = n.replace(new RegExp(alias.pattern.source, 'gi'), alias.to);
        continue;
      }
      const { from, to } = alias;
      if (n === from || n.startsWith(`${from}:`)) n = to + n.slice(from.length);
    }
    n = n.trim();
    if (n === '') fail(line, 'an alias turns this account name into an empty one.');
    if (applyAccount.length > 0) n = `${applyAccount.join(':')}:${n}`;
    if (tx && unknownPayees.length > 0 && n.split(':').at(-1) === 'Unknown') {
      const description = tx.description;
      const mapped = unknownPayees.find((u) => u.pattern.test(description));
      if (mapped) {
        notice(
          line,
          `${n} read as ${mapped.account} (payee "${description}", account directive on line ${mapped.line})`,
        );
        n = mapped.account;
      }
    }
    return n;
  };

  /** Posting-level dates ("; [2011/01/01]", "; date:2011-01-01") move a posting to another day. */
  const checkPostingComment = (comment: string | null, line: number) => {
    if (!comment) return;
    const bracket = /\[([^\]]*)\]/.exec(comment);
    if (bracket && /^\s*[\d]/.test(bracket[1]!) && /^[\d/.=-]+$/.test(bracket[1]!.trim())) {
      const [primary] = bracket[1]!.trim().split('=');
      if (primary) {
        fail(
          line,
          `the posting date [${bracket[1]}] puts this posting on another day than its transaction; Kontor posts every line of an entry on one date.`,
        );
      }
      notice(line, `secondary posting date [${bracket[1]}] ignored (Kontor uses the transaction date)`);
    }
    if (/(^|[\s,])date:\s*\d/.test(comment)) {
      fail(
        line,
        'the date: tag puts this posting on another day than its transaction; Kontor posts every line of an entry on one date.',
      );
    }
  };

  const parsePosting = (bodyText: string, line: number): Posting | AutoPosting => {
    const { main, comment } = splitComment(bodyText);
    let rest = main.trim().replace(/^[*!]\s*/, '');
    const split = /^(.*?)(?: {2,}|\t|\s*\t)\s*(\S.*)?$/.exec(rest);
    let account = (split ? split[1]! : rest).trim();
    rest = split ? (split[2] ?? '').trim() : '';
    let virtual: '' | '(' | '[' = '';
    if (/^\(.*\)$/.test(account)) virtual = '(';
    else if (/^\[.*\]$/.test(account)) virtual = '[';
    if (virtual) account = account.slice(1, -1);
    account = accountName(account, line);
    checkPostingComment(comment, line);
    if (auto) {
      const p: AutoPosting = { line, account, virtual, multiplier: null, amount: null };
      if (rest === '') return fail(line, 'an automated posting needs an amount or a multiplier.');
      const mult = /^\(?\*\s*([-+]?\d+(?:\.\d+)?)\)?$|^([-+]?\d+(?:\.\d+)?)$/.exec(rest);
      if (mult) {
        const n = (mult[1] ?? mult[2])!;
        const [w, f = ''] = n.replace('+', '').split('.');
        p.multiplier = { units: BigInt(`${w}${f}`), scale: f.length };
      } else if (/^[([]/.test(rest)) {
        fail(line, `the automated amount "${rest}" is a value expression Kontor cannot evaluate.`);
      } else {
        amountOf(rest, line, (a) => {
          p.amount = a;
        });
      }
      return p;
    }
    const p: Posting = { line, account, virtual, amount: null, price: null, assertion: null, comment };
    if (rest === '') return p;
    if (/[{}]/.test(rest)) fail(line, `lot prices {…} are not supported; write the cost with @ or @@.`);
    const assertAt = /\s*(==?\*?)\s*(?=[^=]*$)/.exec(rest);
    let amountText = rest;
    if (assertAt) {
      amountText = rest.slice(0, assertAt.index).trim();
      let assertText = rest.slice(assertAt.index + assertAt[0].length).trim();
      assertText = assertText.replace(/\s*@@?.*$/, ''); // the cost in an assertion is not checked by hledger either
      if (assertText === '') fail(line, 'a balance assertion needs an amount after "=".');
      const op = assertAt[1] as Assertion['op'];
      (/^\(.*\)$/.test(assertText) ? expressionOf : amountOf)(assertText, line, (a) => {
        p.assertion = { op, amount: a };
      });
    }
    if (amountText !== '') {
      const priced = /^(.*?)\s*(@@?)\s*(.+)$/.exec(amountText);
      if (priced) {
        if (priced[1]!.trim() === '') fail(line, 'a cost (@ or @@) needs an amount before it.');
        amountOf(priced[1]!, line, (a) => {
          p.amount = a;
        });
        const total = priced[2] === '@@';
        amountOf(priced[3]!, line, (a) => {
          p.price = { total, amount: a };
        });
      } else {
        (/^\(.*\)$/.test(amountText) ? expressionOf : amountOf)(amountText, line, (a) => {
          p.amount = a;
        });
      }
    }
    return p;
  };

  const endEntry = () => {
    tx = null;
    auto = null;
    body = null;
    lastPosting = null;
  };

  for (let i = 0; i < lines.length; i += 1) {
    const n = i + 1;
    const line = lines[i]!;
    if (line.includes('\uFFFD')) {
      fail(
        n,
        'the line has a character that is not UTF-8 text (shown as �); hledger and ledger read UTF-8, so save the file as UTF-8 and import it again.',
      );
    }
    if (block) {
      if (/^end\s+(comment|test)\b/.test(line)) block = null;
      continue;
    }
    if (/^\s*$/.test(line)) {
      endEntry();
      continue;
    }
    if (/^\s/.test(line)) {
      const bodyText = line.trim();
      if (tx || auto) {
        if (bodyText.startsWith(';') || bodyText.startsWith('#')) {
          if (lastPosting && !auto) checkPostingComment(bodyText.slice(1), n);
          continue;
        }
        const p = parsePosting(bodyText, n);
        if (auto) auto.postings.push(p as AutoPosting);
        else {
          tx!.postings.push(p as Posting);
          lastPosting = p as Posting;
        }
        continue;
      }
      if (body === 'periodic') continue;
      if (bodyText.startsWith(';') || bodyText.startsWith('#')) continue;
      if (body === 'commodity') {
        const [word, ...restWords] = bodyText.split(/\s+/);
        if (word === 'format') {
          const sample = restWords.join(' ');
          const raw = splitAmount(sample, n, '', null);
          const mark = formatMark(raw.number);
          if (mark) formats.set(raw.symbol || bodyCommodity, mark);
          continue;
        }
        if (word === 'default') {
          defaultSymbol = bodyCommodity;
          continue;
        }
        if (word === 'alias') {
          const other = unquote(splitComment(restWords.join(' ')).main.trim());
          if (!other) fail(n, 'alias needs the other name of the commodity.');
          commodityAliases.set(other, bodyCommodity);
          continue;
        }
        notice(n, `commodity ${word} ignored`);
        continue;
      }
      if (body === 'account') {
        const word = bodyText.split(/\s+/)[0];
        const value = splitComment(bodyText.slice(word!.length)).main.trim();
        if (word === 'default') {
          // ledger: this account balances transactions of one posting (as `bucket` does).
          bucket = { account: bodyAccount, line: n };
          continue;
        }
        if (word === 'alias') {
          // ledger: the alias is another name of this account.
          if (!value) fail(n, 'alias needs a name.');
          aliases.push({ from: value, to: bodyAccount });
          continue;
        }
        if (word === 'payee') {
          // ledger: postings to an account named Unknown in transactions of this payee go here.
          if (!value) fail(n, 'payee needs a payee name or pattern.');
          unknownPayees.push({ pattern: pattern(value, n), account: bodyAccount, line: n });
          continue;
        }
        notice(n, `account ${word} ignored`);
        continue;
      }
      if (body === 'payee') {
        const word = bodyText.split(/\s+/)[0];
        const value = splitComment(bodyText.slice(word!.length)).main.trim();
        if (word === 'alias') {
          // ledger: descriptions the pattern matches are this payee.
          if (!value) fail(n, 'alias needs a payee name or pattern.');
          payeeAliases.push({ pattern: pattern(value, n), payee: bodyPayee });
          continue;
        }
        notice(n, `payee ${word} ignored`);
        continue;
      }
      if (body === 'other') continue;
      fail(n, 'an indented line outside a transaction.');
    }
    endEntry();
    if (/^[;#*%|]/.test(line)) continue;
    const { one, two } = firstWords(line);
    if (/^(comment|test)$/.test(one)) {
      block = { kind: one, line: n };
      continue;
    }
    const dateToken = DATE_TOKEN.exec(line);
    if (/^\d/.test(line)) {
      if (!dateToken) fail(n, `"${line.trim().split(/\s/)[0]}" is not a date.`);
      const date = parseDate(dateToken[1]!, year, n);
      if (dateToken[2]) {
        notice(n, `secondary date ${dateToken[2]} ignored (Kontor uses the primary date ${date})`);
      }
      const rest = line.slice(dateToken[0].length);
      const header = /^\s*(?:([*!])\s*)?(?:\(([^)]*)\)\s*)?(.*)$/.exec(rest)!;
      const { main } = splitComment(header[3] ?? '');
      let description = main.trim();
      const payee = payeeAliases.find((a) => a.pattern.test(description));
      if (payee && payee.payee !== description) {
        notice(n, `description "${description}" read as the payee "${payee.payee}" (payee alias)`);
        description = payee.payee;
      }
      tx = {
        line: n,
        index: transactions.length,
        date,
        code: header[2]?.trim() || null,
        description,
        postings: [],
        bucket,
      };
      transactions.push(tx);
      continue;
    }
    if (line.startsWith('=')) {
      const rule: AutoRule = {
        line: n,
        fromIndex: transactions.length,
        matches: compileQuery(splitComment(line.slice(1)).main, n),
        postings: [],
      };
      autoRules.push(rule);
      auto = rule;
      continue;
    }
    if (line.startsWith('~')) {
      notice(
        n,
        `periodic transaction "${line.slice(1).trim()}" ignored (a budget or forecast rule, not a transaction)`,
      );
      body = 'periodic';
      continue;
    }
    if (line.startsWith('-')) {
      // ledger reads options in the file; those that only add checks change nothing imported.
      if (/^--(strict|pedantic|check-payees|explicit)$/.test(one) && two.trim() === one) {
        notice(n, `option ${one} ignored (it only adds ledger's checks of declared names)`);
        continue;
      }
      fail(n, `command-line options in the file ("${one}") may change how it reads; remove them.`);
    }
    // Directives.
    if (one === 'decimal-mark') {
      const mark = line.trim().split(/\s+/)[1];
      if (mark !== '.' && mark !== ',') fail(n, 'decimal-mark must be "." or ",".');
      declaredMark = mark;
      continue;
    }
    if (one === 'Y' || one === 'year' || two === 'apply year' || /^Y\d{4}$/.test(one)) {
      const value = /^Y(\d{4})$/.test(one) ? one.slice(1) : line.trim().split(/\s+/).at(-1)!;
      if (!/^\d{4}$/.test(value)) fail(n, `"${value}" is not a year.`);
      if (two === 'apply year') {
        yearStack.push(year);
        applyStack.push('year');
      }
      year = Number(value);
      continue;
    }
    if (one === 'alias') {
      const spec = line.trim().slice(5).trim();
      const eq = spec.indexOf('=');
      if (eq < 0) fail(n, 'alias needs "OLD = NEW".');
      const from = spec.slice(0, eq).trim();
      const to = spec.slice(eq + 1).trim();
      if (!from || !to) fail(n, 'alias needs "OLD = NEW".');
      if (from.length > 1 && from.startsWith('/') && from.endsWith('/')) {
        // hledger: a regular expression, case-insensitive, every match replaced; \1… are its groups.
        const to$ = to.replace(/\$/g, '$$$$').replace(/\\(\d)/g, '$$$1');
        aliases.push({ pattern: pattern(from.slice(1, -1), n), to: to$ });
        continue;
      }
      aliases.push({ from, to });
      continue;
    }
    if (/^end\s+aliases\b/.test(line)) {
      aliases.length = 0;
      continue;
    }
    if (two === 'apply account') {
      const prefix = splitComment(line.trim().slice('apply account'.length)).main.trim();
      if (!prefix) fail(n, 'apply account needs an account name.');
      applyAccount.push(prefix);
      applyStack.push('account');
      continue;
    }
    if (two === 'apply tag' || two === 'apply fixed' || one === 'fixed') {
      notice(
        n,
        two === 'apply tag'
          ? 'apply tag ignored (tags are not imported)'
          : 'fixed lot prices ignored (valuation only)',
      );
      applyStack.push(two === 'apply tag' ? 'tag' : 'fixed');
      continue;
    }
    if (one === 'end' || one === 'endfixed') {
      const kind =
        one === 'endfixed'
          ? 'fixed'
          : line
              .trim()
              .split(/\s+/)
              .filter((w) => w !== 'apply')[1];
      const top = applyStack.lastIndexOf(kind ?? applyStack.at(-1) ?? '');
      if (top < 0) fail(n, `"${line.trim()}" closes nothing.`);
      const [closed] = applyStack.splice(top, 1);
      if (closed === 'year') year = yearStack.pop() ?? null;
      if (closed === 'account') applyAccount.pop();
      continue;
    }
    if (one === 'bucket' || one === 'A') {
      const name = splitComment(line.trim().slice(one.length)).main.trim();
      if (!name) fail(n, `${one} needs an account name.`);
      bucket = { account: accountName(name, n), line: n };
      continue;
    }
    if (one === 'commodity' || one === 'D') {
      const spec = splitComment(line.trim().slice(one.length)).main.trim();
      let symbol = spec;
      if (/\d/.test(spec)) {
        const raw = splitAmount(spec, n, '', null);
        symbol = raw.symbol;
        const mark = formatMark(raw.number);
        if (mark) formats.set(symbol, mark);
      } else symbol = unquote(spec);
      if (one === 'D') defaultSymbol = symbol;
      else {
        body = 'commodity';
        bodyCommodity = symbol;
      }
      continue;
    }
    if (one === 'account') {
      const { main, comment } = splitComment(line.trim().slice('account'.length));
      const name = accountName(main.replace(/\s{2,}.*$/, ''), n);
      const type = comment ? /(?:^|[\s,])type:\s*([A-Za-z]+)/.exec(comment) : null;
      body = 'account';
      bodyAccount = name;
      if (type) {
        const t = TYPE_TAGS[type[1]!.toLowerCase()];
        if (!t) fail(n, `account type "${type[1]}" is not one Kontor knows.`);
        accountTypes.set(name, t);
        continue;
      }
      notice(n, IGNORED.account!);
      continue;
    }
    const key = [line.trim().split(/\s+/).slice(0, 3).join(' '), two, one].find(
      (k) => k in REFUSED || k in IGNORED,
    );
    if (key && key in REFUSED) fail(n, REFUSED[key]!);
    if (key !== undefined) {
      if (IGNORED[key]) notice(n, IGNORED[key]!);
      // payee and tag declarations may carry indented sub-directives; the others have none.
      if (key === 'tag') body = 'other';
      if (key === 'payee') {
        body = 'payee';
        bodyPayee = splitComment(line.trim().slice('payee'.length)).main.trim();
      }
      continue;
    }
    fail(n, `"${one}" is not a directive or transaction Kontor understands.`);
  }
  resolveAmounts(pending, formats);
  for (const finish of finishers) finish();
  return { transactions, autoRules, accountTypes, notices };
};
