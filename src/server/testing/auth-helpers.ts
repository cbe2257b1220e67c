import type { App } from '../app.ts';
import { cookieFrom, testClientIp } from './users.ts';

// Calls to the auth API as a browser would make them (Origin header, own client address).

let ipCounter = 100_000;

/** A client address no other helper call has used. */
export const freshIp = () => {
  ipCounter += 1;
  return testClientIp(ipCounter);
};

export const authPost = async (
  app: App,
  path: string,
  payload: unknown,
  options: { cookie?: string; ip?: string; headers?: Record<string, string> } = {},
) => {
  const res = await app.inject({
    method: 'POST',
    url: `/api/auth${path}`,
    headers: {
      origin: 'http://localhost:3000',
      'x-forwarded-for': options.ip ?? freshIp(),
      ...(options.cookie ? { cookie: options.cookie } : {}),
      ...options.headers,
    },
    payload: payload as Record<string, unknown>,
  });
  return {
    res,
    status: res.statusCode,
    body: res.body ? (res.json() as Record<string, any>) : null,
    cookie: cookieFrom(res.headers['set-cookie']),
  };
};

export const authGet = async (app: App, path: string, cookie?: string) => {
  const res = await app.inject({
    method: 'GET',
    url: `/api/auth${path}`,
    headers: { origin: 'http://localhost:3000', ...(cookie ? { cookie } : {}) },
  });
  return { res, status: res.statusCode, body: res.body ? (res.json() as any) : null };
};

/** The newest outbox mail to an address (the development mailbox API). */
export const latestMail = async (app: App, to: string) => {
  const list = await app.inject({ method: 'GET', url: `/api/dev/mailbox?to=${encodeURIComponent(to)}` });
  const messages = (list.json() as { messages: { id: string; subject: string }[] }).messages;
  if (messages.length === 0) return null;
  const one = await app.inject({ method: 'GET', url: `/api/dev/mailbox/${messages[0]!.id}` });
  return one.json() as { id: string; to: string; subject: string; text: string; html: string | null };
};

export const mailsTo = async (app: App, to: string) => {
  const list = await app.inject({ method: 'GET', url: `/api/dev/mailbox?to=${encodeURIComponent(to)}` });
  return (list.json() as { messages: { id: string; subject: string }[] }).messages;
};

export const resetTokenFrom = (text: string) => {
  const match = /reset-password\?token=([^\s&]+)/.exec(text);
  if (!match) throw new Error(`no reset link in: ${text}`);
  return decodeURIComponent(match[1]!);
};
