import { type ChangeEvent, useState } from 'react';

// The text state of a form's fields, kept in one object: `bind('name')` gives a field its
// value and the change handler that writes it back (`pick` the same for a picker that hands
// over the value), `set` changes several at once (a reset
// after adding, a picker that hands over a value), `values` is what the form submits from.

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

export const useFormFields = <T extends Record<string, string>>(initial: T) => {
  const [values, setValues] = useState<T>(initial);
  const set = (patch: Partial<T>) => setValues((current) => ({ ...current, ...patch }));
  const bind = <K extends keyof T & string>(key: K) => ({
    value: values[key],
    onChange: (e: ChangeEvent<Control>) => set({ [key]: e.target.value } as unknown as Partial<T>),
  });
  /** For a picker that hands over the value itself (a money account, a category). */
  const pick = <K extends keyof T & string>(key: K) => ({
    value: values[key],
    onChange: (value: string) => set({ [key]: value } as unknown as Partial<T>),
  });
  return { values, set, bind, pick };
};
