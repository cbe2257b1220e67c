import type { FormHTMLAttributes, Ref } from 'react';
import { useHydrated } from '../../lib/useHydrated.ts';

// A form of a prerendered public page (sign-in, sign-up, password reset, contact): until the
// page has hydrated its fields and buttons are disabled (one <fieldset disabled>), so nothing
// typed or clicked in the prerendered HTML is lost to a form whose code has not started yet
// (the first thing typed used to vanish when hydration came after it). `className` lays out
// the fields, as it did on the <form>.

export const ReadyForm = ({
  className,
  children,
  formRef,
  ...props
}: FormHTMLAttributes<HTMLFormElement> & { formRef?: Ref<HTMLFormElement> }) => {
  const hydrated = useHydrated();
  return (
    <form ref={formRef} {...props}>
      <fieldset disabled={!hydrated} className={`m-0 min-w-0 border-0 p-0 ${className ?? ''}`}>
        {children}
      </fieldset>
    </form>
  );
};
