import { z } from 'zod';

// The public contact form (issue: /contact). The browser validates with this schema before
// sending and the server validates again with the same one, so both give the same messages.

export const CONTACT_LIMITS = { nameMin: 2, nameMax: 100, companyMax: 120, messageMin: 10, messageMax: 5000 };

// The SPEC's wording for a bad email (section 5).
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const contactMessageSchema = z.object({
  name: z
    .string()
    .trim()
    .min(CONTACT_LIMITS.nameMin, 'Please enter your name (at least 2 characters).')
    .max(CONTACT_LIMITS.nameMax, 'Please keep your name under 100 characters.'),
  email: z
    .string()
    .trim()
    .toLowerCase()
    .max(254, 'Please enter a valid email address.')
    .regex(EMAIL_SHAPE, 'Please enter a valid email address.'),
  company: z
    .string()
    .trim()
    .max(CONTACT_LIMITS.companyMax, 'Please keep the company name under 120 characters.')
    .optional()
    .default(''),
  message: z
    .string()
    .trim()
    .min(CONTACT_LIMITS.messageMin, 'Please write a message of at least 10 characters.')
    .max(CONTACT_LIMITS.messageMax, 'Please keep your message under 5,000 characters.'),
});

export type ContactMessageInput = z.input<typeof contactMessageSchema>;
export type ContactMessage = z.output<typeof contactMessageSchema>;
export type ContactField = keyof ContactMessage;

export const contactReceiptSchema = z.object({ id: z.string(), receivedAt: z.string() });
export type ContactReceipt = z.infer<typeof contactReceiptSchema>;

/** Shown when POST /api/contact answers 429. */
export const CONTACT_RATE_LIMIT = { max: 5, timeWindow: '10 minutes' } as const;
export const CONTACT_RATE_LIMITED_MESSAGE =
  'You have sent several messages in a short time. Please wait 10 minutes and try again.';

/** Field errors for the form: the first problem per field, or null when the input is fine. */
export const contactFieldErrors = (
  input: ContactMessageInput,
): Partial<Record<ContactField, string>> | null => {
  const result = contactMessageSchema.safeParse(input);
  if (result.success) return null;
  const errors: Partial<Record<ContactField, string>> = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as ContactField | undefined;
    if (field && !errors[field]) errors[field] = issue.message;
  }
  return errors;
};
