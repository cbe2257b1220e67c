import { createHash } from 'node:crypto';
import multipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  MAX_STATEMENT_CHARS,
  PROGRESS_ID_HEADER,
  csvSniffSchema,
  statementImportInputSchema,
  statementImportProgressSchema,
  statementImportResultSchema,
  statementImportSchema,
  statementPreviewSchema,
} from '../../../shared/transactions.ts';
import type { AppContext } from '../../context.ts';
import { companyRoutes } from '../../http/routes.ts';
import { requirePermission } from '../../http/tenancy.ts';
import { runIdempotentRequest } from '../../http/idempotency.ts';
import { AppError, badRequest } from '../../../shared/errors.ts';
import { normalizeLineEnds } from './csv-records.ts';
import { decodeStatementBytes } from './decode.ts';
import { authorizeFromProgress, notRunning, readProgress, startProgress } from './progress.ts';
import { commitStatement, listImports, previewStatement, refuse, sniffStatement } from './service.ts';
import { StatementParseError } from './types.ts';

const tags = ['statement import'];
// A 100,000-line statement is about 8 MB of JSON; leave room for larger exports.
const bodyLimit = MAX_STATEMENT_CHARS * 1.1;
/** Largest statement file accepted as an upload (bytes). */
export const MAX_STATEMENT_BYTES = 60 * 1024 * 1024;

/** The character set each upload was read in, and what of it was unreadable, for the preview. */
const encodings = new WeakMap<
  FastifyRequest,
  { encoding: string; unreadable: { bytes: number; lines: number[] } | null }
>();

/** The lines (1-based, counted as in the parsers' messages; at most 20) of `text` holding U+FFFD. */
const linesWithReplacements = (text: string) => {
  const lines: number[] = [];
  normalizeLineEnds(text)
    .split('\n')
    .forEach((line, i) => {
      if (lines.length < 20 && line.includes('\ufffd')) lines.push(i + 1);
    });
  return lines;
};

const jsonField = (fields: Record<string, string>, name: string): unknown => {
  const value = fields[name];
  if (value === undefined || value === '') return undefined;
  try {
    return JSON.parse(value);
  } catch {
    throw badRequest('invalid_body', `The field "${name}" is not valid JSON.`);
  }
};

/**
 * Uploads as the web page sends them: multipart/form-data with the file's raw bytes in the
 * field "file" and the options as fields (moneyAccountId, fileName, format, applyRules, and
 * mapping / statements as JSON). The bytes are decoded here (decode.ts), so the rest of the
 * route sees the same body as a JSON request with the text in `content`.
 */
const readUpload = async (request: FastifyRequest) => {
  if (!request.isMultipart()) return;
  const fields: Record<string, string> = {};
  let bytes: Buffer | null = null;
  let uploadedName: string | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const data = await part.toBuffer();
        if (part.fieldname !== 'file' || bytes) {
          throw badRequest('multipart_invalid', 'Send one statement file, in the field "file".');
        }
        bytes = data;
        uploadedName = part.filename;
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError(413, 'statement_too_large', 'The file is larger than 60 MB; split it.');
    }
    throw badRequest('multipart_invalid', 'The upload could not be read; send the file again.');
  }
  if (!bytes) throw badRequest('file_missing', 'Choose the statement file (multipart field "file").');
  if (bytes.length === 0) throw badRequest('file_empty', 'The file is empty.');
  let decoded: ReturnType<typeof decodeStatementBytes>;
  try {
    decoded = decodeStatementBytes(bytes);
  } catch (error) {
    if (error instanceof StatementParseError) throw refuse(error.errors);
    throw error;
  }
  encodings.set(request, {
    encoding: decoded.encoding,
    unreadable: decoded.replaced
      ? { bytes: decoded.replaced, lines: linesWithReplacements(decoded.text) }
      : null,
  });
  request.body = {
    moneyAccountId: fields.moneyAccountId,
    fileName: fields.fileName || uploadedName || 'statement',
    content: decoded.text,
    ...(fields.format ? { format: fields.format } : {}),
    ...(fields.mapping ? { mapping: jsonField(fields, 'mapping') } : {}),
    ...(fields.applyRules !== undefined ? { applyRules: fields.applyRules !== 'false' } : {}),
    ...(fields.statements ? { statements: jsonField(fields, 'statements') } : {}),
  };
};

export const statementImportRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    // An upload is read only for a member allowed to do the request (401/403 before any parsing).
    const upload =
      (permission: 'record' | 'post') => async (request: FastifyRequest, reply: FastifyReply) => {
        if (!request.isMultipart()) return;
        await requirePermission(ctx, permission)(request, reply);
        await readUpload(request);
      };
    // Multipart for this plugin's uploads only; the size limit is enforced while streaming.
    await app.register(multipart, {
      limits: { fileSize: MAX_STATEMENT_BYTES, files: 1, fields: 10, fieldSize: 1024 * 1024, parts: 12 },
    });
    const route = companyRoutes(app, ctx, tags);
    route.post(
      '/statement-imports/sniff',
      {
        summary:
          'A CSV\'s columns and first rows, with a suggested and the remembered mapping (JSON with the text in content, or multipart/form-data with the file\'s bytes in "file")',
        permission: 'record',
        bodyLimit,
        body: z.object({
          moneyAccountId: z.string().min(1),
          content: statementImportInputSchema.shape.content,
        }),
        response: csvSniffSchema,
        preValidation: upload('record'),
      },
      (ctx, member, input) => sniffStatement(ctx, member, input),
    );

    route.post(
      '/statement-imports/preview',
      {
        summary:
          'Parse a statement and show what would be imported, per statement of the file (duplicates marked, rules applied); writes nothing. JSON with the text in content, or multipart/form-data with the bytes in "file"',
        permission: 'record',
        bodyLimit,
        body: statementImportInputSchema,
        response: statementPreviewSchema,
        preValidation: upload('record'),
      },
      (ctx, member, input, { request }) => {
        const read = encodings.get(request);
        return previewStatement(ctx, member, {
          ...input,
          encoding: read?.encoding ?? null,
          unreadable: read?.unreadable ?? null,
        });
      },
    );

    route.post(
      '/statement-imports',
      {
        summary:
          'Import a statement: all new rows of every chosen statement are posted in one transaction, or nothing is. JSON or multipart/form-data as for the preview',
        permission: 'post',
        bodyLimit,
        body: statementImportInputSchema,
        response: statementImportResultSchema,
        preValidation: upload('post'),
      },
      // Not `idempotent`: the progress report must hear of the finish (or failure) after the
      // transaction, whether the answer was computed now or replayed.
      async (ctx, member, input, { request, reply }) => {
        // The page's progress id (a UUID): the commit reports into the progress registry.
        const progressId = request.headers[PROGRESS_ID_HEADER];
        if (progressId !== undefined && !z.uuid().safeParse(progressId).success) {
          throw badRequest('invalid_progress_id', `The ${PROGRESS_ID_HEADER} header must be a UUID.`);
        }
        const report =
          typeof progressId === 'string' ? await startProgress(ctx, request, member, progressId) : undefined;
        let finished = false;
        try {
          const result = await runIdempotentRequest(
            ctx,
            request,
            {
              organizationId: member.organizationId,
              scope: 'POST /statement-imports',
              statusCode: 200,
              payload: { ...input, content: createHash('sha256').update(input.content).digest('hex') },
            },
            (trxCtx) => commitStatement(trxCtx, member, input, report),
          );
          finished = true;
          await report?.(result.body.imported, result.body.imported, 'done');
          return reply.status(result.statusCode as 200).send(result.body);
        } finally {
          if (!finished) await report?.(0, 0, 'failed');
        }
      },
    );

    route.get(
      '/statement-imports/progress/:progressId',
      {
        summary:
          "How far a running import of yours is (the UUID sent in the x-progress-id header of the import). Answered from this server process's memory: 404 when unknown, finished minutes ago, or run on another node",
        permission: 'read',
        response: statementImportProgressSchema,
        // The import's own session is authorised from the progress entry, without the database
        // (on PGlite the import's transaction holds the one connection until it commits).
        onRequest: async (request) => authorizeFromProgress(ctx, request),
      },
      async (_ctx, member, { progressId }) => {
        const progress = readProgress(member.organizationId, member.userId, progressId);
        if (!progress) throw notRunning();
        return progress;
      },
    );

    route.get(
      '/statement-imports',
      {
        summary: 'Recent statement imports',
        permission: 'read',
        query: z.object({ moneyAccountId: z.string().max(100).optional() }),
        response: z.object({ imports: z.array(statementImportSchema) }),
      },
      async (ctx, member, { moneyAccountId }) => ({
        imports: await listImports(ctx, member, moneyAccountId),
      }),
    );
  };
