import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { isApiErrorBody } from '../../shared/errors.ts';
import { createTestApp } from './app.ts';
import { type TestCompany, addTestMember, createTestCompany } from './companies.ts';
import { contractChecker } from './contract.ts';
import { testDatabaseKind } from './db.ts';
import { ensureLedger } from './invoices.ts';
import { seedTestPayables } from './payables-seed.ts';

// The walk over every operation of the app's own /api/openapi.json, shared by the bad-input
// fuzz test (src/server/fuzz.test.ts, issue 11) and the contract test
// (src/server/contract.test.ts, issue 22). Two companies are seeded with one or two of every
// resource; then, for each operation, a valid request (every field a valid value of company
// A's) and requests with one bad value each — for each path parameter, query parameter, header
// and JSON body field (recursively into nested objects and arrays) — so the bad value reaches
// the service and the database, not just the schema. Every answer must be < 500, every 4xx the
// standard `{ error: { code, message } }`, and every answer what the document says: a listed
// status, its content type and a body its schema accepts (testing/contract.ts).
//
// The fuzz mode sends a catalogue of bad input — wrong types, empty, null, missing and extra
// fields, huge and negative numbers, non-decimal text and digits of other scripts, NUL bytes,
// lone surrogates, odd Unicode, impossible and far-away dates, ids that are not ids or belong
// to another company, malformed percent-encoding and over-long path parameters. The whole
// catalogue is large, so each field gets the sharpest values ("core") plus a deterministic
// sample of the rest (seed FUZZ_SEED, default below); FUZZ_FULL=1 sends all,
// FUZZ_ONLY=<regex on "METHOD /path"> walks only matching operations, FUZZ_SAMPLE=<n> sets how
// many non-core values each field gets (CI's PostgreSQL pass sends 1, with another seed).
// The contract mode sends one value of each kind that changes the answer (CONTRACT_CASES), the
// request signed out, and a change from another site and in a content type it does not read.

export type OpenApiDocument = { paths: Record<string, Record<string, Record<string, unknown>>> };

type Schema = {
  type?: string | string[];
  format?: string;
  pattern?: string;
  enum?: unknown[];
  const?: unknown;
  nullable?: boolean;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean | number;
  minItems?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  default?: unknown;
};
type Parameter = { in: 'path' | 'query' | 'header'; name: string; required?: boolean; schema?: Schema };
type Operation = {
  method: string;
  path: string;
  parameters: Parameter[];
  body?: Schema;
  bodyRequired: boolean;
  /** The operation needs a session (its `security` has no empty alternative). */
  signedIn: boolean;
};
type Case = { label: string; value: unknown; core?: boolean; missing?: boolean };
type Pools = Record<string, string[]>;

const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const FULL = process.env.FUZZ_FULL === '1';
/** Only operations whose "METHOD /path" matches, while working on one route. */
const ONLY = process.env.FUZZ_ONLY ? new RegExp(process.env.FUZZ_ONLY) : undefined;
const SAMPLE_PER_FIELD = Number(process.env.FUZZ_SAMPLE ?? 3);
const MISSING = Symbol('missing');

// Error codes of src/server/http/input.ts `databaseRefusal`.
const SAFETY_NET_CODES = new Set([
  'invalid_value',
  'unknown_reference',
  'still_referenced',
  'already_exists',
]);

const DATE_PATTERN = '^[0-9]{4}-[0-9]{2}-[0-9]{2}$';
const VALID_DATE = '2026-03-15';

// --- The catalogue ---------------------------------------------------------------------

/** What a string field holds decides which of its values are sharpest ("core"). */
type StringFocus = 'date' | 'decimal' | 'text';

const stringCases = (focus: StringFocus = 'text'): Case[] => [
  { label: 'empty string', value: '', core: true },
  { label: 'NUL byte', value: 'a\u0000b', core: true },
  { label: 'lone high surrogate', value: '\ud800', core: true },
  { label: 'lone low surrogate', value: 'x\udc00y' },
  { label: 'non-decimal text', value: 'abc', core: focus !== 'text' },
  { label: '100k characters', value: 'x'.repeat(100_000), core: true },
  { label: 'year 9999', value: '9999-12-31', core: focus === 'date' },
  { label: 'year 0000', value: '0000-01-01', core: focus === 'date' },
  { label: 'February 30th', value: '2026-02-30' },
  { label: 'month 13', value: '2026-13-01' },
  { label: 'whitespace', value: '   ' },
  { label: 'RTL override', value: '\u202eevil\u202c' },
  { label: 'emoji', value: '💸🏦👩‍👩‍👧' },
  { label: 'combining marks', value: `e${'\u0301'.repeat(50)}` },
  { label: 'NaN text', value: 'NaN' },
  { label: 'Infinity text', value: 'Infinity' },
  { label: 'minus zero text', value: '-0' },
  { label: 'exponent text', value: '1e400' },
  { label: 'hex text', value: '0x1F' },
  { label: 'Arabic digits', value: '١٢٣' },
  // Digits of other scripts: a client whose regex engine reads `\d` as any digit sends these.
  { label: 'Unicode digits', value: '٣෮๒', core: focus !== 'text' },
  { label: 'comma decimal', value: '12,34' },
  { label: 'two points', value: '1.2.3' },
  { label: 'negative decimal', value: '-12.5' },
  { label: 'huge decimal', value: `${'9'.repeat(400)}.5` },
  { label: 'SQL', value: "'; drop table accounts; --" },
  { label: 'not a uuid', value: 'not-a-uuid' },
  { label: 'random uuid', value: randomUUID() },
  { label: '5000-char id', value: 'a'.repeat(5000) },
  { label: 'percent text', value: '%E0%A4%A' },
  { label: 'path traversal', value: '../../etc/passwd' },
  { label: 'CRLF', value: 'a\r\nb: c' },
];

const numberCases = (): Case[] => [
  { label: 'string for number', value: '12', core: true },
  { label: 'NaN-like string', value: 'NaN', core: true },
  { label: 'negative', value: -1, core: true },
  { label: '2^53', value: 2 ** 53, core: true },
  { label: 'huge', value: 1e308, core: true },
  { label: 'fraction', value: 1.5, core: true },
  { label: '-0', value: -0 },
  { label: 'zero', value: 0 },
  { label: '-2^53', value: -(2 ** 53) },
  { label: 'max safe', value: Number.MAX_SAFE_INTEGER },
  { label: 'min safe', value: Number.MIN_SAFE_INTEGER },
  { label: '2^31', value: 2 ** 31 },
  { label: 'tiny fraction', value: 1e-9 },
  { label: 'empty string', value: '' },
];

const typeCases = (schema: Schema): Case[] => {
  const t = typeOf(schema);
  const out: Case[] = [
    { label: 'null', value: null, core: true },
    { label: 'missing', value: MISSING, core: true, missing: true },
    { label: 'object', value: { a: 1 }, core: true },
    { label: 'array', value: ['x'], core: true },
  ];
  if (t !== 'boolean') out.push({ label: 'boolean', value: true, core: true });
  if (t !== 'number' && t !== 'integer') out.push({ label: 'number', value: 123, core: true });
  if (t !== 'string') out.push({ label: 'string', value: 'x', core: true });
  return out;
};

const focusOf = (schema: Schema, name: string): StringFocus => {
  const s = pick(schema);
  if (s.pattern === DATE_PATTERN || /date$|^from$|^to$|^asOf$/i.test(name)) return 'date';
  if (s.pattern?.includes('[0-9]') || /rate|percent|quantity|amount/i.test(name)) return 'decimal';
  return 'text';
};

const casesFor = (schema: Schema, name: string, foreign: string | undefined): Case[] => {
  const t = typeOf(schema);
  const out = typeCases(schema);
  if (t === 'string') out.push(...stringCases(focusOf(schema, name)));
  if (t === 'number' || t === 'integer') out.push(...numberCases());
  if (t === 'array') {
    out.push({ label: 'empty array', value: [], core: true }, { label: 'array of null', value: [null] });
    const item = schema.items ? validValue(schema.items, '', {}) : 'x';
    out.push({ label: '5000 items', value: Array.from({ length: 5000 }, () => item) });
  }
  if (t === 'object') out.push({ label: 'empty object', value: {}, core: true });
  if (foreign) out.push({ label: "another company's id", value: foreign, core: true });
  return out;
};

const pathCases = (foreign: string | undefined): Case[] => [
  { label: 'not a uuid', value: 'not-a-uuid', core: true },
  { label: 'random uuid', value: randomUUID(), core: true },
  { label: 'malformed percent-encoding', value: '%E0%A4%A', core: true },
  { label: 'lone percent', value: '%', core: true },
  { label: 'encoded NUL', value: 'a%00b', core: true },
  { label: 'encoded lone surrogate', value: '%ED%A0%80', core: true },
  { label: '5000-char id', value: 'a'.repeat(5000), core: true },
  { label: '101-char id', value: 'b'.repeat(101), core: true },
  { label: 'year 9999', value: '9999-12-31', core: true },
  { label: 'February 30th', value: '2026-02-30' },
  { label: 'bad hex', value: '%ZZ' },
  { label: 'encoded emoji', value: encodeURIComponent('💸') },
  { label: 'encoded slash', value: 'a%2Fb' },
  { label: 'dot dot', value: '..' },
  ...(foreign ? [{ label: "another company's id", value: foreign, core: true }] : []),
];

/** encodeURIComponent, with lone surrogates written as their (invalid) UTF-8 bytes. */
const encodeLoosely = (text: string) =>
  text
    .split(/([\ud800-\udfff])/)
    .map((part) => (/^[\ud800-\udfff]$/.test(part) ? '%ED%A0%80' : encodeURIComponent(part)))
    .join('');

const queryCases = (name: string, foreign: string | undefined): Case[] => [
  ...stringCases(focusOf({}, name)).map((c) => ({ ...c, value: encodeLoosely(String(c.value)) })),
  { label: 'malformed percent-encoding', value: '%E0%A4%A', core: true },
  { label: 'encoded lone surrogate', value: '%ED%A0%80', core: true },
  { label: 'lone percent', value: '%', core: true },
  { label: 'negative', value: '-1', core: true },
  { label: '2^53', value: String(2 ** 53), core: true },
  { label: 'repeated', value: ['1', '2'], core: true },
  ...(foreign ? [{ label: "another company's id", value: foreign, core: true }] : []),
];

const multipartCases = (): [string, string | Buffer, string][] => {
  const boundary = 'fuzzboundary7MA4YWxkTrZu0gW';
  const type = `multipart/form-data; boundary=${boundary}`;
  const part = (disposition: string, contentType: string, content: string | Buffer) =>
    Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; ${disposition}\r\nContent-Type: ${contentType}\r\n\r\n`,
      ),
      Buffer.from(content),
      Buffer.from('\r\n'),
    ]);
  const form = (...parts: Buffer[]) => Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]);
  const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
  return [
    [
      'non-ASCII file name',
      form(part('name="file"; filename="Quittung März 報告 💸.pdf"', 'application/pdf', pdf)),
      type,
    ],
    [
      'RFC 5987 file name',
      form(
        part(`name="file"; filename*=UTF-8''${encodeURIComponent('reçu été.pdf')}`, 'application/pdf', pdf),
      ),
      type,
    ],
    [
      'malformed RFC 5987 name',
      form(part('name="file"; filename*=UTF-8\'\'%E0%A4%A.pdf', 'application/pdf', pdf)),
      type,
    ],
    ['path in file name', form(part('name="file"; filename="../../etc/passwd"', 'text/plain', 'x')), type],
    [
      '1000-char file name',
      form(part(`name="file"; filename="${'n'.repeat(1000)}.pdf"`, 'application/pdf', pdf)),
      type,
    ],
    ['empty file name', form(part('name="file"; filename=""', 'application/pdf', pdf)), type],
    ['empty file', form(part('name="file"; filename="empty.pdf"', 'application/pdf', '')), type],
    [
      'lying content type',
      form(part('name="file"; filename="x.pdf"', 'application/pdf', 'MZ\u0090\u0000binary')),
      type,
    ],
    ['field, no file', form(part('name="note"', 'text/plain', 'hello')), type],
    ['no parts', form(), type],
    ['broken multipart', `--${boundary}\r\nContent-Disposition: form-data; name="file"\r\n`, type],
    ['no boundary', 'x', 'multipart/form-data'],
  ];
};

// --- Valid values from the schema --------------------------------------------------------

const typeOf = (schema: Schema): string | undefined => {
  const s = pick(schema);
  if (Array.isArray(s.type)) return s.type.find((t) => t !== 'null');
  if (s.type) return s.type;
  if (s.properties) return 'object';
  if (s.enum) return typeof s.enum[0];
  return undefined;
};

/** The first non-null branch of a union. */
const pick = (schema: Schema): Schema => {
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return pick(branches.find((b) => b.type !== 'null') ?? branches[0]!);
  if (schema.allOf?.length) return Object.assign({}, ...schema.allOf.map(pick));
  return schema;
};

// Which pool of real ids a field or parameter name draws from.
const KIND_BY_NAME: Record<string, string> = {
  organizationId: 'org',
  moneyAccountId: 'moneyAccount',
  fromAccountId: 'moneyAccount',
  toAccountId: 'moneyAccount',
  accountId: 'account',
  parentId: 'account',
  categoryAccountId: 'account',
  setCategoryAccountId: 'account',
  incomeAccountId: 'account',
  depositAccountId: 'bankLedger',
  categoryId: 'account',
  customerId: 'customer',
  itemId: 'item',
  taxRateId: 'taxRate',
  taxRateIds: 'taxRate',
  invoiceId: 'invoice',
  entryId: 'entry',
  entityId: 'entry',
  scheduleId: 'schedule',
  paymentId: 'payment',
  creditNoteId: 'creditNote',
  attachmentId: 'attachment',
  userId: 'user',
  invitationId: 'invitation',
  transactionIds: 'transaction',
  ids: 'transaction',
  reconciliationId: 'reconciliation',
  importId: 'statementImport',
  supplierId: 'supplier',
  billId: 'bill',
  batchId: 'billBatch',
  creditId: 'supplierCredit',
  allocationId: 'creditAllocation',
  refundId: 'supplierRefund',
  paymentAccountId: 'bankLedger',
  endpointId: 'webhookEndpoint',
  deliveryId: 'webhookDelivery',
  keyId: 'apiKey',
  connectionId: 'bankConnection',
  feedAccountId: 'bankFeedAccount',
};
// Where a parameter's name means another kind under one path (a bill's payment, a bill schedule).
const KIND_BY_PATH: [RegExp, string, string][] = [
  [/^\/api\/orgs\/\{organizationId\}\/bills\/\{billId\}\/payments\//, 'paymentId', 'billPayment'],
  [/^\/api\/orgs\/\{organizationId\}\/bill-schedules\//, 'scheduleId', 'billSchedule'],
  [/^\/api\/orgs\/\{organizationId\}\/bills\/\{billId\}\/attachments\//, 'attachmentId', 'billAttachment'],
  // The admin console (A's owner is a platform admin here) and A's own billing.
  [/^\/api\/admin\/users\//, 'id', 'adminUser'],
  [/^\/api\/admin\/promo-codes\//, 'code', 'promoCode'],
  [/^\/api\/admin\/contact-messages\//, 'id', 'contactMessage'],
  [/^\/api\/billing\/checkout-sessions\//, 'id', 'checkoutSession'],
];
const KIND_BY_COLLECTION: Record<string, string> = {
  accounts: 'moneyAccount',
  transfers: 'transfer',
  transactions: 'transaction',
  'transaction-rules': 'rule',
  reconciliations: 'reconciliation',
};

type ValueContext = { pools?: Pools; used?: Map<string, number> };

const poolValue = (kind: string | undefined, ctx: ValueContext) => {
  const pool = kind ? ctx.pools?.[kind] : undefined;
  if (!kind || !pool?.length) return undefined;
  const n = ctx.used?.get(kind) ?? 0;
  ctx.used?.set(kind, n + 1);
  return pool[n % pool.length];
};

const SAMPLE_STRINGS = ['USD', VALID_DATE, '1', 'fuzz@example.com', 'Fuzz value', 'x'];

const validValue = (raw: Schema, name: string, ctx: ValueContext): unknown => {
  const schema = pick(raw);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  const t = typeOf(schema);
  const kind = KIND_BY_NAME[name];
  switch (t) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const key of schema.required ?? []) {
        const prop = schema.properties?.[key];
        if (prop) out[key] = validValue(prop, key, ctx);
      }
      return out;
    }
    case 'array': {
      const count = Math.max(schema.minItems ?? 1, 1);
      return Array.from({ length: count }, () => validValue(schema.items ?? {}, name, ctx));
    }
    case 'integer':
    case 'number': {
      const min = typeof schema.minimum === 'number' ? schema.minimum : undefined;
      const max = typeof schema.maximum === 'number' ? schema.maximum : undefined;
      let v = /amount|price|balance/i.test(name) ? 1000 : 1;
      if (min !== undefined && v < min) v = min + (schema.exclusiveMinimum === true ? 1 : 0);
      if (max !== undefined && v > max) v = max;
      return v;
    }
    case 'boolean':
      return false;
    case 'string': {
      const fromPool = poolValue(kind, ctx);
      if (fromPool) return fromPool;
      if (schema.pattern === DATE_PATTERN) return VALID_DATE;
      if (schema.format === 'email' || /email|^to$/i.test(name)) return 'fuzz@example.com';
      if (schema.format === 'uuid' || kind) return randomUUID();
      if (schema.format === 'date-time') return '2026-03-15T10:00:00.000Z';
      if (schema.format === 'uri' || /url/i.test(name)) return 'https://example.com/a.png';
      if (schema.pattern === DATE_PATTERN || /date$|^from$|^to$|^asOf$/i.test(name)) return VALID_DATE;
      if (/currency/i.test(name)) return 'USD';
      if (schema.pattern) {
        const re = new RegExp(schema.pattern);
        const fit = SAMPLE_STRINGS.find((s) => re.test(s));
        if (fit) return fit;
      }
      const length = Math.max(schema.minLength ?? 1, 10);
      return 'Fuzz value'.padEnd(length, 'x').slice(0, schema.maxLength ?? length);
    }
    default:
      return 'x';
  }
};

// --- Reading the OpenAPI document ----------------------------------------------------------

const operationsOf = (doc: OpenApiDocument): Operation[] => {
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const content = (op.requestBody as { content?: Record<string, { schema: Schema }> } | undefined)
        ?.content;
      ops.push({
        method: method.toUpperCase(),
        path,
        parameters: (op.parameters as Parameter[] | undefined) ?? [],
        body: content?.['application/json']?.schema,
        bodyRequired: Boolean((op.requestBody as { required?: boolean } | undefined)?.required),
        signedIn:
          ((op.security as object[] | undefined) ?? []).some((s) => Object.keys(s).length > 0) &&
          !((op.security as object[] | undefined) ?? []).some((s) => Object.keys(s).length === 0),
      });
    }
  }
  // Read first, then write, then what changes the company's settings or members, deletes last:
  // so a fuzzed lock date or a deleted resource hides as little as possible from the rest.
  const phase = (o: Operation) => {
    if (o.path.endsWith('/leave')) return 4;
    if (o.method === 'GET') return 0;
    if (o.method === 'DELETE') return 3;
    if (
      /ledger\/settings|fiscal-years|\/leave|\/members|\{answer\}|^\/api\/orgs\/\{organizationId\}$/.test(
        o.path,
      )
    )
      return 2;
    return 1;
  };
  return ops.sort((a, b) => phase(a) - phase(b));
};

const kindOfPathParam = (path: string, name: string) => {
  const special = KIND_BY_PATH.find(([pattern, param]) => param === name && pattern.test(path));
  if (special) return special[2];
  if (KIND_BY_NAME[name]) return KIND_BY_NAME[name];
  const segments = path.split('/');
  const at = segments.indexOf(`{${name}}`);
  const collection = segments[at - 1] ?? '';
  if (collection === 'accounts' && segments[at - 2] !== 'wallet') return 'account';
  return KIND_BY_COLLECTION[collection];
};

// --- Deterministic sampling -------------------------------------------------------------------

/** How many values a walk sends: the fuzz catalogue, or the contract test's few per field. */
export type WalkMode = 'fuzz' | 'contract';

// The contract walk sends one value of each kind that makes an operation answer differently:
// a wrong type, a digit of another script, an unknown or another company's id, an over-long
// or malformed path parameter, a repeated query parameter.
const CONTRACT_CASES = new Set([
  'null',
  'Unicode digits',
  'random uuid',
  '5000-char id',
  'malformed percent-encoding',
  "another company's id",
  'repeated',
  'broken JSON',
  'string',
  'no boundary',
  'field, no file',
]);

let sampleCounter = 0;
const sampled = (cases: Case[], mode: WalkMode = 'fuzz'): Case[] => {
  if (mode === 'contract') return cases.filter((c) => CONTRACT_CASES.has(c.label));
  if (FULL) return cases;
  const core = cases.filter((c) => c.core);
  const rest = cases.filter((c) => !c.core);
  if (rest.length <= SAMPLE_PER_FIELD) return cases;
  const [chosen] = fc.sample(
    fc.shuffledSubarray(rest, { minLength: SAMPLE_PER_FIELD, maxLength: SAMPLE_PER_FIELD }),
    { seed: SEED + sampleCounter++, numRuns: 1 },
  );
  return [...core, ...(chosen ?? [])];
};

// --- Body field paths ---------------------------------------------------------------------------

type FieldPath = (string | number)[];

/** Every field of a body schema, recursively, with the schema at that place. */
const fieldsOf = (schema: Schema, prefix: FieldPath = []): { path: FieldPath; schema: Schema }[] => {
  const s = pick(schema);
  const out: { path: FieldPath; schema: Schema }[] = [];
  const t = typeOf(s);
  if (t === 'object') {
    for (const [key, prop] of Object.entries(s.properties ?? {})) {
      out.push({ path: [...prefix, key], schema: prop });
      out.push(...fieldsOf(prop, [...prefix, key]));
    }
  } else if (t === 'array' && s.items) {
    out.push(...fieldsOf(s.items, [...prefix, 0]));
  }
  return out;
};

const withField = (body: unknown, path: FieldPath, value: unknown, schemaAt: (p: FieldPath) => Schema) => {
  const copy = structuredClone(body ?? {}) as Record<string | number, unknown>;
  let node: Record<string | number, unknown> = copy;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i]!;
    if (node[key] === undefined || node[key] === null || typeof node[key] !== 'object') {
      node[key] = validValue(schemaAt(path.slice(0, i + 1)), String(key), {});
    }
    node = node[key] as Record<string | number, unknown>;
  }
  const last = path[path.length - 1]!;
  if (value === MISSING) {
    if (Array.isArray(node) && typeof last === 'number') node.splice(last, 1);
    else delete node[last];
  } else node[last] = value;
  return copy;
};

const schemaAtPath = (root: Schema, path: FieldPath): Schema => {
  let s = pick(root);
  for (const key of path) {
    s = pick(typeof key === 'number' ? (s.items ?? {}) : (s.properties?.[key] ?? {}));
  }
  return s;
};

// --- The walk -----------------------------------------------------------------------------

/**
 * The walk: `setUp()` builds the app and seeds it (in a beforeAll), `walk(mode)` sends the
 * requests and returns what failed, `close()` ends it.
 */
export const createOpenApiWalk = () => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let a: TestCompany;
  let b: TestCompany;
  const poolsA: Pools = {};
  const poolsB: Pools = {};
  let ops: Operation[];
  let doc: OpenApiDocument;
  let contract: ReturnType<typeof contractChecker>;
  let clientIp = 0;

  const request = async (
    method: string,
    url: string,
    options: {
      cookie?: string;
      body?: unknown;
      rawBody?: string | Buffer;
      headers?: Record<string, string>;
    } = {},
  ) => {
    const hasBody = options.rawBody !== undefined || options.body !== undefined;
    const res = await t.app.inject({
      method: method as 'GET',
      url,
      headers: {
        ...(options.cookie ? { cookie: options.cookie } : {}),
        ...(hasBody ? { 'content-type': 'application/json' } : {}),
        // Development routes answer only this machine; everything else comes from many addresses.
        ...(url.startsWith('/api/dev/')
          ? {}
          : { 'x-forwarded-for': `10.99.${(clientIp >> 8) & 255}.${clientIp++ & 255}` }),
        ...options.headers,
      },
      ...(hasBody ? { payload: options.rawBody ?? JSON.stringify(options.body) } : {}),
    });
    return res;
  };

  /** Seeds one company with one or two of every resource and returns their ids by kind. */
  const seed = async (company: TestCompany, pools: Pools) => {
    await ensureLedger(t.database, company);
    const add = (kind: string, id: unknown) => {
      if (typeof id === 'string') pools[kind] = [...(pools[kind] ?? []), id];
      return id as string;
    };
    add('org', company.id);
    const base = `/api/orgs/${company.id}`;
    const post = async (kind: string, path: string, body: unknown) => {
      const res = await request('POST', `${base}${path}`, { cookie: company.owner.cookie, body });
      if (res.statusCode >= 300) throw new Error(`seed ${path}: ${res.statusCode} ${res.body}`);
      return add(kind, res.json().id);
    };
    const accounts = (await request('GET', `${base}/accounts`, { cookie: company.owner.cookie })).json();
    const list = (Array.isArray(accounts) ? accounts : (accounts.accounts ?? accounts.items)) as {
      id: string;
      type: string;
    }[];
    const byType = (type: string) => list.find((x) => x.type === type)!.id;
    add('account', byType('expense'));
    add('account', byType('income'));
    const m1 = await post('moneyAccount', '/wallet/accounts', {
      name: 'Checking',
      kind: 'bank',
      currency: 'USD',
      openingDate: '2026-01-01',
      openingBalance: 500_000,
    });
    const m2 = await post('moneyAccount', '/wallet/accounts', {
      name: 'Cash box',
      kind: 'cash',
      currency: 'USD',
      openingDate: '2026-01-01',
    });
    const m1Row = await request('GET', `${base}/wallet/accounts/${m1}`, { cookie: company.owner.cookie });
    add('bankLedger', m1Row.json().ledgerAccountId ?? m1Row.json().account?.ledgerAccountId);
    const customer = await post('customer', '/customers', { name: 'Northwind', email: 'n@example.com' });
    const taxRate = await post('taxRate', '/tax-rates', { name: 'VAT 20%', percent: '20' });
    await post('item', '/items', { name: 'Consulting', unitPrice: 12_500, taxRateId: taxRate });
    const tx = await post('transaction', '/transactions', {
      moneyAccountId: m1,
      date: '2026-03-01',
      description: 'Coffee beans',
      amount: -1_250,
      categoryAccountId: pools.account![0],
    });
    await post('transaction', '/transactions', {
      moneyAccountId: m1,
      date: '2026-03-02',
      description: 'Sale',
      amount: 5_000,
    });
    // An imported statement with a money-in line, for the matching routes.
    await post('statementImport', '/statement-imports', {
      moneyAccountId: m1,
      fileName: 'march.csv',
      format: 'csv',
      content: 'date,description,amount\n2026-03-02,Customer payment,50.00\n',
      mapping: { dateColumn: 0, descriptionColumn: 1, amountColumn: 2, dateFormat: 'YYYY-MM-DD' },
    });
    await post('transfer', '/wallet/transfers', {
      fromAccountId: m1,
      toAccountId: m2,
      date: '2026-03-03',
      amount: 1_000,
    });
    await post('rule', '/transaction-rules', {
      name: 'Coffee',
      descriptionContains: 'coffee',
      setCategoryAccountId: pools.account![0],
    });
    await post('reconciliation', '/reconciliations', {
      moneyAccountId: m1,
      statementDate: '2026-03-31',
      statementBalance: 1_000,
    });
    await post('attachment', `/transactions/${tx}/attachments`, {
      fileName: 'receipt.txt',
      contentType: 'text/plain',
      dataBase64: Buffer.from('receipt').toString('base64'),
    });
    const lines = [
      { accountId: pools.account![0], debit: 700 },
      { accountId: pools.account![1], credit: 700 },
    ];
    await post('entry', '/journal-entries', { date: '2026-03-04', memo: 'Draft', lines, status: 'draft' });
    await post('entry', '/journal-entries', { date: '2026-03-05', memo: 'Posted', lines });
    const invoiceBody = {
      customerId: customer,
      issueDate: '2026-03-06',
      lines: [{ description: 'Work', quantity: '2', unitPrice: 10_000, taxRateIds: [taxRate] }],
    };
    await post('invoice', '/invoices', invoiceBody);
    const sent = await post('invoice', '/invoices', invoiceBody);
    await request('POST', `${base}/invoices/${sent}/send`, {
      cookie: company.owner.cookie,
      body: { email: false },
    });
    const payment = await request('POST', `${base}/invoices/${sent}/payments`, {
      cookie: company.owner.cookie,
      body: { date: '2026-03-07', amount: 1_000, depositAccountId: pools.bankLedger?.[0] },
    });
    const last = (list: unknown) => (Array.isArray(list) ? (list.at(-1) as { id?: string })?.id : undefined);
    if (payment.statusCode < 300)
      add('payment', payment.json().payment?.id ?? last(payment.json().payments) ?? payment.json().id);
    const credit = await request('POST', `${base}/invoices/${sent}/credit-notes`, {
      cookie: company.owner.cookie,
      body: { date: '2026-03-08', lines: [{ description: 'Refund', quantity: '1', unitPrice: 500 }] },
    });
    if (credit.statusCode < 300)
      add('creditNote', credit.json().creditNote?.id ?? last(credit.json().creditNotes) ?? credit.json().id);
    await post('schedule', '/recurring-invoices', {
      customerId: customer,
      frequency: 'monthly',
      startDate: '2026-04-01',
      lines: [{ description: 'Retainer', quantity: '1', unitPrice: 50_000 }],
    });
    // Invitations and members are optional here (they may need a verified sender).
    const invitation = await request('POST', `${base}/invitations`, {
      cookie: company.owner.cookie,
      body: { email: `invitee-${company.id}@example.com`, role: 'viewer' },
    });
    if (invitation.statusCode < 300) add('invitation', invitation.json().id);
    const apiKey = await request('POST', `${base}/api-keys`, {
      cookie: company.owner.cookie,
      body: { name: 'Fuzz key', scopes: ['read'] },
    });
    if (apiKey.statusCode < 300) add('apiKey', apiKey.json().key.id);
    // A bank connection through the Demo Bank (issue 18), with its two accounts.
    const feed = await request('POST', `${base}/bank-feeds/connections`, {
      cookie: company.owner.cookie,
      body: { publicToken: `demo-public:demo-us:walk-${company.id}` },
    });
    if (feed.statusCode < 300) {
      add('bankConnection', feed.json().id);
      for (const a of feed.json().accounts as { id: string }[]) add('bankFeedAccount', a.id);
    }
    const member = await addTestMember(t.app, company, 'accountant').catch(() => undefined);
    if (member) add('user', member.id);
    // Payables: the open bill first (paying and its sub-routes), then the draft and the paid one.
    const payables = await seedTestPayables(t.app, t.database, company);
    add('supplier', payables.supplierId);
    for (const id of [payables.openBillId, payables.draftBillId, payables.paidBillId]) add('bill', id);
    add('billPayment', payables.paymentId);
    add('billBatch', payables.batchId);
    add('supplierCredit', payables.creditId);
    add('creditAllocation', payables.allocationId);
    add('supplierRefund', payables.refundId);
    add('billSchedule', payables.scheduleId);
    add('billAttachment', payables.attachmentId);
    // A webhook endpoint (to a closed local port; nothing runs the deliveries here) and one delivery.
    const endpoint = await post('webhookEndpoint', '/webhooks/endpoints', {
      url: 'http://127.0.0.1:9/hooks',
    });
    const delivery = await request('POST', `${base}/webhooks/endpoints/${endpoint}/test`, {
      cookie: company.owner.cookie,
    });
    if (delivery.statusCode < 300) add('webhookDelivery', delivery.json().id);
  };

  // Bodies the schema alone cannot make valid (balanced lines, distinct accounts, files).
  const validBody = (op: Operation, pools: Pools): unknown => {
    const ctx: ValueContext = { pools, used: new Map() };
    const generated = op.body ? validValue(op.body, '', ctx) : undefined;
    const p = op.path.replace('/api/orgs/{organizationId}', '') || '/';
    const lines = [
      { accountId: pools.account![0], debit: 700 },
      { accountId: pools.account![1], credit: 700 },
    ];
    const extra: Record<string, unknown> = {};
    if (/^\/(journal-entries|opening-balances)$/.test(p) || p === '/journal-entries/{entryId}')
      extra.lines = lines;
    if (p === '/statement-imports' || p === '/statement-imports/preview' || p === '/statement-imports/sniff')
      Object.assign(extra, {
        format: p === '/statement-imports/sniff' ? undefined : 'csv',
        content: 'date,description,amount\n2026-03-09,Lunch,-12.50\n',
        mapping:
          p === '/statement-imports/sniff'
            ? undefined
            : { dateColumn: 0, descriptionColumn: 1, amountColumn: 2, dateFormat: 'YYYY-MM-DD' },
      });
    if (p === '/accounts/import') extra.csv = 'code,name,type\n6999,Fuzz supplies,expense\n';
    if (p === '/ledger/import') extra.journal = '2026-03-10 Fuzz\n  expenses:fuzz  5 USD\n  assets:cash\n';
    if (p === '/transactions/{id}/attachments')
      Object.assign(extra, { contentType: 'text/plain', dataBase64: Buffer.from('hi').toString('base64') });
    if (p === '/accounts') Object.assign(extra, { code: '6998', type: 'expense', subtype: 'other_expense' });
    if (p === '/wallet/rates') extra.currency = 'EUR';
    if (p === '/transaction-rules' || p === '/transaction-rules/{id}') extra.descriptionContains = 'coffee';
    if (p === '/tax-rates/{taxRateId}') extra.name = 'VAT standard';
    if (p === '/') extra.name = 'Fuzz A renamed';
    if (p === '/invoices' || p === '/recurring-invoices' || p === '/invoices/{invoiceId}/credit-notes')
      extra.lines = [{ description: 'Work', quantity: '1', unitPrice: 1_000 }];
    if (p === '/invoices/{invoiceId}/send') extra.email = false;
    if (p === '/bills' || p === '/bills/{billId}' || p === '/bill-schedules' || p === '/supplier-credits')
      Object.assign(extra, {
        lines: [{ description: 'Paper', quantity: '1', unitPrice: 1_000, accountId: pools.account![0] }],
        ...(p === '/bills' ? { reference: '' } : {}),
      });
    if (p === '/bills/{billId}/attachments') extra.dataBase64 = Buffer.from('bill').toString('base64');
    if (p === '/suppliers/import') extra.csv = 'name,email\nFuzz Supplies,fuzz@example.com\n';
    if (p === '/transactions/{id}/match')
      Object.assign(extra, {
        invoices: [{ invoiceId: pools.invoice![1], amount: 5_000 }],
        paymentId: undefined,
      });
    if (generated && typeof generated === 'object' && !Array.isArray(generated)) {
      const merged = { ...(generated as object), ...extra };
      for (const [k, v] of Object.entries(merged)) if (v === undefined) delete (merged as never)[k];
      return merged;
    }
    return generated;
  };

  const setUp = async () => {
    t = await createTestApp();
    a = await createTestCompany(t.app, { name: 'Fuzz A' });
    b = await createTestCompany(t.app, { name: 'Fuzz B' });
    await seed(a, poolsA);
    await seed(b, poolsB);
    // A's owner is a platform admin, so the admin console's routes are walked past their guard;
    // its users, promo codes and inbox hold one of each (B's owner as the other user).
    await t.database.db.insertInto('platform_admins').values({ user_id: a.owner.id }).execute();
    poolsA.adminUser = [b.owner.id];
    const promo = await request('POST', '/api/admin/promo-codes', {
      cookie: a.owner.cookie,
      body: { code: 'FUZZPLAN', kind: 'plan_access', planAccess: 'business' },
    });
    poolsA.promoCode = [promo.json().code];
    await request('POST', '/api/contact', {
      body: { name: 'Fuzz', email: 'fuzz@example.com', company: 'Fuzz', message: 'A message for the inbox.' },
    });
    const inbox = await request('GET', '/api/admin/contact-messages', { cookie: a.owner.cookie });
    poolsA.contactMessage = inbox.json().messages.map((m: { id: string }) => m.id);
    const checkout = await request('POST', '/api/billing/checkout', {
      cookie: a.owner.cookie,
      body: { plan: 'business', interval: 'monthly' },
    });
    poolsA.checkoutSession = [new URL(checkout.json().url, 'http://x').searchParams.get('checkout')!];
    doc = (await request('GET', '/api/openapi.json')).json();
    contract = contractChecker(doc);
    // Sign-in and its sessions are walked by contract.test.ts with accounts of their own: here
    // they would sign A's owner out or change their password halfway through.
    ops = operationsOf(doc).filter(
      (o) => !o.path.startsWith('/api/auth/') && (!ONLY || ONLY.test(`${o.method} ${o.path}`)),
    );
  };

  const walk = async (mode: WalkMode) => {
    const started = Date.now();
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    // Refusals that came from the database safety net (a route missing a rule) and rate limits.
    const safetyNet = new Set<string>();
    const limited = new Set<string>();
    // Operations whose all-valid request was refused: bad values there reach less deep.
    const baselineRefused: string[] = [];
    let sent = 0;
    // The contract walk sends each kind of value once per operation (a digit of another script
    // only where a date or decimal is asked for): enough for every answer the operation gives.
    const sentKinds = new Set<string>();
    const pickCases = (cases: Case[]) => {
      const chosen = sampled(cases, mode);
      if (mode === 'fuzz') return chosen;
      const fresh = chosen.filter(
        (c) => !sentKinds.has(c.label) && (c.label !== 'Unicode digits' || c.core === true),
      );
      for (const c of fresh) sentKinds.add(c.label);
      return fresh;
    };

    const check = async (
      op: Operation,
      where: string,
      url: string,
      options: {
        body?: unknown;
        rawBody?: string | Buffer;
        headers?: Record<string, string>;
        cookie?: string;
      },
    ) => {
      sent++;
      let res: Awaited<ReturnType<typeof request>>;
      try {
        res = await request(op.method, url, { cookie: a.owner.cookie, ...options });
      } catch (error) {
        failures.push(`${op.method} ${op.path} [${where}] threw ${(error as Error).message}`);
        return undefined;
      }
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      // The answer is what the document says: a listed status, its content type, its schema.
      for (const problem of contract.problems(op.method, op.path, res))
        failures.push(`${op.method} ${op.path} [${where}] → ${problem}`);
      const body = (() => {
        try {
          return JSON.parse(res.body) as unknown;
        } catch {
          return undefined;
        }
      })();
      const code = (body as { error?: { code?: unknown } } | undefined)?.error?.code;
      if (res.statusCode === 429) limited.add(`${op.method} ${op.path}`);
      if (where === 'valid' && res.statusCode >= 400)
        baselineRefused.push(`${op.method} ${op.path} ${res.statusCode} ${String(code)}`);
      if (typeof code === 'string' && SAFETY_NET_CODES.has(code))
        safetyNet.add(`${op.method} ${op.path} [${where.replace(/:.*/, '')}] ${code}`);
      if (res.statusCode >= 500)
        failures.push(`${op.method} ${op.path} [${where}] → ${res.statusCode} ${res.body.slice(0, 160)}`);
      else if (res.statusCode >= 400 && !isApiErrorBody(body))
        failures.push(
          `${op.method} ${op.path} [${where}] → ${res.statusCode} outside the error shape: ${res.body.slice(0, 160)}`,
        );
      return res.statusCode;
    };

    for (const op of ops) {
      sentKinds.clear();
      const pathParams = op.parameters.filter((p) => p.in === 'path');
      const queryParams = op.parameters.filter((p) => p.in === 'query');
      const headerParams = op.parameters.filter((p) => p.in === 'header');
      const validPath: Record<string, string> = {};
      for (const p of pathParams) {
        const kind = kindOfPathParam(op.path, p.name);
        // Payments, credit notes and emails need the issued invoice (seeded second).
        const issued =
          kind === 'invoice' && /\{invoiceId\}\/(payments|credit-notes|email|void)/.test(op.path);
        // A bill's money and void routes need the open bill (seeded first), its edits the draft.
        const draftBill =
          kind === 'bill' && !/\{billId\}\/(payments|void|attachments)/.test(op.path) && op.method !== 'GET';
        const fromPool = kind ? poolsA[kind]?.at(issued ? -1 : draftBill ? 1 : 0) : undefined;
        validPath[p.name] =
          fromPool ?? (p.name === 'answer' ? 'accept' : p.name === 'endDate' ? '2026-12-31' : randomUUID());
      }
      const validQuery: Record<string, string> = {};
      for (const q of queryParams.filter((x) => x.required)) {
        validQuery[q.name] = String(validValue(q.schema ?? { type: 'string' }, q.name, { pools: poolsA }));
      }
      const buildUrl = (pathValues: Record<string, string>, query: Record<string, string | string[]>) => {
        let url = op.path;
        for (const [k, v] of Object.entries(pathValues)) url = url.replace(`{${k}}`, v);
        const qs = Object.entries(query).flatMap(([k, v]) => [v].flat().map((x) => `${k}=${x}`));
        return qs.length ? `${url}?${qs.join('&')}` : url;
      };
      const encodedPath = Object.fromEntries(
        Object.entries(validPath).map(([k, v]) => [k, encodeURIComponent(v)]),
      );
      const encodedQuery = Object.fromEntries(
        Object.entries(validQuery).map(([k, v]) => [k, encodeURIComponent(v)]),
      );
      const baseUrl = buildUrl(encodedPath, encodedQuery);
      const body = validBody(op, poolsA);
      const bodyOption = op.body ? { body } : {};

      await check(op, 'valid', baseUrl, bodyOption);
      if (mode === 'contract') {
        // Signed out, and (a change) from a page on another site.
        const signedOut = await check(op, 'signed out', baseUrl, { ...bodyOption, cookie: '' });
        // The document's `security` is true: an operation that needs a session never succeeds without
        // one (401, or 400 first when the body is not valid).
        if (op.signedIn && signedOut !== undefined && signedOut < 300)
          failures.push(
            `${op.method} ${op.path} [signed out] → ${signedOut}, documented as needing a session`,
          );
        if (op.method !== 'GET')
          await check(op, 'from another site', baseUrl, {
            ...bodyOption,
            headers: { origin: 'https://elsewhere.example' },
          });
      }

      for (const p of pathParams) {
        const kind = kindOfPathParam(op.path, p.name);
        for (const c of pickCases(pathCases(kind ? poolsB[kind]?.[0] : undefined))) {
          await check(
            op,
            `path ${p.name}: ${c.label}`,
            buildUrl({ ...encodedPath, [p.name]: String(c.value) }, encodedQuery),
            bodyOption,
          );
        }
      }
      for (const q of queryParams) {
        const kind = KIND_BY_NAME[q.name];
        for (const c of pickCases(queryCases(q.name, kind ? poolsB[kind]?.[0] : undefined))) {
          await check(
            op,
            `query ${q.name}: ${c.label}`,
            buildUrl(encodedPath, { ...encodedQuery, [q.name]: c.value as string }),
            bodyOption,
          );
        }
      }
      for (const h of headerParams) {
        for (const c of pickCases(stringCases().filter((x) => /^[ -~]*$/.test(String(x.value))))) {
          await check(op, `header ${h.name}: ${c.label}`, baseUrl, {
            ...bodyOption,
            headers: { [h.name]: String(c.value) },
          });
        }
      }
      if (!op.body) {
        // Operations without a JSON body may take a multipart upload (attachments): send
        // awkward files to each POST of them.
        if (op.method === 'POST') {
          for (const [label, payload, type] of multipartCases().filter(
            ([label]) => mode === 'fuzz' || CONTRACT_CASES.has(label),
          )) {
            await check(op, `multipart: ${label}`, baseUrl, {
              rawBody: payload,
              headers: { 'content-type': type },
            });
          }
        }
        continue;
      }
      // The body as a whole.
      for (const [label, raw] of [
        ['empty object', '{}'],
        ['array', '[]'],
        ['null', 'null'],
        ['string', '"x"'],
        ['broken JSON', '{"a":'],
        ['lone surrogate escape', '{"x":"\\ud800"}'],
        ['deep nesting', `${'['.repeat(5000)}${']'.repeat(5000)}`],
      ] as const) {
        if (mode === 'fuzz' || CONTRACT_CASES.has(label))
          await check(op, `body: ${label}`, baseUrl, { rawBody: raw });
      }
      if (mode === 'contract')
        await check(op, 'body: not JSON', baseUrl, {
          rawBody: 'x',
          headers: { 'content-type': 'text/plain' },
        });
      if (mode === 'fuzz')
        await check(op, 'body: extra unknown field', baseUrl, {
          body: { ...(body as object), unknownFuzzField: 'a\u0000b' },
        });
      // Each field, recursively.
      const root = op.body;
      for (const field of fieldsOf(root)) {
        const name = String(field.path.filter((x) => typeof x === 'string').at(-1) ?? '');
        const kind = KIND_BY_NAME[name];
        for (const c of pickCases(casesFor(field.schema, name, kind ? poolsB[kind]?.[0] : undefined))) {
          const fuzzed = withField(body, field.path, c.value, (p) => schemaAtPath(root, p));
          await check(op, `body ${field.path.join('.')}: ${c.label}`, baseUrl, { body: fuzzed });
        }
      }
    }

    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const histogram = [...statuses.entries()]
      .sort(([x], [y]) => x - y)
      .map(([s, n]) => `${s}×${n}`)
      .join(' ');
    console.info(
      `${mode} walk (${testDatabaseKind()}${mode === 'fuzz' ? `, seed ${SEED}${FULL ? ', full' : ''}` : ''}): ${ops.length} operations, ${sent} requests in ${seconds}s; ${histogram}; ${failures.length} failures`,
    );
    if (safetyNet.size)
      console.info(`refused only by the database safety net:\n  ${[...safetyNet].join('\n  ')}`);
    if (baselineRefused.length)
      console.info(`valid request refused (shallower coverage):\n  ${baselineRefused.join('\n  ')}`);
    if (limited.size) console.info(`rate-limited (fewer values reached): ${[...limited].join(', ')}`);
    if (process.env.FUZZ_OUT) writeFileSync(process.env.FUZZ_OUT, failures.join('\n'));
    return failures;
  };

  return {
    setUp,
    walk,
    close: async () => {
      await t?.close();
    },
    /** The test app, the seeded companies and the document, once set up. */
    get t() {
      return t;
    },
    get companies() {
      return { a, b };
    },
    get document() {
      return doc;
    },
    get contract() {
      return contract;
    },
    request,
  };
};
