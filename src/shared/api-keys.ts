import { z } from 'zod';
import { isoDate } from './input.ts';

// API keys per company (issue 19, item 2; docs/api.md "Authentication"; decision 0038).
//
// A key is `kontor_` + 32 random base62 characters + a 6-character base62 CRC32 of those 32
// (45 characters in all), e.g. `kontor_3fQ9…Zr0aB1`. The fixed prefix lets logs, people and
// secret scanners recognise one; the checksum lets a scanner (and the server, before any
// database look-up) tell a real-looking key from a typo or random text. The server stores only
// the SHA-256 of the whole key and the first 15 characters (`kontor_` + 8) to show in lists.

export const API_KEY_PREFIX = 'kontor_';
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
export const API_KEY_LENGTH = API_KEY_PREFIX.length + RANDOM_LENGTH + CHECKSUM_LENGTH;
/** How many characters of a key are kept and shown: the prefix and the first 8 random ones. */
export const API_KEY_VISIBLE_LENGTH = API_KEY_PREFIX.length + 8;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_PATTERN = new RegExp(`^${API_KEY_PREFIX}[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`);

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

const crc32 = (text: string) => {
  let crc = 0xffffffff;
  for (let i = 0; i < text.length; i++)
    crc = (CRC_TABLE[(crc ^ text.charCodeAt(i)) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
};

/** The 6 base62 characters that end a key whose random part is `random`. */
export const apiKeyChecksum = (random: string) => {
  let n = crc32(random);
  let out = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = BASE62[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
};

/** A key from its 32 random base62 characters. */
export const apiKeyFromRandom = (random: string) => `${API_KEY_PREFIX}${random}${apiKeyChecksum(random)}`;

/** Whether a bearer token is meant as an API key (it starts with the prefix), well-formed or not. */
export const isApiKeyToken = (token: string) => token.startsWith(API_KEY_PREFIX);

/** Whether a token is a well-formed key: the prefix, 38 base62 characters and a checksum that fits. */
export const isWellFormedApiKey = (token: string) => {
  if (!KEY_PATTERN.test(token)) return false;
  const random = token.slice(API_KEY_PREFIX.length, API_KEY_PREFIX.length + RANDOM_LENGTH);
  return token.slice(-CHECKSUM_LENGTH) === apiKeyChecksum(random);
};

// --- Scopes -----------------------------------------------------------------------------------

/**
 * What a key may do. `read`: every GET of the company (lists, reports, exports). `write`: every
 * change a member may make in any area. `<area>:write`: changes in that area only. No scope
 * lets a key manage members, invitations, company settings or API keys.
 */
export const API_KEY_SCOPES = [
  'read',
  'write',
  'invoices:write',
  'bills:write',
  'banking:write',
  'ledger:write',
] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export const API_KEY_SCOPE_LABELS: Record<ApiKeyScope, string> = {
  read: 'Read everything',
  write: 'Change everything',
  'invoices:write': 'Change invoicing',
  'bills:write': 'Change bills',
  'banking:write': 'Change banking',
  'ledger:write': 'Change the ledger',
};

export const API_KEY_SCOPE_DESCRIPTIONS: Record<ApiKeyScope, string> = {
  read: 'Every list, record, report and export of the company',
  write: 'Every change a member may make: invoices, bills, banking, ledger, notification settings',
  'invoices:write': 'Customers, items, tax rates, invoices, payments, credit notes, recurring invoices',
  'bills:write': 'Suppliers, bills, approvals, bill payments, supplier credits, recurring bills',
  'banking:write':
    'Money accounts, transfers, bank transactions, rules, matching, reconciliation, statement imports',
  'ledger:write': 'Chart of accounts, journal entries, opening balances, fiscal years, ledger settings',
};

/** The area scopes and the route tags (OpenAPI tags) each covers; `write` covers every area. */
export const API_KEY_AREA_TAGS: Record<Exclude<ApiKeyScope, 'read' | 'write'>, readonly string[]> = {
  'invoices:write': ['invoices'],
  'bills:write': ['payables'],
  'banking:write': ['wallet', 'transactions', 'matching', 'statement import'],
  'ledger:write': ['ledger'],
};

/** Route tags whose changes no key may make (members, invitations, leaving, company settings, keys). */
export const API_KEY_CLOSED_TAGS: readonly string[] = ['companies', 'api keys'];

/** The area scope that covers a change on a route with these tags, or null when only `write` does. */
export const areaScopeOf = (tags: readonly string[]): ApiKeyScope | null => {
  for (const [scope, areaTags] of Object.entries(API_KEY_AREA_TAGS))
    if (tags.some((tag) => areaTags.includes(tag))) return scope as ApiKeyScope;
  return null;
};

// --- Requests and answers ------------------------------------------------------------------------

export const API_KEY_MAX_EXPIRY_DAYS = 5 * 366;

export const apiKeyCreateSchema = z.object({
  name: z.string().trim().min(1, 'Give the key a name.').max(100),
  scopes: z
    .array(z.enum(API_KEY_SCOPES, { error: `must be one of ${API_KEY_SCOPES.join(', ')}` }))
    .min(1, 'Choose at least one scope.')
    .max(API_KEY_SCOPES.length)
    .refine((scopes) => new Set(scopes).size === scopes.length, 'Each scope once.'),
  /** The last day the key works (it stops at the end of that day, UTC); absent or null: never expires. */
  expiresOn: isoDate.nullable().optional(),
});
export type ApiKeyCreate = z.infer<typeof apiKeyCreateSchema>;

/** `disabled`: the member who created the key has left the company, so it works no more. */
export const API_KEY_STATUSES = ['active', 'expired', 'revoked', 'disabled'] as const;
export type ApiKeyStatus = (typeof API_KEY_STATUSES)[number];

export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The key's first characters (`kontor_` + 8), to recognise it; never the whole key. */
  prefix: z.string(),
  scopes: z.array(z.enum(API_KEY_SCOPES)),
  status: z.enum(API_KEY_STATUSES),
  createdAt: z.string(),
  createdBy: z.object({ id: z.string(), name: z.string(), email: z.string() }).nullable(),
  /** When the key stops working (ISO moment), or null. */
  expiresAt: z.string().nullable(),
  /** When the key was last used, to the minute; null when never. */
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

export const apiKeyListSchema = z.object({ keys: z.array(apiKeySchema) });
export type ApiKeyList = z.infer<typeof apiKeyListSchema>;

/** The answer to creating a key: the key's record and, this once, the whole secret. */
export const apiKeyCreatedSchema = z.object({ key: apiKeySchema, secret: z.string() });
export type ApiKeyCreated = z.infer<typeof apiKeyCreatedSchema>;
