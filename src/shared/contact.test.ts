import { describe, expect, it } from 'vitest';
import { contactFieldErrors, contactMessageSchema } from './contact.ts';

const valid = {
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  company: '',
  message: 'Hello, I have a question.',
};

describe('contact message schema', () => {
  it('accepts a complete message and normalises it', () => {
    expect(
      contactMessageSchema.parse({ ...valid, name: '  Ada ', email: ' ADA@Example.com ', company: ' Acme ' }),
    ).toEqual({ name: 'Ada', email: 'ada@example.com', company: 'Acme', message: valid.message });
  });

  it('treats the company as optional', () => {
    const { company: _, ...rest } = valid;
    expect(contactMessageSchema.parse(rest).company).toBe('');
  });

  it('gives one message per field that is wrong', () => {
    expect(contactFieldErrors({ name: ' A ', email: 'ada@', company: '', message: '   short   ' })).toEqual({
      name: 'Please enter your name (at least 2 characters).',
      email: 'Please enter a valid email address.',
      message: 'Please write a message of at least 10 characters.',
    });
    expect(contactFieldErrors(valid)).toBeNull();
  });

  it.each(['a b@example.com', 'ada@example', '@example.com', 'ada@@example.com', ''])(
    'refuses the email %j',
    (email) => {
      expect(contactFieldErrors({ ...valid, email })?.email).toBe('Please enter a valid email address.');
    },
  );

  it('enforces the upper limits', () => {
    expect(contactFieldErrors({ ...valid, name: 'x'.repeat(101) })?.name).toBeDefined();
    expect(contactFieldErrors({ ...valid, company: 'x'.repeat(121) })?.company).toBeDefined();
    expect(contactFieldErrors({ ...valid, message: 'x'.repeat(5001) })?.message).toBeDefined();
    expect(contactFieldErrors({ ...valid, message: 'x'.repeat(5000) })).toBeNull();
  });
});
