import { ReadyForm } from '../../components/ui/ReadyForm.tsx';
import { CircleCheck, Clock, Mail, MapPin } from 'lucide-react';
import { type ChangeEvent, type FormEvent, type ReactNode, useRef, useState } from 'react';
import {
  CONTACT_LIMITS,
  type ContactField,
  type ContactMessageInput,
  type ContactReceipt,
  contactFieldErrors,
} from '../../../shared/contact.ts';
import { Eyebrow, IconList } from '../../components/site/Marketing.tsx';
import { SiteLayout } from '../../components/site/SiteLayout.tsx';
import { ApiError, api } from '../../lib/api.ts';
import { formatCount } from '../../lib/format.ts';

// /contact: the contact form, validated here with the shared schema and again by
// POST /api/contact, which stores the message and limits how often one address may send.

type Errors = Partial<Record<ContactField, string>>;
type Status =
  | { kind: 'idle' }
  | { kind: 'sending' }
  | { kind: 'sent'; receipt: ContactReceipt; name: string; email: string }
  | { kind: 'failed'; message: string };

const EMPTY: Required<ContactMessageInput> = { name: '', email: '', company: '', message: '' };
const FIELD_ORDER: ContactField[] = ['name', 'email', 'company', 'message'];

const PROMISES = [
  { icon: Clock, label: 'A person on the Kontor team reads every message and replies by email.' },
  { icon: Mail, label: 'Already a customer? Write here with the email address of your account.' },
  { icon: MapPin, label: 'Remote-first team across Europe and North America.' },
];

const inputClass = (invalid: boolean) =>
  `mt-1.5 block w-full rounded-lg border bg-white px-3.5 py-2.5 text-base text-slate-950 shadow-sm placeholder:text-slate-500 focus:outline-2 focus:outline-offset-0 dark:bg-slate-900 dark:text-white dark:placeholder:text-slate-400 ${
    invalid
      ? 'border-red-600 focus:outline-red-600 dark:border-red-400'
      : 'border-slate-300 focus:outline-brand-500 dark:border-slate-700'
  }`;

const serverFieldErrors = (details: unknown): Errors => {
  const errors: Errors = {};
  if (!Array.isArray(details)) return errors;
  for (const d of details as { field?: string; message?: string }[]) {
    if (d.field && FIELD_ORDER.includes(d.field as ContactField) && d.message) {
      errors[d.field as ContactField] ??= d.message;
    }
  }
  return errors;
};

const ContactPage = () => {
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<Errors>({});
  const [submitted, setSubmitted] = useState(false);
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const formRef = useRef<HTMLFormElement>(null);

  const update = (field: ContactField, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    // After the first submit, errors follow the input live so they clear as soon as fixed.
    if (submitted) setErrors(contactFieldErrors(next) ?? {});
    if (status.kind === 'failed') setStatus({ kind: 'idle' });
  };

  const focusFirstError = (errs: Errors) => {
    const first = FIELD_ORDER.find((f) => errs[f]);
    if (first) formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    const errs = contactFieldErrors(values);
    if (errs) {
      setErrors(errs);
      focusFirstError(errs);
      return;
    }
    setErrors({});
    setStatus({ kind: 'sending' });
    try {
      const receipt = await api.post<ContactReceipt>('/contact', values);
      setStatus({
        kind: 'sent',
        receipt,
        name: values.name.trim(),
        email: values.email.trim().toLowerCase(),
      });
      setValues(EMPTY);
      setSubmitted(false);
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) {
        const fieldErrs = serverFieldErrors(error.details);
        setErrors(fieldErrs);
        focusFirstError(fieldErrs);
      }
      setStatus({
        kind: 'failed',
        message:
          error instanceof ApiError ? error.message : 'Your message could not be sent. Please try again.',
      });
    }
  };

  // A labelled input, or (with `rows`) text area, with its error or else its hint under it.
  const field = (
    name: ContactField,
    label: string,
    props: { type?: string; autoComplete?: string; optional?: boolean; rows?: number; hint?: ReactNode },
  ) => {
    const error = errors[name];
    const id = `contact-${name}`;
    const control = {
      id,
      name,
      value: values[name],
      onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => update(name, e.target.value),
      'aria-invalid': error ? true : undefined,
      'aria-describedby': error ? `${id}-error` : props.hint ? `${id}-hint` : undefined,
      required: !props.optional,
    };
    return (
      <div>
        <label htmlFor={id} className="block text-sm font-medium text-slate-900 dark:text-slate-100">
          {label}
          {props.optional ? (
            <span className="font-normal text-slate-600 dark:text-slate-400"> (optional)</span>
          ) : null}
        </label>
        {props.rows ? (
          <textarea {...control} rows={props.rows} className={inputClass(Boolean(error))} />
        ) : (
          <input
            {...control}
            type={props.type ?? 'text'}
            autoComplete={props.autoComplete}
            className={`${inputClass(Boolean(error))} min-h-11`}
          />
        )}
        {error ? (
          <p id={`${id}-error`} className="mt-1.5 text-sm text-red-700 dark:text-red-400">
            {error}
          </p>
        ) : props.hint ? (
          <p id={`${id}-hint`} className="mt-1.5 text-sm text-slate-600 dark:text-slate-400">
            {props.hint}
          </p>
        ) : null}
      </div>
    );
  };

  return (
    <SiteLayout>
      <div className="mx-auto grid max-w-6xl gap-12 px-4 py-16 sm:px-6 sm:py-24 lg:grid-cols-[2fr_3fr] lg:px-8">
        <div>
          <Eyebrow>Contact</Eyebrow>
          <h1 className="mt-3 text-4xl font-bold tracking-tight text-slate-950 sm:text-5xl dark:text-white">
            Talk to our team
          </h1>
          <p className="mt-4 text-lg leading-8 text-slate-600 dark:text-slate-300">
            Questions about plans, moving your books from another tool, or running Kontor on your own server?
            Write to us and a person will answer.
          </p>
          <IconList
            items={PROMISES}
            className="mt-8 space-y-4 text-slate-700 dark:text-slate-300"
            itemClassName="flex gap-3"
            iconClassName="mt-0.5 size-5 text-brand-600 dark:text-brand-400"
          />
        </div>
        <div className="rounded-3xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900/60">
          {status.kind === 'sent' ? (
            <div role="status" className="py-8 text-center">
              <CircleCheck
                aria-hidden="true"
                className="mx-auto size-12 text-emerald-600 dark:text-emerald-400"
              />
              <h2 className="mt-4 text-2xl font-semibold text-slate-950 dark:text-white">Message sent</h2>
              <p className="mt-2 text-slate-600 dark:text-slate-300">
                Thank you, {status.name}. We have your message and will reply to {status.email} within one
                business day.
              </p>
              <button
                type="button"
                onClick={() => setStatus({ kind: 'idle' })}
                className="mt-6 inline-flex min-h-11 items-center rounded-lg border border-slate-300 px-5 font-semibold text-slate-900 hover:bg-slate-50 dark:border-slate-700 dark:text-white dark:hover:bg-slate-800"
              >
                Send another message
              </button>
            </div>
          ) : (
            <ReadyForm
              formRef={formRef}
              noValidate
              onSubmit={onSubmit}
              aria-labelledby="contact-form-title"
              className="space-y-5"
            >
              <h2 id="contact-form-title" className="text-xl font-semibold text-slate-950 dark:text-white">
                Send us a message
              </h2>
              {status.kind === 'failed' ? (
                <p
                  role="alert"
                  className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800 dark:border-red-500/30 dark:bg-red-500/10 dark:text-red-200"
                >
                  {status.message}
                </p>
              ) : null}
              <div className="grid gap-5 sm:grid-cols-2">
                {field('name', 'Name', { autoComplete: 'name' })}
                {field('email', 'Email', { type: 'email', autoComplete: 'email' })}
              </div>
              {field('company', 'Company', { autoComplete: 'organization', optional: true })}
              {field('message', 'Message', {
                rows: 6,
                hint: `${CONTACT_LIMITS.messageMin} to ${formatCount(CONTACT_LIMITS.messageMax)} characters.`,
              })}
              <button
                type="submit"
                disabled={status.kind === 'sending'}
                className="inline-flex min-h-12 w-full items-center justify-center rounded-xl bg-brand-600 px-6 font-semibold text-white transition hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-70"
              >
                {status.kind === 'sending' ? 'Sending...' : 'Send message'}
              </button>
            </ReadyForm>
          )}
        </div>
      </div>
    </SiteLayout>
  );
};

export default ContactPage;
