import { AppError, badRequest, conflict, notFound } from '../../../shared/errors.ts';
import type { AccountTypeName, JournalImportResult } from '../../../shared/ledger.ts';
import { DEFAULT_SUBTYPE } from '../../../shared/ledger.ts';
import { recordAudit } from '../audit/record.ts';
import { journalAccountName } from './journal-export.ts';
import {
  TOP_TYPES,
  importError,
  journalFingerprint,
  money,
  planJournalImport,
  rateOf,
} from './journal-plan.ts';
import {
  type PostJournalEntryInput,
  type PostingLineInput,
  inTransaction,
  postJournalEntries,
} from './posting.ts';
import { type Executor, selectSettings } from './queries.ts';

/**
 * Imports a journal file: every transaction becomes a posted entry, unknown accounts are
 * created from their names. Nothing is written unless the whole file is valid; the same file
 * a second time is refused (409 journal_already_imported).
 */
export const importJournal = (
  db: Executor,
  organizationId: string,
  actorUserId: string | null,
  text: string,
): Promise<JournalImportResult> =>
  inTransaction(db, async (trx) => {
    const settings = await selectSettings(trx, organizationId);
    if (!settings) throw notFound('Company not found.');
    const base = settings.base_currency.trim();
    const fingerprint = journalFingerprint(text);
    const already = await trx
      .selectFrom('journal_imports')
      .select(['created_at', 'entries'])
      .where('organization_id', '=', organizationId)
      .where('fingerprint', '=', fingerprint)
      .executeTakeFirst();
    if (already) throw alreadyImported(already);
    const { planned, parsed, notices } = planJournalImport(text, base);
    if (planned.length === 0) {
      const periodic = notices.filter((n) => n.message.startsWith('periodic transaction')).map((n) => n.line);
      throw badRequest(
        'journal_empty',
        periodic.length > 0
          ? `The file has no transactions, only periodic transactions (budget or forecast rules, which are not imported) on line${periodic.length > 1 ? 's' : ''} ${periodic.slice(0, 20).join(', ')}.`
          : 'The file has no transactions.',
        periodic.length > 0 ? { line: periodic[0] } : undefined,
      );
    }

    // Account names: Kontor's are unique ignoring case, so two spellings of one name are refused.
    const spellings = new Map<string, string>();
    for (const { postings } of planned)
      for (const w of postings) {
        const key = w.account.toLowerCase();
        const seen = spellings.get(key);
        if (seen === undefined) spellings.set(key, w.account);
        else if (seen !== w.account)
          throw importError(
            w.line,
            `"${w.account}" and "${seen}" differ only in letter case; hledger and ledger keep them apart, Kontor's account names ignore case. Use one spelling.`,
          );
      }

    const accounts = await trx
      .selectFrom('accounts')
      .select(['id', 'code', 'name', 'type'])
      .where('organization_id', '=', organizationId)
      .execute();
    const byCode = new Map(accounts.map((a) => [a.code, a]));
    const byExportName = new Map(accounts.map((a) => [journalAccountName(a).toLowerCase(), a]));
    const byName = new Map(accounts.map((a) => [a.name.toLowerCase(), a]));
    const usedCodes = new Set(accounts.map((a) => a.code));
    const mapping = new Map<string, JournalImportResult['accounts'][number]>();
    const typeOf = (name: string): AccountTypeName | undefined => {
      const parts = name.split(':');
      for (let k = parts.length; k > 0; k -= 1) {
        const declared = parsed.accountTypes.get(parts.slice(0, k).join(':'));
        if (declared) return declared;
      }
      return TOP_TYPES[parts[0]!.trim().toLowerCase()];
    };
    const resolve = async (name: string, line: number) => {
      const done = mapping.get(name);
      if (done) return done.accountId;
      const remember = (a: { id: string; code: string; name: string }, created: boolean) => {
        mapping.set(name, { journalName: name, accountId: a.id, code: a.code, name: a.name, created });
        return a.id;
      };
      const exported = byExportName.get(name.toLowerCase());
      if (exported) return remember(exported, false);
      const type = typeOf(name);
      if (!type) {
        throw importError(
          line,
          `"${name}" must start with Assets, Liabilities, Equity, Income (or Revenue) or Expenses, or be declared with "account NAME  ; type:A" (A, L, E, R, X), so its type is known.`,
        );
      }
      const [top, ...rest] = name.split(':');
      const typedByTop = TOP_TYPES[top!.trim().toLowerCase()] === type;
      const leaf = rest.join(':').trim();
      // "Assets:1010 Business bank account" (our own export): a leading word with a digit is the code.
      const codeMatch = /^(?=\S*\d)(\S{1,20}) (.+)$/.exec(leaf);
      if (codeMatch && rest.length === 1) {
        const byItsCode = byCode.get(codeMatch[1]!);
        if (byItsCode && byItsCode.type === type) return remember(byItsCode, false);
      }
      const useCode = codeMatch && rest.length === 1 && !usedCodes.has(codeMatch[1]!);
      const candidates = [
        useCode
          ? codeMatch[2]!
          : typedByTop && leaf
            ? leaf
                .split(':')
                .map((s) => s.trim())
                .join(' / ')
            : name
                .split(':')
                .map((s) => s.trim())
                .join(' / '),
        name
          .split(':')
          .map((s) => s.trim())
          .join(' / '),
      ];
      let accountName: string | null = null;
      for (const candidate of candidates) {
        const existing = byName.get(candidate.toLowerCase());
        if (existing && existing.type === type && !useCode) return remember(existing, false);
        if (!existing) {
          accountName = candidate;
          break;
        }
      }
      if (accountName === null) {
        throw importError(
          line,
          `"${name}" would be named "${candidates[1]}", but that name is taken by another kind of account in this company.`,
        );
      }
      if (accountName.length > 120)
        throw importError(line, `"${name}" is longer than the 120 characters an account name may have.`);
      let code = useCode ? codeMatch[1]! : '';
      for (let k = 1; !code; k += 1) {
        const candidate = `${type.slice(0, 1).toUpperCase()}${String(k).padStart(4, '0')}`;
        if (!usedCodes.has(candidate)) code = candidate;
      }
      usedCodes.add(code);
      const id = crypto.randomUUID();
      await trx
        .insertInto('accounts')
        .values({
          organization_id: organizationId,
          id,
          code,
          name: accountName,
          type,
          subtype: DEFAULT_SUBTYPE[type],
          parent_id: null,
          currency: base,
          description: `Imported from a journal file as ${name}`.slice(0, 500),
          system_key: null,
        })
        .execute()
        .catch((error) => {
          if ((error as { code?: string }).code === '23505')
            throw conflict(
              'account_name_taken',
              `Line ${line}: the account "${accountName}" (or its code ${code}) was created by another change at the same time; nothing was imported. Import the file again.`,
            );
          throw error;
        });
      const created = { id, code, name: accountName, type };
      byName.set(accountName.toLowerCase(), created);
      byCode.set(code, created);
      return remember(created, true);
    };

    /** Text longer than Kontor keeps is cut, and the cut is a notice. */
    const clip = (text: string | null, max: number, line: number, what: string) => {
      if (text === null || text.length <= max) return text;
      notices.push({ line, message: `${what} cut to its first ${max} characters` });
      return text.slice(0, max);
    };
    const entries: Omit<PostJournalEntryInput, 'organizationId'>[] = [];
    const entryLines: number[] = [];
    /** For each entry, the file line of each of its ledger lines. */
    const postingLinesOf: number[][] = [];
    for (const { tx, postings } of planned) {
      const lines: PostingLineInput[] = [];
      const lineRefs: number[] = [];
      for (const w of postings) {
        const value = w.amount!.currency === base ? w.amount!.minor : w.cost!.minor;
        if (value === 0n && w.amount!.minor === 0n) {
          await resolve(w.account, w.line);
          continue;
        }
        if (w.amount!.currency !== base && (w.amount!.minor === 0n || value === 0n)) {
          throw importError(
            w.line,
            `${money(w.amount!)} at a cost of ${money({ currency: base, minor: value })} has no exchange rate; write a non-zero amount and cost.`,
          );
        }
        const accountId = await resolve(w.account, w.line);
        const minor = Number(value < 0n ? -value : value);
        if (!Number.isSafeInteger(minor)) throw importError(w.line, 'the amount is too large.');
        lineRefs.push(w.line);
        lines.push({
          accountId,
          ...(value > 0n || (value === 0n && w.amount!.minor > 0n) ? { debit: minor } : { credit: minor }),
          ...(w.amount!.currency !== base
            ? {
                currency: w.amount!.currency,
                amount: Number(w.amount!.minor < 0n ? -w.amount!.minor : w.amount!.minor),
                rate: rateOf(w.amount!, w.cost!),
              }
            : {}),
          description: clip(w.comment, 500, w.line, 'comment') || null,
        });
      }
      if (lines.length === 0) {
        notices.push({
          line: tx.line,
          message: 'transaction with no amounts other than zero: nothing to post',
        });
        continue;
      }
      entries.push({
        date: tx.date,
        memo: clip(tx.description, 1000, tx.line, 'description') ?? '',
        reference: tx.code ? clip(`imported #${tx.code}`, 100, tx.line, 'code') : null,
        source: 'manual',
        lines,
        actorUserId,
      });
      entryLines.push(tx.line);
      postingLinesOf.push(lineRefs);
    }
    if (entries.length === 0) throw badRequest('journal_empty', 'The file has no transactions with amounts.');
    const BATCH = 500;
    for (let i = 0; i < entries.length; i += BATCH) {
      await postJournalEntries(trx, organizationId, entries.slice(i, i + BATCH), actorUserId).catch(
        (error) => {
          if (error instanceof AppError) {
            // The ledger names entries and lines of the batch; say which lines of the file they are.
            const batch = entries.slice(i, i + BATCH);
            const m = /^Entry (\d+) \([^)]*\): /.exec(error.message);
            const details = (error.details ?? {}) as {
              line?: number;
              lockDate?: string;
              startDate?: string;
              endDate?: string;
            };
            let txLine: number | undefined;
            let rest = error.message;
            if (m) {
              txLine = entryLines[i + Number(m[1]) - 1];
              rest = error.message.slice(m[0].length);
            } else if (error.code === 'period_locked' && details.lockDate) {
              const k = batch.findIndex((e) => e.date <= details.lockDate!);
              if (k >= 0) txLine = entryLines[i + k];
            } else if (error.code === 'fiscal_year_closed' && details.startDate && details.endDate) {
              const k = batch.findIndex((e) => details.startDate! <= e.date && e.date <= details.endDate!);
              if (k >= 0) txLine = entryLines[i + k];
            } else if (typeof details.line === 'number' && /^Line \d+: /.test(error.message)) {
              // A line of the whole batch, counted across its entries: the posting's own line.
              const postingLines = postingLinesOf.slice(i, i + BATCH).flat();
              const postingLine = postingLines[details.line - 1];
              if (postingLine !== undefined) {
                throw new AppError(
                  error.status,
                  error.code,
                  error.message.replace(/^Line \d+: /, `Line ${postingLine}: `),
                  { ...details, line: postingLine },
                );
              }
            }
            if (txLine !== undefined) {
              throw new AppError(error.status, error.code, `Transaction on line ${txLine}: ${rest}`, {
                ...details,
                line: txLine,
              });
            }
          }
          throw error;
        },
      );
    }
    const createdAccounts = [...mapping.values()].filter((a) => a.created).length;
    await trx
      .insertInto('journal_imports')
      .values({
        organization_id: organizationId,
        id: crypto.randomUUID(),
        fingerprint,
        entries: entries.length,
        created_accounts: createdAccounts,
        imported_by: actorUserId,
      })
      .execute()
      .catch((error) => {
        if ((error as { code?: string }).code === '23505') throw alreadyImported(null);
        throw error;
      });
    await recordAudit(trx, {
      organizationId,
      actorUserId,
      action: 'ledger.journal_imported',
      entityType: 'ledger',
      entityId: organizationId,
      after: { entries: entries.length, createdAccounts, fingerprint },
    });
    notices.sort((a, b) => a.line - b.line);
    return {
      entries: entries.length,
      createdAccounts,
      accounts: [...mapping.values()].sort((a, b) => a.journalName.localeCompare(b.journalName)),
      notices: notices.slice(0, 500),
      noticeCount: notices.length,
    };
  });

const alreadyImported = (prior: { created_at: Date | string; entries: number } | null) =>
  conflict(
    'journal_already_imported',
    prior
      ? `This journal file was already imported on ${new Date(prior.created_at).toISOString().slice(0, 10)} (${prior.entries} entries). Importing it again would double every amount, so nothing was imported.`
      : 'This journal file is being imported already. Importing it again would double every amount, so nothing was imported.',
  );
