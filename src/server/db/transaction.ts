import type { Kysely } from 'kysely';
import type { Database } from './types.ts';

// Plumbing every module may use: a database handle (the pool or an open transaction) and
// "run this in a transaction, joining the caller's if there is one".

export type Executor = Kysely<Database>;

export const inTransaction = <T>(db: Executor, fn: (trx: Executor) => Promise<T>): Promise<T> =>
  db.isTransaction ? fn(db) : db.transaction().execute(fn);
