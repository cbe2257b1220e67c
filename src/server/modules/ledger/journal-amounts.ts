import { fail, type Decimal, type RawAmount, type Pending } from './journal-syntax.ts';

// Journal amounts: splitting "-$1,000.00" into sign, commodity and number, and deciding each
// commodity's decimal mark (see journal-syntax.ts for the file's overview).

const SYMBOL_CHARS = String.raw`[^\s\d.,;@=\-+"(){}\[\]*/'<>!&|%#~]`;
const SYMBOL_REST = String.raw`[^\s\d;@=\-+"(){}\[\]*/<>!&|%#~,.]*`;
const COMMODITY = `"[^"]*"|${SYMBOL_CHARS}${SYMBOL_REST}`;
const NUMBER = String.raw`\d[\d.,'\u00a0\u202f ]*\d|\d[.,]?|[.,]\d+`;
const AMOUNT = new RegExp(
  `^([-+])?\\s*(?:(${COMMODITY})\\s*)?([-+])?\\s*(${NUMBER})\\s*(${COMMODITY})?$`,
  'u',
);

export const unquote = (s: string) => (s.startsWith('"') ? s.slice(1, -1) : s);

/** Splits "-$1,000.00", "1.000,00 EUR", "€ -5" into sign, symbol and number text. */
export const splitAmount = (
  text: string,
  line: number,
  defaultSymbol: string,
  declaredMark: '.' | ',' | null,
): RawAmount => {
  const t = text.trim();
  const m = AMOUNT.exec(t);
  if (!m) return fail(line, `"${t}" is not an amount Kontor can read.`);
  const [, sign1, left, sign2, num, right] = m;
  if (sign1 && sign2) fail(line, `"${t}" has two signs.`);
  if (left && right) fail(line, `"${t}" has a commodity on both sides of the number.`);
  const number = num!.trim();
  if (/[\s\u00a0\u202f]$/.test(number)) fail(line, `"${t}" is not an amount Kontor can read.`);
  const symbol = unquote(left ?? right ?? '') || defaultSymbol;
  return { line, negative: (sign1 ?? sign2) === '-', symbol, number, declaredMark };
};

/** The decimal mark of a number on its own: null when it has none or it is ambiguous. */
const markOf = (number: string): { mark: '.' | ',' | null; ambiguous: boolean } => {
  const dots = (number.match(/\./g) ?? []).length;
  const commas = (number.match(/,/g) ?? []).length;
  if (dots && commas)
    return { mark: number.lastIndexOf('.') > number.lastIndexOf(',') ? '.' : ',', ambiguous: false };
  const only = dots ? '.' : commas ? ',' : null;
  if (!only) return { mark: null, ambiguous: false };
  if ((dots || commas) > 1) return { mark: only === '.' ? ',' : '.', ambiguous: false };
  const after = number.length - number.indexOf(only) - 1;
  if (after === 3) return { mark: null, ambiguous: true };
  return { mark: only, ambiguous: false };
};

/** Parses digits with group marks and a known decimal mark, strictly. */
export const toDecimal = (raw: RawAmount, mark: '.' | ','): Decimal => {
  const { number, line } = raw;
  const parts = number.split(mark);
  if (parts.length > 2) return fail(line, `"${number}" has the decimal mark "${mark}" more than once.`);
  const [whole = '', fraction = ''] = parts;
  if (!/^\d*$/.test(fraction))
    return fail(line, `"${number}": digit group marks after the decimal mark "${mark}".`);
  const groups = whole.split(/[.,'\u00a0\u202f ]/);
  if (groups.length > 1) {
    const bad =
      groups.some((g) => !/^\d+$/.test(g)) ||
      groups[0]!.length > 3 ||
      groups.slice(1).some((g) => g.length !== 3 && g.length !== 2) ||
      groups.at(-1)!.length !== 3;
    if (bad)
      return fail(
        line,
        `"${number}" does not read as a number with "${mark}" as decimal mark (digit groups are wrong); check the decimal-mark or commodity format.`,
      );
  }
  const digits = groups.join('') + fraction;
  if (digits === '') return fail(line, `"${number}" has no digits.`);
  const units = BigInt(digits);
  return { units: raw.negative ? -units : units, scale: fraction.length };
};

/** Resolves every raw amount to an exact decimal, learning each commodity's decimal mark. */
export const resolveAmounts = (pending: Pending[], formats: Map<string, '.' | ','>) => {
  const learned = new Map<string, '.' | ',' | 'conflict'>();
  for (const { raw } of pending) {
    if (raw.declaredMark || formats.has(raw.symbol)) continue;
    const { mark } = markOf(raw.number);
    if (!mark) continue;
    const known = learned.get(raw.symbol);
    learned.set(raw.symbol, known && known !== mark ? 'conflict' : mark);
  }
  for (const { raw, set } of pending) {
    let mark: '.' | ',' | null = raw.declaredMark ?? formats.get(raw.symbol) ?? null;
    if (!mark) {
      const own = markOf(raw.number);
      const fromFile = learned.get(raw.symbol);
      if (own.mark) mark = own.mark;
      else if (own.ambiguous) {
        if (fromFile === '.' || fromFile === ',') mark = fromFile;
        else
          fail(
            raw.line,
            `"${raw.number}" is ambiguous: hledger reads a single mark before three digits as a decimal mark, ledger as a thousands separator. Add "decimal-mark ." or "decimal-mark ," (or a commodity directive such as "commodity 1,000.00 ${raw.symbol || 'USD'}").`,
          );
      } else mark = '.';
    }
    set({ symbol: raw.symbol, value: toDecimal(raw, mark ?? '.'), line: raw.line });
  }
};

/** The decimal mark of a format sample in a commodity/D/format directive ("1.000,00 EUR" → ','). */
export const formatMark = (numberText: string): '.' | ',' | null => {
  const dots = (numberText.match(/\./g) ?? []).length;
  const commas = (numberText.match(/,/g) ?? []).length;
  if (dots && commas) return numberText.lastIndexOf('.') > numberText.lastIndexOf(',') ? '.' : ',';
  if (dots === 1 && !commas) return '.';
  if (commas === 1 && !dots) return ',';
  if (dots > 1) return ',';
  if (commas > 1) return '.';
  return null;
};

// --- Value expressions ------------------------------------------------------------------
// ledger reads "(…)" in an amount's place as a value expression. Kontor evaluates the
// arithmetic ones exactly: amounts and plain numbers with + - * / and parentheses, where
// amounts added together share a commodity and a product has at most one commodity. Anything
// else (functions, variables, two commodities) and results that are not exact decimals are
// refused naming the line.

type Rational = { num: bigint; den: bigint };
type Term = { value: Rational; symbol: string };

const gcd = (a: bigint, b: bigint): bigint => {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y) [x, y] = [y, x % y];
  return x || 1n;
};
const norm = (num: bigint, den: bigint): Rational => {
  const sign = den < 0n ? -1n : 1n;
  const g = gcd(num, den);
  return { num: (sign * num) / g, den: (sign * den) / g };
};

/** Splits "(2 * $3.00 - 1,50 EUR)" into operand amounts and an evaluator of their values. */
export const parseExpression = (
  text: string,
  line: number,
  declaredMark: '.' | ',' | null,
): { operands: RawAmount[]; evaluate: (values: Decimal[]) => { symbol: string; value: Decimal } } => {
  const refuse = (why: string): never =>
    fail(line, `the amount "${text}" is a value expression Kontor cannot evaluate (${why}).`);
  type Token = { op: string } | { operand: number };
  const tokens: Token[] = [];
  const operands: RawAmount[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (/\s/.test(ch)) {
      i += 1;
      continue;
    }
    const last = tokens.at(-1);
    const afterOperand = last !== undefined && ('operand' in last || last.op === ')');
    if ('()*/+'.includes(ch) || (ch === '-' && (afterOperand || /^-\s*\(/.test(text.slice(i))))) {
      tokens.push({ op: ch });
      i += 1;
      continue;
    }
    let j = i + (ch === '-' ? 1 : 0);
    while (j < text.length && !'()*/+-'.includes(text[j]!)) j += 1;
    // "$-5": a sign right after a commodity symbol belongs to the amount.
    if (text[j] === '-' && !/\d/.test(text.slice(i, j)) && text.slice(i, j).trim() !== '') {
      j += 1;
      while (j < text.length && !'()*/+-'.includes(text[j]!)) j += 1;
    }
    const operandText = text.slice(i, j).trim();
    if (!/\d/.test(operandText)) refuse(`"${operandText}" is not an amount or a number`);
    let raw: RawAmount;
    try {
      raw = splitAmount(operandText, line, '', declaredMark);
    } catch {
      return refuse(`"${operandText}" is not an amount or a number`);
    }
    tokens.push({ operand: operands.length });
    operands.push(raw);
    i = j;
  }
  const evaluate = (values: Decimal[]) => {
    let k = 0;
    const peek = () => tokens[k];
    const isOp = (t: Token | undefined, op: string) => t !== undefined && 'op' in t && t.op === op;
    const factor = (): Term => {
      const t = tokens[k];
      if (t === undefined) return refuse('it ends too early');
      k += 1;
      if ('operand' in t) {
        const v = values[t.operand]!;
        return { value: norm(v.units, 10n ** BigInt(v.scale)), symbol: operands[t.operand]!.symbol };
      }
      if (t.op === '-') {
        const f = factor();
        return { value: { num: -f.value.num, den: f.value.den }, symbol: f.symbol };
      }
      if (t.op === '(') {
        const e = expr();
        if (!isOp(peek(), ')')) refuse('a parenthesis is not closed');
        k += 1;
        return e;
      }
      return refuse(`"${t.op}" where a number belongs`);
    };
    const term = (): Term => {
      let left = factor();
      while (isOp(peek(), '*') || isOp(peek(), '/')) {
        const op = (tokens[k] as { op: string }).op;
        k += 1;
        const right = factor();
        if (left.symbol && right.symbol) refuse('it multiplies or divides two amounts with commodities');
        if (op === '/' && right.symbol) refuse('it divides by an amount');
        if (op === '/' && right.value.num === 0n) refuse('it divides by zero');
        const value =
          op === '*'
            ? norm(left.value.num * right.value.num, left.value.den * right.value.den)
            : norm(left.value.num * right.value.den, left.value.den * right.value.num);
        left = { value, symbol: left.symbol || right.symbol };
      }
      return left;
    };
    const expr = (): Term => {
      let left = term();
      while (isOp(peek(), '+') || isOp(peek(), '-')) {
        const op = (tokens[k] as { op: string }).op;
        k += 1;
        const right = term();
        if (left.symbol && right.symbol && left.symbol !== right.symbol)
          refuse(`it adds ${left.symbol} and ${right.symbol}`);
        const num =
          op === '+'
            ? left.value.num * right.value.den + right.value.num * left.value.den
            : left.value.num * right.value.den - right.value.num * left.value.den;
        left = { value: norm(num, left.value.den * right.value.den), symbol: left.symbol || right.symbol };
      }
      return left;
    };
    const result = expr();
    if (k !== tokens.length) refuse('it does not read as arithmetic');
    // An exact decimal only: the denominator must divide a power of ten.
    const { num, den } = result.value;
    let scale = 0;
    let power = 1n;
    while (power % den !== 0n && scale < 30) {
      power *= 10n;
      scale += 1;
    }
    if (power % den !== 0n) refuse('its result has no exact decimal value');
    return { symbol: result.symbol, value: { units: num * (power / den), scale } };
  };
  return { operands, evaluate };
};
