import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { badRequest } from '../../../shared/errors.ts';
import type { AppContext } from '../../context.ts';

// Where a webhook may be sent (docs/webhooks.md, "Where webhooks may go"). A deployed server
// (APP_ENV production or staging) sends only to https URLs whose host resolves to public
// addresses: never loopback, private (RFC 1918, unique-local), link-local (where cloud metadata
// answers, 169.254.169.254), carrier-grade NAT, multicast, reserved or unspecified ones. The
// check runs when an endpoint is saved and again before every delivery, after resolving the
// name, and the request then goes to the very address that was checked (`pinnedLookup`), so a
// name that changes its answer between the check and the connection (DNS rebinding) cannot
// slip through. Development and test servers may send to http and to this machine, so local
// receivers work.

export const isDeployed = (ctx: AppContext) =>
  ctx.config.app.ENVIRONMENT === 'production' || ctx.config.app.ENVIRONMENT === 'staging';

/** Whether an address is one a deployed server may send to (ipaddr.js ranges: only 'unicast'). */
export const isPublicAddress = (address: string) => {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
  }
  return parsed.range() === 'unicast';
};

export type ResolvedTarget = { url: URL; address: string | null; family: 4 | 6 | null };

const refuse = (message: string) => badRequest('webhook_url_not_allowed', message);

const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

/**
 * Checks a URL for the server's environment and answers where to send. On a deployed server:
 * https only, no credentials in the URL, and every address the host resolves to must be public
 * (the first is the one to connect to). 400 `webhook_url_not_allowed` otherwise.
 */
export const checkWebhookUrl = async (ctx: AppContext, text: string): Promise<ResolvedTarget> => {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw refuse('The webhook URL is not a valid URL.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw refuse('The webhook URL must start with https:// (or http:// on a development server).');
  if (url.username || url.password) throw refuse('The webhook URL must not contain a user name or password.');
  if (!isDeployed(ctx)) return { url, address: null, family: null };
  if (url.protocol !== 'https:') throw refuse('The webhook URL must use https://.');
  const host = hostOf(url);
  if (ipaddr.isValid(host)) {
    if (!isPublicAddress(host))
      throw refuse(`The webhook URL points at ${host}, a private, loopback or reserved address.`);
    return { url, address: host, family: host.includes(':') ? 6 : 4 };
  }
  if (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host.endsWith('.internal') ||
    host.endsWith('.local')
  )
    throw refuse(`The webhook URL's host ${host} is a local name.`);
  let addresses: { address: string; family: number }[];
  try {
    addresses = await lookup(host, { all: true, verbatim: true });
  } catch {
    throw refuse(`The webhook URL's host ${host} could not be found (DNS).`);
  }
  if (addresses.length === 0) throw refuse(`The webhook URL's host ${host} could not be found (DNS).`);
  const bad = addresses.find((a) => !isPublicAddress(a.address));
  if (bad)
    throw refuse(
      `The webhook URL's host ${host} resolves to ${bad.address}, a private, loopback or reserved address.`,
    );
  const first = addresses[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
};
