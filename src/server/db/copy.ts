import { CompiledQuery, type DatabaseConnection, type Kysely } from 'kysely';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

// COPY … FROM STDIN's text format (PostgreSQL and PGlite): rows are lines, columns are separated
// by tabs, NULL is \N, and a backslash, newline, carriage return or tab inside a value is written
// as \\, \n, \r or \t. Nothing else needs escaping in that format. A NUL character cannot be
// stored in a text column at all, so a value holding one is refused here, as PostgreSQL refuses
// it in a parameter.

export type CopyValue = string | number | null;
/** One column: its values row by row, or one value for every row. */
export type CopyColumn = readonly CopyValue[] | { readonly every: CopyValue };

const NEEDS_ESCAPE = /[\\\n\r\t]/;

export class CopyTextError extends Error {}
const nulError = () =>
  new CopyTextError('text holds a NUL character (\\u0000), which PostgreSQL cannot store');

const escapeText = (value: string) => {
  if (value.includes('\u0000')) throw nulError();
  let out = '';
  let from = 0;
  for (let i = 0; i < value.length; i += 1) {
    const c = value.charCodeAt(i);
    let esc: string | null = null;
    if (c === 92) esc = '\\\\';
    else if (c === 10) esc = '\\n';
    else if (c === 13) esc = '\\r';
    else if (c === 9) esc = '\\t';
    if (esc !== null) {
      out += value.slice(from, i) + esc;
      from = i + 1;
    }
  }
  return out + value.slice(from);
};

/** One value in COPY's text format. */
export const copyField = (value: CopyValue): string => {
  if (value === null) return '\\N';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new CopyTextError(`${value} is not a finite number`);
    return String(value);
  }
  if (typeof value !== 'string') throw new CopyTextError(`${typeof value} cannot be copied`);
  if (NEEDS_ESCAPE.test(value)) return escapeText(value);
  if (value.includes('\u0000')) throw nulError();
  return value;
};

/** Rows `from` to `to` (exclusive) of the columns as COPY text, one line per row. */
export const copyText = (columns: readonly CopyColumn[], rows: number, from = 0, to = rows): string => {
  const fixed = columns.map((c) => (Array.isArray(c) ? null : copyField((c as { every: CopyValue }).every)));
  const parts: string[] = [];
  for (let r = from; r < to; r += 1) {
    let line = '';
    for (let k = 0; k < columns.length; k += 1) {
      const column = columns[k]!;
      const field = fixed[k] ?? copyField((column as readonly CopyValue[])[r] as CopyValue);
      line += k === 0 ? field : `\t${field}`;
    }
    parts.push(line);
  }
  return parts.length === 0 ? '' : `${parts.join('\n')}\n`;
};

// ——— Writing rows with COPY inside the caller's transaction ———

/** The pg clients of this process's pools by backend process id (filled by db/client.ts). */
const clientsByPid = new Map<number, pg.ClientBase>();
const clientOfConnection = new WeakMap<DatabaseConnection, pg.ClientBase>();

/** Registers a pool's new client (pool.on('connect')), so COPY can be sent on a Kysely connection's own client. */
export const rememberPostgresClient = (client: pg.PoolClient) => {
  const pid = (client as unknown as { processID: number | null }).processID;
  if (pid === null || pid === undefined) return;
  clientsByPid.set(pid, client);
  client.once('end', () => {
    if (clientsByPid.get(pid) === client) clientsByPid.delete(pid);
  });
};

type PGliteLike = { query: (sql: string, params: unknown[], options: { blob: Blob }) => Promise<unknown> };
const pgliteOf = (connection: DatabaseConnection): PGliteLike | null => {
  const client = (connection as { client?: unknown }).client;
  return client && typeof (client as PGliteLike).query === 'function' && 'dumpDataDir' in (client as object)
    ? (client as PGliteLike)
    : null;
};

const postgresClientOf = async (connection: DatabaseConnection) => {
  const known = clientOfConnection.get(connection);
  if (known) return known;
  const { rows } = await connection.executeQuery<{ pid: number }>(
    CompiledQuery.raw('select pg_backend_pid() as pid'),
  );
  const client = clientsByPid.get(Number(rows[0]?.pid));
  if (!client) throw new Error('COPY: this connection was not opened by openDatabase (db/client.ts)');
  clientOfConnection.set(connection, client);
  return client;
};

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;
/** Rows per chunk of COPY text handed to the server (bounds the string held at once). */
const CHUNK_ROWS = 2000;

/**
 * Inserts `rows` rows into `table` with COPY FROM STDIN on the executor's connection (the
 * caller's transaction): PostgreSQL through pg-copy-streams, PGlite from a blob. Triggers and
 * constraints fire exactly as for INSERT (row, statement and transition-table triggers alike).
 */
export const copyRows = async (
  db: Kysely<any>,
  table: string,
  columnNames: readonly string[],
  columns: readonly CopyColumn[],
  rows: number,
): Promise<void> => {
  if (rows === 0) return;
  if (
    !IDENTIFIER.test(table) ||
    !columnNames.every((c) => IDENTIFIER.test(c)) ||
    columnNames.length !== columns.length
  )
    throw new Error(`COPY: bad table or columns for ${table}`);
  const head = `copy ${table} (${columnNames.join(', ')}) from`;
  // The whole text is built (and every value checked) before the COPY starts, so bad data never
  // leaves a COPY half sent on the connection.
  const parts: string[] = [];
  for (let at = 0; at < rows; at += CHUNK_ROWS)
    parts.push(copyText(columns, rows, at, Math.min(rows, at + CHUNK_ROWS)));
  // getExecutor() is Kysely's (internal) way to the connection the executor holds: in a
  // transaction, the transaction's own connection.
  await db.getExecutor().provideConnection(async (connection) => {
    const pglite = pgliteOf(connection);
    if (pglite) {
      await pglite.query(`${head} '/dev/blob'`, [], { blob: new Blob(parts) });
      return;
    }
    const client = await postgresClientOf(connection);
    await new Promise<void>((resolve, reject) => {
      const stream = client.query(copyFrom(`${head} stdin`));
      stream.on('error', reject);
      stream.on('finish', () => resolve());
      let next = 0;
      const writeMore = () => {
        while (next < parts.length) {
          if (!stream.write(parts[next++]!)) {
            stream.once('drain', writeMore);
            return;
          }
        }
        stream.end();
      };
      writeMore();
    });
  });
};
