// Minor units and their exact decimal text, for money.ts (which re-exports these and is the one
// module to import them from on the server) and for the web's first load: this module imports
// no zod, so the formatter every page starts with (src/shared/format.ts) keeps the schema
// library out of the web's entry chunk (docs/performance.md, "Lighthouse").

/** Three upper-case letters: the shape of an ISO 4217 currency code. */
export const CURRENCY_CODE = /^[A-Z]{3}$/;

const exponentCache = new Map<string, number>();

/** Digits after the decimal point of a currency's minor unit (USD 2, JPY 0, BHD 3), from Intl. */
export const currencyExponent = (currency: string): number => {
  const cached = exponentCache.get(currency);
  if (cached !== undefined) return cached;
  if (!CURRENCY_CODE.test(currency)) throw new RangeError(`"${currency}" is not an ISO 4217 currency code.`);
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
    .maximumFractionDigits;
  const exponent = digits ?? 2;
  exponentCache.set(currency, exponent);
  return exponent;
};

/** Minor units as exact decimal text: 123456 with exponent 2 → "1234.56", -5 → "-0.05". */
export const minorToDecimalString = (minor: number | bigint, exponent: number): string => {
  const value = BigInt(minor);
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(exponent + 1, '0');
  const whole = exponent === 0 ? digits : digits.slice(0, -exponent);
  const fraction = exponent === 0 ? '' : `.${digits.slice(-exponent)}`;
  return `${negative ? '-' : ''}${whole}${fraction}`;
};

/** Minor units of a currency as exact decimal text (1234 USD → "12.34"). */
export const formatMinorPlain = (minor: number | bigint, currency: string) =>
  minorToDecimalString(minor, currencyExponent(currency));
