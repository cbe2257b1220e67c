import type { MatchReason, MatchSuggestion } from '../../../shared/matching.ts';
import type { OpenInvoiceForMatching } from '../invoices/bank-payments.ts';

// Ranking bank lines against open invoices and payments recorded by hand, in memory: the
// candidates of a line come from three indexes built once per statement (by amount due, by
// invoice number or reference token, by customer-name word), so a 1,000-line statement
// against 10,000 open invoices costs a few thousand map look-ups, not ten million comparisons.

export type LineForMatching = {
  id: string;
  date: string;
  amount: number;
  description: string;
  payee: string | null;
  ledgerAccountId: string;
};

export type RecordedPaymentForMatching = {
  id: string;
  invoice_id: string;
  date: string;
  amount: number;
  deposit_account_id: string;
  number: string;
  reference: string;
  customer_id: string;
  customer_name: string;
  currency: string;
  amount_due: number;
  issue_date: string;
  due_date: string;
};

const WEIGHTS: Record<MatchReason, number> = {
  exact_amount: 50,
  recorded_payment: 30,
  number_in_text: 40,
  reference_in_text: 25,
  customer_in_text: 25,
  supplier_in_text: 25,
  partial_amount: 10,
  date_window: 10,
};
/** Below this a candidate is noise: a partial amount in the date window alone says little. */
const MIN_SCORE = 25;
/** Days after the due date a payment still plausibly belongs to the invoice. */
const LATE_DAYS = 60;
/** Days between a recorded payment and its bank line. */
export const PAYMENT_WINDOW_DAYS = 14;

const STOP_WORDS = new Set([
  'the',
  'and',
  'ltd',
  'llc',
  'inc',
  'gmbh',
  'co',
  'corp',
  'company',
  'limited',
  'plc',
  'sa',
  'ag',
  'bv',
  'srl',
  'of',
  'for',
  'payment',
  'invoice',
  'transfer',
  'from',
  'to',
]);

/** Upper-case letters and digits only: "INV-0042" and "inv 0042" are both "INV0042". */
export const tokenKey = (text: string) => text.toUpperCase().replace(/[^0-9A-Z]/g, '');

const words = (text: string) =>
  text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^0-9a-z]+/)
    .filter((w) => w.length > 0);

const nameWords = (name: string) => words(name).filter((w) => w.length >= 2 && !STOP_WORDS.has(w));

/** Keys of every token and pair of neighbouring tokens of a text ("INV 0042" → INV0042). */
const textKeys = (text: string) => {
  const raw = text.split(/[\s,;:()[\]{}"']+/).filter(Boolean);
  const keys = new Set<string>();
  for (let i = 0; i < raw.length; i++) {
    const one = tokenKey(raw[i]!);
    if (one.length >= 3) keys.add(one);
    if (i + 1 < raw.length) {
      const two = tokenKey(raw[i]! + raw[i + 1]!);
      if (two.length >= 3) keys.add(two);
    }
  }
  return keys;
};

const dayNumber = (iso: string) =>
  Date.UTC(+iso.slice(0, 4), +iso.slice(5, 7) - 1, +iso.slice(8, 10)) / 86_400_000;

const push = <K, V>(map: Map<K, V[]>, key: K, value: V) => {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
};

export type MatchIndex = ReturnType<typeof buildIndex>;

export const buildIndex = (invoices: OpenInvoiceForMatching[], payments: RecordedPaymentForMatching[]) => {
  const byAmount = new Map<number, OpenInvoiceForMatching[]>();
  const byToken = new Map<string, { invoice: OpenInvoiceForMatching; reason: MatchReason }[]>();
  const byCustomer = new Map<string, OpenInvoiceForMatching[]>();
  const customerByWord = new Map<string, { id: string; words: string[] }[]>();
  for (const inv of invoices) {
    push(byAmount, inv.amount_due, inv);
    const number = tokenKey(inv.number);
    if (number.length >= 3) push(byToken, number, { invoice: inv, reason: 'number_in_text' });
    const reference = tokenKey(inv.reference);
    if (reference.length >= 4 && reference !== number)
      push(byToken, reference, { invoice: inv, reason: 'reference_in_text' });
    const mine = byCustomer.get(inv.customer_id);
    if (mine) mine.push(inv);
    else {
      byCustomer.set(inv.customer_id, [inv]);
      const w = [...new Set(nameWords(inv.customer_name))];
      for (const word of w) push(customerByWord, word, { id: inv.customer_id, words: w });
    }
  }
  // Each customer's invoices by open amount, so a line naming a customer with many open
  // invoices takes the few nearest its amount, not all of them.
  for (const list of byCustomer.values()) list.sort((a, b) => a.amount_due - b.amount_due);
  const paymentsByAmount = new Map<number, RecordedPaymentForMatching[]>();
  for (const p of payments) push(paymentsByAmount, p.amount, p);
  return { byAmount, byToken, byCustomer, customerByWord, paymentsByAmount };
};

/** At most CUSTOMER_CANDIDATES invoices of an amount-sorted list, those nearest `amount`. */
const CUSTOMER_CANDIDATES = 12;
const nearestByAmount = (sorted: OpenInvoiceForMatching[], amount: number) => {
  if (sorted.length <= CUSTOMER_CANDIDATES) return sorted;
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]!.amount_due < amount) lo = mid + 1;
    else hi = mid;
  }
  const from = Math.max(0, Math.min(lo - CUSTOMER_CANDIDATES / 2, sorted.length - CUSTOMER_CANDIDATES));
  return sorted.slice(from, from + CUSTOMER_CANDIDATES);
};

/** The best suggestions for one line, highest score first. */
export const rankLine = (index: MatchIndex, line: LineForMatching, limit: number): MatchSuggestion[] => {
  if (line.amount <= 0) return [];
  const text = `${line.description} ${line.payee ?? ''}`;
  const keys = textKeys(text);
  const lineWords = new Set(words(text));
  const lineDay = dayNumber(line.date);
  const candidates = new Map<string, { invoice: OpenInvoiceForMatching; reasons: Set<MatchReason> }>();
  const add = (invoice: OpenInvoiceForMatching, reason?: MatchReason) => {
    let c = candidates.get(invoice.id);
    if (!c) {
      c = { invoice, reasons: new Set() };
      candidates.set(invoice.id, c);
    }
    if (reason) c.reasons.add(reason);
  };
  for (const inv of index.byAmount.get(line.amount) ?? []) add(inv, 'exact_amount');
  for (const key of keys) for (const hit of index.byToken.get(key) ?? []) add(hit.invoice, hit.reason);
  // A customer is named when every word of its name is in the line, or when a distinctive
  // word of it is (five letters or more, in no other customer's name): banks often cut a name
  // short ("NORTHWIND" for Northwind Traders).
  const named = new Set<string>();
  for (const w of lineWords) {
    const customers = index.customerByWord.get(w);
    if (!customers) continue;
    for (const customer of customers) {
      if (named.has(customer.id)) continue;
      if ((w.length >= 5 && customers.length === 1) || customer.words.every((cw) => lineWords.has(cw)))
        named.add(customer.id);
    }
  }
  for (const id of named)
    for (const inv of nearestByAmount(index.byCustomer.get(id) ?? [], line.amount))
      add(inv, 'customer_in_text');
  const out: MatchSuggestion[] = [];
  for (const { invoice, reasons } of candidates.values()) {
    // A payment cannot come before its invoice (confirming would be refused).
    if (line.date < invoice.issue_date) continue;
    if (invoice.amount_due > line.amount) reasons.add('partial_amount');
    if (lineDay <= dayNumber(invoice.due_date) + LATE_DAYS) reasons.add('date_window');
    const score = [...reasons].reduce((s, r) => s + WEIGHTS[r], 0);
    if (score < MIN_SCORE) continue;
    out.push({
      kind: 'invoice',
      invoiceId: invoice.id,
      invoiceNumber: invoice.number,
      customerName: invoice.customer_name,
      currency: invoice.currency,
      amountDue: invoice.amount_due,
      amount: Math.min(line.amount, invoice.amount_due),
      issueDate: invoice.issue_date,
      dueDate: invoice.due_date,
      paymentId: null,
      paymentDate: null,
      score,
      reasons: [...reasons],
    });
  }
  // Payments recorded by hand into the same account, for the same amount, near the date.
  for (const p of index.paymentsByAmount.get(line.amount) ?? []) {
    if (p.deposit_account_id !== line.ledgerAccountId) continue;
    const days = Math.abs(dayNumber(p.date) - lineDay);
    if (days > PAYMENT_WINDOW_DAYS) continue;
    const reasons = new Set<MatchReason>(['exact_amount', 'recorded_payment']);
    if (days <= 3) reasons.add('date_window');
    const number = tokenKey(p.number);
    if (number.length >= 3 && keys.has(number)) reasons.add('number_in_text');
    const nw = nameWords(p.customer_name);
    if (
      nw.length > 0 &&
      (nw.every((w) => lineWords.has(w)) || nw.some((w) => w.length >= 5 && lineWords.has(w)))
    )
      reasons.add('customer_in_text');
    out.push({
      kind: 'payment',
      invoiceId: p.invoice_id,
      invoiceNumber: p.number,
      customerName: p.customer_name,
      currency: p.currency,
      amountDue: p.amount_due,
      amount: p.amount,
      issueDate: p.issue_date,
      dueDate: p.due_date,
      paymentId: p.id,
      paymentDate: p.date,
      score: [...reasons].reduce((s, r) => s + WEIGHTS[r], 0),
      reasons: [...reasons],
    });
  }
  const distance = (x: MatchSuggestion) => Math.abs(dayNumber(x.paymentDate ?? x.dueDate) - lineDay);
  const ranked = out.map((x) => ({ x, d: distance(x) }));
  ranked.sort(
    (a, b) =>
      b.x.score - a.x.score ||
      a.d - b.d ||
      (a.x.invoiceNumber < b.x.invoiceNumber ? -1 : a.x.invoiceNumber > b.x.invoiceNumber ? 1 : 0),
  );
  return ranked.slice(0, limit).map((r) => r.x);
};
