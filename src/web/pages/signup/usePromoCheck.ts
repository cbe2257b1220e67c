import { useEffect, useState } from 'react';
import { PROMO_DEBOUNCE_MS, PROMO_MIN_LENGTH } from '../../../shared/auth/rules.ts';

// The promo code field's states (SPEC section 4): untouched under 6 characters, checking,
// valid or invalid; checked 500 ms after the last keystroke. Any failure counts as invalid.

export type PromoStatus =
  | { state: 'untouched' }
  | { state: 'checking' }
  | { state: 'valid'; planAccess: string; description: string | null }
  | { state: 'invalid' };

type ValidateAnswer = {
  success?: boolean;
  valid?: boolean;
  data?: { planAccess?: string; description?: string | null };
};

export const usePromoCheck = (code: string): PromoStatus => {
  const [status, setStatus] = useState<PromoStatus>({ state: 'untouched' });

  useEffect(() => {
    if (code.length < PROMO_MIN_LENGTH) {
      setStatus({ state: 'untouched' });
      return;
    }
    setStatus({ state: 'checking' });
    const controller = new AbortController();
    const timer = window.setTimeout(async () => {
      try {
        const response = await fetch('/api/promo-codes/validate', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ code }),
          signal: controller.signal,
        });
        const answer = (await response.json()) as ValidateAnswer;
        if (response.ok && answer.success && answer.valid && answer.data?.planAccess) {
          setStatus({
            state: 'valid',
            planAccess: answer.data.planAccess,
            description: answer.data.description ?? null,
          });
        } else setStatus({ state: 'invalid' });
      } catch (error) {
        if (!controller.signal.aborted) setStatus({ state: 'invalid' });
        void error;
      }
    }, PROMO_DEBOUNCE_MS);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
  }, [code]);

  return status;
};

export const capitalise = (s: string) => (s ? s.charAt(0).toUpperCase() + s.slice(1) : s);
