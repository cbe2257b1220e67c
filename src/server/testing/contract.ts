import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

// Checks an answer against the OpenAPI document as an integrator's generated client reads it:
// the status is one the operation lists, the content type is one its response lists (none for
// a body-less answer such as 204), and a JSON body validates against the documented schema
// (Ajv, the validator Fastify itself uses). Used by the OpenAPI walk (fuzz.test.ts,
// contract.test.ts).

type Json = Record<string, unknown>;
type Response = { description?: string; content?: Record<string, { schema?: unknown }>; $ref?: string };
type Document = {
  paths: Record<string, Record<string, { responses?: Record<string, Response> }>>;
  components?: { responses?: Record<string, Response> };
};

export type Answer = { statusCode: number; headers: Record<string, unknown>; body: string };

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/**
 * OpenAPI 3.0 schemas in JSON Schema draft 7, as Ajv reads them: a boolean
 * `exclusiveMinimum`/`exclusiveMaximum` beside `minimum`/`maximum` becomes the number, and
 * `nullable` a `null` type.
 */
const toDraft7 = (node: unknown): unknown => {
  if (Array.isArray(node)) return node.map(toDraft7);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) out[key] = toDraft7(value);
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (out[flag] === true) {
      out[flag] = out[bound];
      delete out[bound];
    } else if (out[flag] === false) delete out[flag];
  }
  // OpenAPI 3.0's `nullable` as JSON Schema: null is one more type (or branch) it accepts.
  if ('nullable' in out) {
    const nullable = out.nullable === true;
    delete out.nullable;
    if (nullable && out.type !== undefined) {
      out.type = [...new Set([...[out.type].flat(), 'null'])];
      if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    } else if (nullable && Array.isArray(out.anyOf)) out.anyOf = [...out.anyOf, { type: 'null' }];
    else if (nullable && Array.isArray(out.oneOf)) out.oneOf = [...out.oneOf, { type: 'null' }];
  }
  return out;
};

const pointer = (...parts: string[]) =>
  parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

const mediaMatches = (range: string, type: string) => {
  if (range === '*/*' || range === type) return true;
  return range.endsWith('/*') && type.startsWith(range.slice(0, -1));
};

/** A checker for one document: `problems(method, path, answer)` lists what does not match. */
export const contractChecker = (doc: Document) => {
  const ajv = new Ajv({ strict: false, allErrors: false, validateFormats: true });
  addFormats(ajv);
  ajv.addFormat('binary', true);
  ajv.addSchema(toDraft7(doc) as Json, 'openapi');
  const compiled = new Map<string, ValidateFunction>();

  const responseOf = (method: string, path: string, status: number) => {
    const operation = doc.paths[path]?.[method.toLowerCase()];
    if (!operation) return { operation: undefined, response: undefined, key: undefined };
    const responses = operation.responses ?? {};
    const key = String(status) in responses ? String(status) : 'default' in responses ? 'default' : undefined;
    return { operation, response: key ? responses[key] : undefined, key };
  };

  const problems = (method: string, path: string, answer: Answer): string[] => {
    const { operation, response, key } = responseOf(method, path, answer.statusCode);
    if (!operation) return [`${method} ${path} is not in the document`];
    if (!response || !key) {
      return [
        `${answer.statusCode} is not listed (lists ${Object.keys(operation.responses ?? {}).join(', ')})`,
      ];
    }
    let resolved = response;
    let at = pointer('paths', path, method.toLowerCase(), 'responses', key);
    if (response.$ref) {
      const name = response.$ref.replace('#/components/responses/', '');
      resolved = doc.components?.responses?.[name] ?? {};
      at = pointer('components', 'responses', name);
    }
    const type = String(answer.headers['content-type'] ?? '')
      .split(';')[0]!
      .trim()
      .toLowerCase();
    const content = resolved.content;
    if (!content) {
      // Redirects may carry a short note; everything else documented without content has none.
      if (answer.body.length > 0 && !(answer.statusCode >= 300 && answer.statusCode < 400))
        return [`${answer.statusCode} is documented without a body but has ${type || 'one'}`];
      return [];
    }
    const media = Object.keys(content).find((range) => mediaMatches(range, type));
    if (!media)
      return [
        `${answer.statusCode} answered ${type || 'no content type'}, documented: ${Object.keys(content).join(', ')}`,
      ];
    if (media !== 'application/json') return [];
    let body: unknown;
    try {
      body = JSON.parse(answer.body);
    } catch {
      return [`${answer.statusCode} says JSON but the body does not parse: ${answer.body.slice(0, 80)}`];
    }
    const ref = `openapi#/${at}/${pointer('content', media, 'schema')}`;
    let validate = compiled.get(ref);
    if (!validate) {
      validate = ajv.compile({ $ref: ref });
      compiled.set(ref, validate);
    }
    if (validate(body)) return [];
    const first = validate.errors?.[0];
    return [
      `${answer.statusCode} body does not match its schema: ${first?.instancePath || '/'} ${first?.message ?? ''} (${JSON.stringify(first?.params ?? {})}) — ${answer.body.slice(0, 160)}`,
    ];
  };

  return { problems };
};
