import { createHash, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { badRequest, conflict, notFound } from '../../../shared/errors.ts';
import { MAX_DATE } from '../../../shared/input.ts';
import { LEDGER_VOLUME_LIMIT, currencyExponent, minorToDecimalString } from '../../../shared/money.ts';
import {
  type CsvMapping,
  type CsvSniff,
  type StatementImportProgress,
  type StatementImportResult,
  type StatementFormat,
  type StatementPreview,
  csvMappingSchema,
  descriptionKey,
  type statementImportInputSchema,
} from '../../../shared/transactions.ts';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { recordAudit } from '../audit/record.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { type Executor, inTransaction } from '../../db/transaction.ts';
import {
  emptyBankRowColumns,
  insertBankTransactionsInBulk,
  selectExistingDedupeKeys,
} from '../bank-transactions/bulk.ts';
import { postEntriesInBulk, whileWriting } from '../ledger/bulk.ts';
import { newEntryId } from '../ledger/ids.ts';
import {
  dedupePrefix,
  entryForTransaction,
  loadPostingContext,
  rateBook,
} from '../transactions/posting-context.ts';
import { type RuleRow, selectExternalIds, selectRules } from '../transactions/queries.ts';
import { firstMatchingRule } from '../transactions/rules.ts';
import { selectMoneyAccount } from '../wallet/queries.ts';
import { sniffCsv } from './csv-sniff.ts';
import { detectStatementFormat, parseStatementFile } from './parse.ts';
import {
  type ParsedStatement,
  type ParsedStatementRow,
  StatementParseError,
  type StatementLineError,
} from './types.ts';

// Statement import: parse, mark duplicates, apply rules, show a preview; on commit, insert
// and post every new row in one database transaction, or nothing at all.

type ImportInput = z.output<typeof statementImportInputSchema> & {
  /** The character set an uploaded file's bytes were read in (decode.ts). */
  encoding?: string | null;
};

export const refuse = (errors: StatementLineError[], total?: number) =>
  badRequest(
    'statement_invalid',
    `The file was not imported: ${errors
      .slice(0, 3)
      .map((e) => `line ${e.line}: ${e.reason}`)
      .join(
        '; ',
      )}${errors.length > 3 ? ` (and ${errors.length - 3} more problems)` : ''}. Nothing was imported; fix the file and try again.`,
    { errors, ...(total !== undefined ? { totalRows: total } : {}) },
  );

const savedMappingOf = (value: unknown): CsvMapping | null => {
  const parsed = csvMappingSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
};

/** Rows posted per slice of a commit (entries, lines and bank rows of one slice in memory at once). */
const COMMIT_SLICE = 10_000;
/** From this many new rows, an import refreshes the planner's statistics of the tables it fills. */
const ANALYZE_FROM = 5000;

const loadAccount = async (db: Executor, organizationId: string, id: string, forUpdate: boolean) => {
  const money = await selectMoneyAccount(db, organizationId, id, { forUpdate });
  if (!money) throw notFound('Money account not found.');
  if (money.archived_at)
    throw conflict('account_archived', `${money.name} is archived; unarchive it to import into it.`);
  return { ...money, currency: money.currency.trim() };
};

export const sniffStatement = async (
  ctx: AppContext,
  member: MemberContext,
  input: { moneyAccountId: string; content: string },
): Promise<CsvSniff> => {
  const money = await loadAccount(ctx.database.db, member.organizationId, input.moneyAccountId, false);
  try {
    return { ...sniffCsv(input.content), savedMapping: savedMappingOf(money.csv_mapping) };
  } catch (error) {
    if (error instanceof StatementParseError) throw refuse(error.errors);
    throw error;
  }
};

type PreparedRow = ParsedStatementRow & {
  duplicate: boolean;
  dedupeKey: string;
  rule: RuleRow | null;
  rate: string | null;
};

type Money = Awaited<ReturnType<typeof loadAccount>>;

type PreparedPart = {
  index: number;
  statement: ParsedStatement;
  /** null: the user left this statement out, or has not chosen its account yet. */
  money: Money | null;
  /** True when the user (or a single-statement file) said where it goes. */
  chosen: boolean;
  rows: PreparedRow[];
  notices: string[];
};

/**
 * Sums a statement's amounts exactly: each amount is within the per-field bound, and a
 * running total past the ledger's volume limit could never post, so it is refused by line
 * before the total leaves the range where a JS number is exact.
 */
const sumOf = (rows: { amount: number; line?: number }[]) => {
  let total = 0;
  for (const r of rows) {
    total += r.amount;
    if (Math.abs(total) > LEDGER_VOLUME_LIMIT)
      throw badRequest(
        'statement_total_too_large',
        `Line ${r.line ?? '?'}: the statement's amounts add up to more than a company's ledger can hold. Split the file into smaller statements.`,
        { line: r.line },
      );
  }
  return total;
};

const partRef = (part: { statement: ParsedStatement; index: number }) =>
  `the ${part.statement.kind ?? 'statement'}${part.statement.accountNumber ? ` of account ${part.statement.accountNumber}` : ''} (statement ${part.index + 1})`;

const parseInput = (
  input: ImportInput,
  format: StatementFormat,
  mapping: CsvMapping | null,
  money: Money,
) => {
  try {
    return parseStatementFile({
      fileName: input.fileName,
      content: input.content,
      format,
      mapping,
      exponent: currencyExponent(money.currency),
      currency: money.currency,
    });
  } catch (error) {
    if (error instanceof StatementParseError) throw refuse(error.errors);
    throw error;
  }
};

/** The statement date of the account's last completed reconciliation, if any. */
const lastReconciledDate = async (db: Executor, organizationId: string, moneyAccountId: string) => {
  const row = await db
    .selectFrom('reconciliations')
    .select(sql<string | null>`max(statement_date)::text`.as('date'))
    .where('organization_id', '=', organizationId)
    .where('money_account_id', '=', moneyAccountId)
    .where('status', '=', 'completed')
    .executeTakeFirst();
  return row?.date ?? null;
};

const prepare = async (db: Executor, member: MemberContext, input: ImportInput, forUpdate: boolean) => {
  const { organizationId } = member;
  const defaultMoney = await loadAccount(db, organizationId, input.moneyAccountId, forUpdate);
  const format = input.format ?? detectStatementFormat(input.fileName, input.content);
  const mapping = format === 'csv' ? (input.mapping ?? savedMappingOf(defaultMoney.csv_mapping)) : null;
  const file = parseInput(input, format, mapping, defaultMoney);
  const count = file.statements.length;
  const chosen = new Map<number, string | null>();
  for (const a of input.statements ?? []) {
    if (a.index >= count) {
      throw badRequest(
        'statement_unknown',
        `The file holds ${count} statement${count === 1 ? '' : 's'}; there is no statement ${a.index + 1}.`,
      );
    }
    chosen.set(a.index, a.moneyAccountId);
  }
  // Accounts are locked in one order so two imports never wait on each other in a circle.
  const accountIds = [
    ...new Set(
      file.statements.map((_, i) => (chosen.has(i) ? chosen.get(i) : i === 0 ? defaultMoney.id : null)),
    ),
  ]
    .filter((id): id is string => Boolean(id))
    .sort();
  const accounts = new Map<string, Money>([[defaultMoney.id, defaultMoney]]);
  for (const id of accountIds) {
    if (!accounts.has(id)) accounts.set(id, await loadAccount(db, organizationId, id, forUpdate));
  }
  const pc = await loadPostingContext(db, organizationId);
  const rules = input.applyRules ? (await selectRules(db, organizationId)).filter((r) => r.enabled) : [];
  const occurrencesByAccount = new Map<string, Map<string, number>>();
  const seenIdsByAccount = new Map<string, Map<string, number>>();
  const problems: StatementLineError[] = [];
  const parts: PreparedPart[] = [];
  for (let index = 0; index < count; index += 1) {
    const id = chosen.has(index) ? chosen.get(index)! : index === 0 ? defaultMoney.id : null;
    const money = id ? accounts.get(id)! : null;
    let statement = file.statements[index]!;
    // A statement that states no currency was read in the default account's decimals.
    if (
      money &&
      !statement.currency &&
      currencyExponent(money.currency) !== currencyExponent(defaultMoney.currency)
    ) {
      statement = parseInput(input, format, mapping, money).statements[index]!;
    }
    const notices = [...(statement.notices ?? [])];
    const part: PreparedPart = {
      index,
      statement,
      money,
      chosen: chosen.has(index) || index === 0,
      rows: [],
      notices,
    };
    parts.push(part);
    if (statement.openingBalance && statement.closingBalance) {
      const expected = statement.openingBalance.amount + sumOf(statement.rows);
      if (expected !== statement.closingBalance.amount) {
        notices.push(
          `the file's balances do not agree with its entries: the opening balance plus the entries gives ${minorToDecimalString(expected, currencyExponent(statement.currency ?? (money ?? defaultMoney).currency))}, the closing balance says ${minorToDecimalString(statement.closingBalance.amount, currencyExponent(statement.currency ?? (money ?? defaultMoney).currency))}`,
        );
      }
    }
    if (!money) {
      part.rows = statement.rows.map((r) => ({
        ...r,
        duplicate: false,
        dedupeKey: '',
        rule: null,
        rate: null,
      }));
      continue;
    }
    if (statement.currency && statement.currency !== money.currency) {
      problems.push({
        line: statement.line ?? 1,
        reason: `${partRef(part)} is in ${statement.currency} but ${money.name} is kept in ${money.currency}; choose an account in ${statement.currency}`,
      });
      continue;
    }
    for (const row of statement.rows) {
      if (row.date < money.opening_date) {
        problems.push({
          line: row.line,
          reason: `${row.date} is before ${money.name} opens (${money.opening_date})`,
        });
      }
      if (row.date > MAX_DATE) {
        problems.push({
          line: row.line,
          reason: `${row.date} is after ${MAX_DATE}, the latest date Kontor keeps`,
        });
      }
    }
    const rateOn = await rateBook(db, organizationId, money.currency, pc.baseCurrency);
    const rates = statement.rows.map((r) => rateOn(r.date));
    if (money.currency !== pc.baseCurrency) {
      statement.rows.forEach((r, i) => {
        if (!rates[i])
          problems.push({
            line: r.line,
            reason: `no ${money.currency} to ${pc.baseCurrency} exchange rate on or before ${r.date}`,
          });
      });
    }
    if (problems.length > 0) continue;
    const fileIds = [
      ...new Set(statement.rows.map((r) => r.externalId).filter((x): x is string => Boolean(x))),
    ];
    const existingIds = await selectExternalIds(db, organizationId, money.id, fileIds);
    const occurrences = occurrencesByAccount.get(money.id) ?? new Map<string, number>();
    occurrencesByAccount.set(money.id, occurrences);
    const seenIds = seenIdsByAccount.get(money.id) ?? new Map<string, number>();
    seenIdsByAccount.set(money.id, seenIds);
    const repeated: string[] = [];
    // First every row's dedupe key, then only those keys are looked up (the account may hold a
    // million lines over the file's dates; loading all their keys cost memory and time).
    const keys: string[] = new Array(statement.rows.length);
    const keyed: ParsedStatementRow[] = new Array(statement.rows.length);
    statement.rows.forEach((original, i) => {
      let row = original;
      // A bank reference the file already used for another row: both rows are imported (the
      // second without the reference, told apart by date, amount and description instead).
      if (row.externalId && seenIds.has(row.externalId)) {
        repeated.push(
          `line ${row.line} repeats the bank reference "${row.externalId}" of line ${seenIds.get(row.externalId)}`,
        );
        row = { ...row, externalId: null };
      }
      if (row.externalId) seenIds.set(row.externalId, row.line);
      const prefix = dedupePrefix(row.date, row.amount, row.description);
      const n = (occurrences.get(prefix) ?? 0) + 1;
      occurrences.set(prefix, n);
      keys[i] = `${prefix}#${n}`;
      keyed[i] = row;
    });
    const existingKeys = await selectExistingDedupeKeys(db, organizationId, money.id, keys);
    part.rows = keyed.map((row, i) => {
      const original = statement.rows[i]!;
      const dedupeKey = keys[i]!;
      const duplicate =
        existingKeys.has(dedupeKey) || (original.externalId !== null && existingIds.has(original.externalId));
      const rule = duplicate
        ? null
        : firstMatchingRule(rules, {
            description: row.description,
            payee: row.payee,
            amount: row.amount,
            moneyAccountId: money.id,
          });
      const usableRule =
        rule && pc.accounts.get(rule.set_category_account_id)?.archived === false ? rule : null;
      // The parsed row is completed in place rather than copied: one object per line, not two.
      const prepared = row as PreparedRow;
      prepared.duplicate = duplicate;
      prepared.dedupeKey = dedupeKey;
      prepared.rule = usableRule;
      prepared.rate = rates[i] ?? null;
      return prepared;
    });
    // A completed reconciliation closes its period: a new line dated on or before its
    // statement date would change a balance the statement agreed with. Such rows are refused,
    // never dropped (rows already in the account are duplicates and are skipped as usual).
    const reconciledTo = await lastReconciledDate(db, organizationId, money.id);
    if (reconciledTo) {
      for (const row of part.rows) {
        if (!row.duplicate && row.date <= reconciledTo) {
          problems.push({
            line: row.line,
            reason: `${row.date} is on or before ${reconciledTo}, the statement date of ${money.name}'s last completed reconciliation; undo that reconciliation first or leave the line out`,
          });
        }
      }
    }
    if (repeated.length > 0) {
      notices.push(
        `${repeated.slice(0, 5).join('; ')}${repeated.length > 5 ? ` (and ${repeated.length - 5} more)` : ''}; each such row is imported on its own`,
      );
    }
  }
  if (problems.length > 0)
    throw refuse(problems.slice(0, 50), sumOf(parts.map((p) => ({ amount: p.statement.rows.length }))));
  return { defaultMoney, file, format, mapping, parts, pc };
};

const summaryOf = (rows: PreparedRow[]) => {
  const fresh = rows.filter((r) => !r.duplicate);
  const dates = rows.map((r) => r.date).sort();
  return {
    totalRows: rows.length,
    newRows: fresh.length,
    duplicateRows: rows.length - fresh.length,
    moneyIn: sumOf(fresh.filter((r) => r.amount > 0)),
    moneyOut: -sumOf(fresh.filter((r) => r.amount < 0)),
    firstDate: dates[0] ?? null,
    lastDate: dates[dates.length - 1] ?? null,
  };
};

export const previewStatement = async (
  ctx: AppContext,
  member: MemberContext,
  input: ImportInput,
): Promise<StatementPreview> => {
  const { format, mapping, parts } = await prepare(ctx.database.db, member, input, false);
  const first = parts[0]!;
  const included = parts.filter((p) => p.money);
  const rows = included.flatMap((p) => p.rows.map((r) => ({ ...r, statement: p.index })));
  const fresh = rows.filter((r) => !r.duplicate);
  const summary = summaryOf(rows);
  return {
    format,
    statements: parts.map((p) => ({
      index: p.index,
      line: p.statement.line ?? 1,
      kind: p.statement.kind ?? (format === 'csv' ? 'CSV statement' : 'statement'),
      accountNumber: p.statement.accountNumber,
      currency: p.statement.currency,
      periodStart: p.statement.periodStart ?? null,
      periodEnd: p.statement.periodEnd ?? null,
      moneyAccountId: p.money?.id ?? null,
      ...summaryOf(p.rows),
      openingBalance: p.statement.openingBalance ?? null,
      closingBalance: p.statement.closingBalance,
      notices: p.notices,
    })),
    encoding: input.encoding ?? null,
    currency: first.statement.currency,
    accountNumber: first.statement.accountNumber,
    closingBalance: first.statement.closingBalance,
    ...summary,
    categorizedByRules: fresh.filter((r) => r.rule).length,
    rows: rows.slice(0, 500).map((r) => ({
      line: r.line,
      date: r.date,
      amount: r.amount,
      description: r.description,
      payee: r.rule?.set_payee ?? r.payee,
      externalId: r.externalId,
      duplicate: r.duplicate,
      ruleId: r.rule?.id ?? null,
      categoryAccountId: r.rule?.set_category_account_id ?? null,
      statement: r.statement,
    })),
    mapping,
    csvLayout: format === 'csv' ? (first.statement.csvLayout ?? null) : null,
  };
};

export const commitStatement = (
  ctx: AppContext,
  member: MemberContext,
  input: ImportInput,
  /** Called as rows are posted (after each slice), for the page's progress bar; awaited. */
  onProgress?: (done: number, total: number, phase: StatementImportProgress['phase']) => void | Promise<void>,
): Promise<StatementImportResult> =>
  inTransaction(ctx.database.db, async (trx) => {
    const started = performance.now();
    const { organizationId, userId } = member;
    const { defaultMoney, format, mapping, parts, pc } = await prepare(trx, member, input, true);
    const unchosen = parts.filter((p) => !p.money && !p.chosen && p.statement.rows.length > 0);
    if (unchosen.length > 0) {
      throw refuse(
        unchosen.map((p) => ({
          line: p.statement.line ?? 1,
          reason: `choose the money account for ${partRef(p)}, or leave it out`,
        })),
      );
    }
    if (mapping) {
      await trx
        .updateTable('money_accounts')
        .set({ csv_mapping: JSON.stringify(mapping) })
        .where('organization_id', '=', organizationId)
        .where('id', '=', defaultMoney.id)
        .execute();
    }
    const toPost = parts.reduce((n, p) => (p.money ? n + p.rows.filter((r) => !r.duplicate).length : n), 0);
    let posted = 0;
    await onProgress?.(0, toPost, 'posting');
    const fileSha = createHash('sha256').update(input.content).digest('hex');
    const imports: NonNullable<StatementImportResult['imports']> = [];
    let totalImported = 0;
    let totalDuplicates = 0;
    let totalByRules = 0;
    for (const part of parts) {
      const money = part.money;
      if (!money) continue;
      const fresh = part.rows.filter((r) => !r.duplicate);
      const duplicates = part.rows.length - fresh.length;
      totalDuplicates += duplicates;
      if (fresh.length === 0) {
        imports.push({ index: part.index, id: null, moneyAccountId: money.id, imported: 0, duplicates });
        continue;
      }
      const importId = randomUUID();
      const byRules = fresh.filter((r) => r.rule).length;
      await trx
        .insertInto('statement_imports')
        .values({
          organization_id: organizationId,
          id: importId,
          money_account_id: money.id,
          file_name: input.fileName,
          format,
          file_sha256: fileSha,
          total_rows: part.rows.length,
          imported_rows: fresh.length,
          duplicate_rows: duplicates,
          rule_rows: byRules,
          created_by: userId,
        })
        .execute();
      // Posted in slices, so only one slice's entries, lines and bank rows are held at a time
      // (a 100,000-line statement otherwise keeps several copies of every row in memory). The
      // company's number row stays locked from the first slice, so the numbers are one range.
      // While the database writes one slice's bank rows, the next slice's entries are built.
      const entriesOf = (slice: PreparedRow[], ids: string[]) =>
        slice.map((r, i) =>
          entryForTransaction(pc, money, {
            id: ids[i]!,
            date: r.date,
            description: r.description,
            amount: r.amount,
            categoryKind: r.rule ? 'account' : 'none',
            categoryAccountId: r.rule?.set_category_account_id ?? null,
            splits: [],
            taxRate: r.rule?.set_tax_rate ?? null,
            rate: r.rate,
          }),
        );
      let pending: { written: Promise<unknown>; rows: number } | null = null;
      for (let at = 0; at < fresh.length; at += COMMIT_SLICE) {
        const slice = fresh.slice(at, at + COMMIT_SLICE);
        // Time-ordered ids (UUIDv7, the ledger's generator): the bank lines' primary key grows at
        // its right edge instead of taking random pages, which matters once a company holds
        // millions of lines and the index no longer fits in memory.
        const ids = slice.map(() => newEntryId());
        const entries = pending
          ? await whileWriting(pending.written, () => entriesOf(slice, ids))
          : entriesOf(slice, ids);
        if (pending) {
          posted += pending.rows;
          await onProgress?.(posted, toPost, 'posting');
        }
        const entryIds = await postEntriesInBulk(
          trx,
          {
            organizationId,
            actorUserId: userId,
            audit: null,
            refreshStatistics: at === 0 && fresh.length >= ANALYZE_FROM,
          },
          entries,
        );
        const c = emptyBankRowColumns();
        for (let i = 0; i < slice.length; i += 1) {
          const r = slice[i]!;
          const rule = r.rule;
          c.id.push(ids[i]!);
          c.date.push(r.date);
          c.description.push(r.description);
          c.payee.push(rule?.set_payee ?? r.payee);
          c.amount.push(r.amount);
          c.status.push(rule ? 'categorized' : 'uncategorized');
          c.categoryKind.push(rule ? 'account' : 'none');
          c.categoryAccountId.push(rule?.set_category_account_id ?? null);
          c.taxRate.push(rule?.set_tax_rate ?? null);
          c.rate.push(r.rate);
          c.entryId.push(entryIds[i]!);
          c.externalId.push(r.externalId);
          c.dedupeKey.push(r.dedupeKey);
          c.descriptionKey.push(descriptionKey(r.description));
          c.ruleId.push(rule?.id ?? null);
        }
        pending = {
          written: insertBankTransactionsInBulk(
            trx,
            { organizationId, moneyAccountId: money.id, importId, createdBy: userId },
            c,
          ),
          rows: slice.length,
        };
      }
      if (pending) {
        await pending.written;
        posted += pending.rows;
        await onProgress?.(posted, toPost, 'posting');
      }
      const numbered = await trx
        .selectFrom('ledger_settings')
        .select('next_entry_number')
        .where('organization_id', '=', organizationId)
        .executeTakeFirstOrThrow();
      const lastNumber = Number(numbered.next_entry_number) - 1;
      await recordAudit(trx, {
        organizationId,
        actorUserId: userId,
        action: 'statement_import.posted',
        entityType: 'statement_import',
        entityId: importId,
        after: { entries: fresh.length, firstNumber: lastNumber - fresh.length + 1, lastNumber },
      });
      await recordAudit(trx, {
        organizationId,
        actorUserId: userId,
        action: 'statement_import.committed',
        entityType: 'statement_import',
        entityId: importId,
        after: {
          moneyAccountId: money.id,
          fileName: input.fileName,
          format,
          statement: part.index,
          accountNumber: part.statement.accountNumber,
          imported: fresh.length,
          duplicates,
          categorizedByRules: byRules,
        },
      });
      imports.push({
        index: part.index,
        id: importId,
        moneyAccountId: money.id,
        imported: fresh.length,
        duplicates,
      });
      totalImported += fresh.length;
      totalByRules += byRules;
    }
    await onProgress?.(posted, toPost, 'finishing');
    // A large import changes the table's shape at once; fresh statistics keep the list's plans on its indexes.
    if (totalImported >= ANALYZE_FROM) await sql`analyze bank_transactions`.execute(trx);
    return {
      id: imports.find((i) => i.id)?.id ?? null,
      imported: totalImported,
      duplicates: totalDuplicates,
      categorizedByRules: totalByRules,
      durationMs: Math.round(performance.now() - started),
      imports,
    };
  });

export const listImports = async (ctx: AppContext, member: MemberContext, moneyAccountId?: string) => {
  let q = ctx.database.db
    .selectFrom('statement_imports')
    .select([
      'id',
      'money_account_id',
      'file_name',
      'format',
      'total_rows',
      'imported_rows',
      'duplicate_rows',
      'created_at',
    ])
    .where('organization_id', '=', member.organizationId);
  if (moneyAccountId) q = q.where('money_account_id', '=', moneyAccountId);
  const rows = await q.orderBy('created_at', 'desc').limit(50).execute();
  return rows.map((r) => ({
    id: r.id,
    moneyAccountId: r.money_account_id,
    fileName: r.file_name,
    format: r.format,
    totalRows: r.total_rows,
    importedRows: r.imported_rows,
    duplicateRows: r.duplicate_rows,
    createdAt: new Date(r.created_at as Date).toISOString(),
  }));
};
