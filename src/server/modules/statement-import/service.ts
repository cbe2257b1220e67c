import { createHash, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { badRequest, conflict, notFound } from '../../../shared/errors.ts';
import { currencyExponent } from '../../../shared/money.ts';
import {
  type CsvMapping,
  type CsvSniff,
  type StatementImportResult,
  type StatementPreview,
  csvMappingSchema,
  descriptionKey,
  type statementImportInputSchema,
} from '../../../shared/transactions.ts';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { recordAudit } from '../audit/record.ts';
import type { MemberContext } from '../companies/guard.ts';
import { inTransaction } from '../ledger/posting.ts';
import type { Executor } from '../ledger/queries.ts';
import { postEntriesInBulk } from '../transactions/ledger-bulk.ts';
import {
  dedupePrefix,
  entryForTransaction,
  loadPostingContext,
  rateBook,
} from '../transactions/posting-context.ts';
import {
  type RuleRow,
  insertImportedBankTransactions,
  selectExistingKeys,
  selectExternalIds,
  selectRules,
} from '../transactions/queries.ts';
import { firstMatchingRule } from '../transactions/rules.ts';
import { addToBalance, selectMoneyAccount } from '../wallet/queries.ts';
import { sniffCsv } from './csv.ts';
import { detectStatementFormat, parseStatement } from './parse.ts';
import { type ParsedStatementRow, StatementParseError, type StatementLineError } from './types.ts';

// Statement import: parse, mark duplicates, apply rules, show a preview; on commit, insert
// and post every new row in one database transaction, or nothing at all.

type ImportInput = z.output<typeof statementImportInputSchema>;

const refuse = (errors: StatementLineError[], total?: number) =>
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

const prepare = async (db: Executor, member: MemberContext, input: ImportInput, forUpdate: boolean) => {
  const { organizationId } = member;
  const money = await loadAccount(db, organizationId, input.moneyAccountId, forUpdate);
  const format = input.format ?? detectStatementFormat(input.fileName, input.content);
  const mapping = format === 'csv' ? (input.mapping ?? savedMappingOf(money.csv_mapping)) : null;
  let statement: ReturnType<typeof parseStatement>;
  try {
    statement = parseStatement({
      fileName: input.fileName,
      content: input.content,
      format,
      mapping,
      exponent: currencyExponent(money.currency),
    });
  } catch (error) {
    if (error instanceof StatementParseError) throw refuse(error.errors);
    throw error;
  }
  if (statement.currency && statement.currency !== money.currency) {
    throw refuse([
      {
        line: 1,
        reason: `the statement is in ${statement.currency} but ${money.name} is kept in ${money.currency}`,
      },
    ]);
  }
  const problems: StatementLineError[] = [];
  for (const row of statement.rows) {
    if (row.date < money.opening_date) {
      problems.push({
        line: row.line,
        reason: `${row.date} is before ${money.name} opens (${money.opening_date})`,
      });
    }
  }
  const pc = await loadPostingContext(db, organizationId);
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
  if (problems.length > 0) throw refuse(problems.slice(0, 50), statement.rows.length);
  const dates = statement.rows.map((r) => r.date).sort();
  const existing =
    dates.length > 0
      ? await selectExistingKeys(db, organizationId, money.id, dates[0]!, dates[dates.length - 1]!)
      : [];
  const existingKeys = new Set(existing.map((e) => e.dedupe_key));
  const fileIds = [
    ...new Set(statement.rows.map((r) => r.externalId).filter((x): x is string => Boolean(x))),
  ];
  const existingIds = await selectExternalIds(db, organizationId, money.id, fileIds);
  const rules = input.applyRules ? (await selectRules(db, organizationId)).filter((r) => r.enabled) : [];
  const occurrences = new Map<string, number>();
  const seenIds = new Set<string>();
  const rows: PreparedRow[] = statement.rows.map((row, i) => {
    const prefix = dedupePrefix(row.date, row.amount, row.description);
    const n = (occurrences.get(prefix) ?? 0) + 1;
    occurrences.set(prefix, n);
    const dedupeKey = `${prefix}#${n}`;
    const duplicate =
      existingKeys.has(dedupeKey) ||
      (row.externalId !== null && (existingIds.has(row.externalId) || seenIds.has(row.externalId)));
    if (row.externalId) seenIds.add(row.externalId);
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
    return { ...row, duplicate, dedupeKey, rule: usableRule, rate: rates[i] ?? null };
  });
  return { money, statement, format, mapping, rows, pc };
};

export const previewStatement = async (
  ctx: AppContext,
  member: MemberContext,
  input: ImportInput,
): Promise<StatementPreview> => {
  const { statement, format, mapping, rows } = await prepare(ctx.database.db, member, input, false);
  const fresh = rows.filter((r) => !r.duplicate);
  const dates = rows.map((r) => r.date).sort();
  return {
    format,
    currency: statement.currency,
    accountNumber: statement.accountNumber,
    closingBalance: statement.closingBalance,
    totalRows: rows.length,
    newRows: fresh.length,
    duplicateRows: rows.length - fresh.length,
    categorizedByRules: fresh.filter((r) => r.rule).length,
    moneyIn: fresh.filter((r) => r.amount > 0).reduce((s, r) => s + r.amount, 0),
    moneyOut: -fresh.filter((r) => r.amount < 0).reduce((s, r) => s + r.amount, 0),
    firstDate: dates[0] ?? null,
    lastDate: dates[dates.length - 1] ?? null,
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
    })),
    mapping,
  };
};

export const commitStatement = (
  ctx: AppContext,
  member: MemberContext,
  input: ImportInput,
): Promise<StatementImportResult> =>
  inTransaction(ctx.database.db, async (trx) => {
    const started = performance.now();
    const { organizationId, userId } = member;
    const { money, format, mapping, rows, pc } = await prepare(trx, member, input, true);
    const fresh = rows.filter((r) => !r.duplicate);
    if (mapping) {
      await trx
        .updateTable('money_accounts')
        .set({ csv_mapping: JSON.stringify(mapping) })
        .where('organization_id', '=', organizationId)
        .where('id', '=', money.id)
        .execute();
    }
    const duplicates = rows.length - fresh.length;
    if (fresh.length === 0) {
      return {
        id: null,
        imported: 0,
        duplicates,
        categorizedByRules: 0,
        durationMs: Math.round(performance.now() - started),
      };
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
        file_sha256: createHash('sha256').update(input.content).digest('hex'),
        total_rows: rows.length,
        imported_rows: fresh.length,
        duplicate_rows: duplicates,
        rule_rows: byRules,
        created_by: userId,
      })
      .execute();
    const ids = fresh.map(() => randomUUID());
    const entryIds = await postEntriesInBulk(
      trx,
      {
        organizationId,
        actorUserId: userId,
        audit: { action: 'statement_import.posted', entityType: 'statement_import', entityId: importId },
      },
      fresh.map((r, i) =>
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
      ),
    );
    await insertImportedBankTransactions(
      trx,
      { organizationId, moneyAccountId: money.id, importId, createdBy: userId },
      fresh.map((r, i) => ({
        id: ids[i]!,
        date: r.date,
        description: r.description,
        payee: r.rule?.set_payee ?? r.payee,
        amount: r.amount,
        status: r.rule ? 'categorized' : 'uncategorized',
        categoryKind: r.rule ? 'account' : 'none',
        categoryAccountId: r.rule?.set_category_account_id ?? null,
        taxRate: r.rule?.set_tax_rate ?? null,
        rate: r.rate,
        entryId: entryIds[i]!,
        externalId: r.externalId,
        dedupeKey: r.dedupeKey,
        descriptionKey: descriptionKey(r.description),
        ruleId: r.rule?.id ?? null,
      })),
    );
    await addToBalance(
      trx,
      organizationId,
      money.id,
      fresh.reduce((s, r) => s + r.amount, 0),
    );
    // A large import changes the table's shape at once; fresh statistics keep the list's plans on its indexes.
    if (fresh.length >= 5000) await sql`analyze bank_transactions`.execute(trx);
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
        imported: fresh.length,
        duplicates,
        categorizedByRules: byRules,
      },
    });
    return {
      id: importId,
      imported: fresh.length,
      duplicates,
      categorizedByRules: byRules,
      durationMs: Math.round(performance.now() - started),
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
