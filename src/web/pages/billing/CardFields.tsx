import { useState } from 'react';
import { LOCAL_TEST_CARDS, type LocalCardInput, localCardSchema } from '../../../shared/billing.ts';
import { TextField } from '../../components/ui/Field.tsx';
import { useFormFields } from '../../lib/useFormFields.ts';
import { formatExpiry, groupCardNumber } from './billingText.ts';

// The local provider's card form (its stand-in for Stripe's hosted pages): card number, MM/YY
// and CVC, checked with the shared schema before anything is sent, each field's problem under
// it. Used by the local checkout and the local portal's card update.

type CardKey = keyof LocalCardInput;

export const useCardForm = () => {
  const { values, set } = useFormFields({ cardNumber: '', expiry: '', cvc: '' });
  const [errors, setErrors] = useState<Partial<Record<CardKey, string>>>({});
  const change = (key: CardKey, value: string) => {
    set({ [key]: value });
    setErrors((e) => ({ ...e, [key]: undefined }));
  };
  /** The card to send, or null after showing what is wrong with it. */
  const parse = (): LocalCardInput | null => {
    const parsed = localCardSchema.safeParse(values);
    if (parsed.success) {
      setErrors({});
      return parsed.data;
    }
    const found: Partial<Record<CardKey, string>> = {};
    for (const issue of parsed.error.issues) {
      const key = issue.path[0] as CardKey;
      found[key] ??= issue.message;
    }
    setErrors(found);
    return null;
  };
  const reset = () => {
    set({ cardNumber: '', expiry: '', cvc: '' });
    setErrors({});
  };
  return { values, errors, change, parse, reset };
};

export type CardForm = ReturnType<typeof useCardForm>;

export const CardFields = ({ form, autoFocus = false }: { form: CardForm; autoFocus?: boolean }) => (
  <div className="grid gap-4 sm:grid-cols-4">
    <div className="sm:col-span-4">
      <TextField
        label="Card number"
        inputMode="numeric"
        autoComplete="cc-number"
        placeholder="1234 1234 1234 1234"
        autoFocus={autoFocus}
        value={form.values.cardNumber}
        error={form.errors.cardNumber}
        onChange={(e) => form.change('cardNumber', groupCardNumber(e.target.value))}
      />
    </div>
    <div className="sm:col-span-2">
      <TextField
        label="Expiry (MM/YY)"
        inputMode="numeric"
        autoComplete="cc-exp"
        placeholder="MM/YY"
        value={form.values.expiry}
        error={form.errors.expiry}
        onChange={(e) => form.change('expiry', formatExpiry(e.target.value))}
      />
    </div>
    <div className="sm:col-span-2">
      <TextField
        label="CVC"
        inputMode="numeric"
        autoComplete="cc-csc"
        placeholder="123"
        maxLength={4}
        value={form.values.cvc}
        error={form.errors.cvc}
        onChange={(e) => form.change('cvc', e.target.value.replace(/\D/g, ''))}
      />
    </div>
  </div>
);

const group = (digits: string) => groupCardNumber(digits);

/** The test cards of the local provider, as Stripe's test mode has them. */
export const TestCardsNote = () => (
  <div className="rounded-lg border border-dashed border-slate-300 bg-slate-50 px-4 py-3 text-sm text-slate-600 dark:border-slate-700 dark:bg-slate-900/60 dark:text-slate-300">
    <p className="font-medium text-slate-800 dark:text-slate-100">Test mode: no real card is charged.</p>
    <ul className="mt-1 space-y-0.5">
      <li>
        <span className="font-mono">{group(LOCAL_TEST_CARDS.succeeds)}</span> pays
      </li>
      <li>
        <span className="font-mono">{group(LOCAL_TEST_CARDS.declined)}</span> is declined
      </li>
      <li>
        <span className="font-mono">{group(LOCAL_TEST_CARDS.authenticate)}</span> asks to authenticate
      </li>
    </ul>
    <p className="mt-1">Any future expiry date and any 3 digits for the CVC.</p>
  </div>
);
