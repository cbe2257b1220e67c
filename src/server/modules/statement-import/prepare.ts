import { sql } from 'kysely';
import { badRequest, conflict, notFound } from '../../../shared/errors.ts';
import { MAX_DATE, unsafeTextProblem } from '../../../shared/input.ts';
import { LEDGER_VOLUME_LIMIT, currencyExponent, minorToDecimalString } from '../../../shared/money.ts';
import {
  type CsvMapping,
  type StatementFormat,
  csvMappingSchema,
  type statementImportInputSchema,
} from '../../../shared/transactions.ts';
import type { z } from 'zod';
import type { MemberContext } from '../../http/tenancy.ts';
import type { Executor } from '../../db/transaction.ts';
import { selectExistingDedupeKeys } from '../bank-transactions/bulk.ts';
import { dedupePrefix, loadPostingContext, rateBook } from '../transactions/posting-context.ts';
import { type RuleRow, selectExternalIds, selectRules } from '../transactions/queries.ts';
import { firstMatchingRule } from '../transactions/rules.ts';
import { selectMoneyAccount } from '../wallet/queries.ts';
import { detectStatementFormat, parseStatementFile } from './parse.ts';
import {
  type ParsedStatement,
  type ParsedStatementRow,
  StatementParseError,
  type StatementLineError,
} from './types.ts';

// Statement import, the shared first step of preview and commit: read the file, choose each
// statement's money account, mark duplicates, apply rules and refuse by line (service.ts).

export type ImportInput = z.output<typeof statementImportInputSchema> & {
  /** The character set an uploaded file's bytes were read in (decode.ts). */
  encoding?: string | null;
  /** Bytes of the upload replaced with U+FFFD, and their lines (decode.ts). */
  unreadable?: { bytes: number; lines: number[] } | null;
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

export const savedMappingOf = (value: unknown): CsvMapping | null => {
  const parsed = csvMappingSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
};

export const loadAccount = async (db: Executor, organizationId: string, id: string, forUpdate: boolean) => {
  const money = await selectMoneyAccount(db, organizationId, id, { forUpdate });
  if (!money) throw notFound('Money account not found.');
  if (money.archived_at)
    throw conflict('account_archived', `${money.name} is archived; unarchive it to import into it.`);
  return { ...money, currency: money.currency.trim() };
};

export type PreparedRow = ParsedStatementRow & {
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

export const partRef = (part: { statement: ParsedStatement; index: number }) =>
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

export const prepare = async (
  db: Executor,
  member: MemberContext,
  input: ImportInput,
  forUpdate: boolean,
) => {
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
      // Text columns cannot hold NUL (nor a lone surrogate): refused here by line, not by the
      // database at commit (db/copy.ts refuses it too, without knowing the line).
      const textProblem =
        unsafeTextProblem(row.description) ??
        (row.payee === null ? undefined : unsafeTextProblem(row.payee)) ??
        (row.externalId === null ? undefined : unsafeTextProblem(row.externalId));
      if (textProblem) problems.push({ line: row.line, reason: `the line's text ${textProblem}` });
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

export const summaryOf = (rows: PreparedRow[]) => {
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
