// Categorisation rules: the first enabled rule, in priority order (lowest number first,
// then oldest), whose every given condition holds sets the category, and optionally the
// payee and the tax rate.

export type MatchableRule = {
  id: string;
  enabled: boolean;
  description_contains: string | null;
  payee_contains: string | null;
  min_amount: number | null;
  max_amount: number | null;
  direction: 'any' | 'in' | 'out';
  money_account_id: string | null;
  set_category_account_id: string;
  set_payee: string | null;
  set_tax_rate: number | null;
};

export type MatchableTransaction = {
  description: string;
  payee: string | null;
  amount: number;
  moneyAccountId: string;
};

const contains = (haystack: string | null, needle: string) =>
  (haystack ?? '').toLowerCase().includes(needle.toLowerCase());

export const ruleMatches = (rule: MatchableRule, tx: MatchableTransaction) => {
  if (!rule.enabled) return false;
  if (rule.description_contains && !contains(tx.description, rule.description_contains)) return false;
  if (rule.payee_contains && !contains(tx.payee, rule.payee_contains)) return false;
  const abs = Math.abs(tx.amount);
  if (rule.min_amount !== null && abs < rule.min_amount) return false;
  if (rule.max_amount !== null && abs > rule.max_amount) return false;
  if (rule.direction === 'in' && tx.amount < 0) return false;
  if (rule.direction === 'out' && tx.amount > 0) return false;
  if (rule.money_account_id && rule.money_account_id !== tx.moneyAccountId) return false;
  return true;
};

/** Rules must already be in priority order. */
export const firstMatchingRule = <R extends MatchableRule>(rules: R[], tx: MatchableTransaction): R | null =>
  rules.find((r) => ruleMatches(r, tx)) ?? null;
