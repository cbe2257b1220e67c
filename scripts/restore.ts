import fs from 'node:fs';
import { loadServerConfig } from '../src/server/config.ts';
import {
  BackupError,
  runAsCommand,
  type Log,
  type PgTool,
  assertPgliteNotOpen,
  assertRestorableLevel,
  backupKindOf,
  choosePgTool,
  findPgTools,
  isNonEmptyDir,
  libpqConnection,
  migrationLevelText,
  migrationsIn,
  missingToolMessage,
  openPglite,
  parseArgs,
  pgMajorOf,
  pgliteDir,
  runPgTool,
  userPath,
  withPgClient,
} from './backup-common.ts';

// npm run restore -- <file> [--force]: puts a backup made by `npm run backup` back into the
// configured database (docs/operations.md "Backup and restore", decision 0045).
// - Refuses a backup from a newer Kontor (a migration this code does not know); an older one is
//   migrated forward when the server starts.
// - PostgreSQL: into DATABASE_URL's database, which must be empty — unless --force, which
//   replaces the objects the backup holds (pg_restore --clean) while no one else is connected.
//   One transaction: a failed restore leaves the database as it was.
// - The embedded database: into DATA_DIR, whose pgdata must be absent or empty — unless
//   --force, which keeps the old one beside it as pgdata.before-restore-<time>. The server must
//   be stopped. The backup is unpacked and checked in a side directory first, then renamed in.

export type RestoreOptions = {
  file: string;
  databaseUrl: string | null;
  dataDir: string;
  force?: boolean;
  log?: Log;
};

export type RestoreResult = { kind: 'postgres' | 'pglite'; migrations: string[]; keptOld?: string };

const stamp = () =>
  new Date()
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');

/** The archive's header lines (`; Dumped from database version: 15.20`…) through a pg_restore that can read it. */
const readArchive = (file: string) => {
  const tools = findPgTools('pg_restore');
  if (tools.length === 0) throw new BackupError(missingToolMessage('pg_restore', tools, 0, 'The backup'));
  // The newest pg_restore reads every older archive; its header names what wrote it.
  const newest = [...tools].sort((a, b) => b.major - a.major)[0]!;
  let listing: string;
  try {
    listing = runPgTool(newest, ['--list', file], process.env);
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    if (/unsupported version/i.test(text))
      throw new BackupError(
        `${newest.path} (PostgreSQL ${newest.major}) cannot read ${file}: it was written by a newer pg_dump. Install that version's client programs (postgresql-client-<n>).`,
      );
    throw new BackupError(`${file} is not a readable pg_dump archive: ${text}`);
  }
  const dumpedBy = pgMajorOf(/Dumped by pg_dump version: (\S+)/.exec(listing)?.[1] ?? '') ?? newest.major;
  const dumpedFrom = /Dumped from database version: (\S+)/.exec(listing)?.[1] ?? '';
  const pgRestore = choosePgTool(tools, dumpedBy);
  if (!pgRestore) throw new BackupError(missingToolMessage('pg_restore', tools, dumpedBy, 'The backup'));
  return { pgRestore, dumpedFrom };
};

/** The kysely_migration rows inside a pg_dump archive, read without a database. */
const archiveMigrations = (pgRestore: PgTool, file: string) => {
  const text = runPgTool(
    pgRestore,
    ['--data-only', '--table=kysely_migration', '--file=-', file],
    process.env,
  );
  const names: string[] = [];
  let inCopy = false;
  for (const line of text.split('\n')) {
    if (/^COPY \S*kysely_migration /.test(line)) inCopy = true;
    else if (line === '\\.') inCopy = false;
    else if (inCopy && line) names.push(line.split('\t')[0]!);
  }
  return names;
};

const restorePostgres = async (options: RestoreOptions & { databaseUrl: string }, log: Log) => {
  const { file } = options;
  const { pgRestore, dumpedFrom } = readArchive(file);
  const migrations = archiveMigrations(pgRestore, file);
  assertRestorableLevel(migrations);
  await withPgClient(options.databaseUrl, async (client) => {
    const objects = Number(
      (
        await client.query(`
          select count(*) as n from pg_class c join pg_namespace n on n.oid = c.relnamespace
           where c.relkind in ('r', 'p', 'v', 'm', 'S')
             and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg_toast%'`)
      ).rows[0]?.n ?? 0,
    );
    if (objects > 0 && !options.force)
      throw new BackupError(
        `DATABASE_URL's database is not empty (${objects} tables, views or sequences). Restore into a new, empty database (e.g. createdb kontor_restored, then point DATABASE_URL at it), or pass --force to replace what the backup holds in this one.`,
      );
    if (objects > 0) {
      const others = Number(
        (
          await client.query(
            'select count(*) as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
          )
        ).rows[0]?.n ?? 0,
      );
      if (others > 0)
        throw new BackupError(
          `${others} other connection(s) are open to DATABASE_URL's database (a running Kontor server?): stop them before restoring over it.`,
        );
    }
    const serverVersion = String((await client.query('show server_version')).rows[0]?.server_version ?? '');
    const from = pgMajorOf(dumpedFrom);
    const to = pgMajorOf(serverVersion);
    if (from !== null && to !== null && to < from)
      log(
        `Warning: the backup comes from PostgreSQL ${from} and this server is ${to}; objects newer than ${to} may fail to restore.`,
      );
    log(
      `Restoring ${file} (${migrationLevelText(migrations)}, from PostgreSQL ${dumpedFrom || 'unknown'}) with ${pgRestore.path}${objects > 0 ? ', replacing existing objects' : ''} …`,
    );
  });
  const { dbname, env } = libpqConnection(options.databaseUrl);
  runPgTool(
    pgRestore,
    [
      '--no-owner',
      '--no-acl',
      '--single-transaction',
      '--exit-on-error',
      ...(options.force ? ['--clean', '--if-exists'] : []),
      `--dbname=${dbname}`,
      file,
    ],
    env,
  );
  const restored = await withPgClient(options.databaseUrl, (client) =>
    migrationsIn((sql) => client.query(sql)),
  );
  return { kind: 'postgres' as const, migrations: restored };
};

const restorePglite = async (options: RestoreOptions, log: Log): Promise<RestoreResult> => {
  const { file, dataDir } = options;
  const target = pgliteDir(dataDir);
  if (isNonEmptyDir(target)) {
    assertPgliteNotOpen(dataDir);
    if (!options.force)
      throw new BackupError(
        `${target} already holds a database. Restore into a new DATA_DIR, or pass --force to put the backup in its place (the current one is kept beside it).`,
      );
  }
  const at = stamp();
  const side = `${target}.restoring-${at}`;
  log(`Unpacking ${file} into ${side} …`);
  fs.mkdirSync(side, { recursive: true });
  let migrations: string[];
  try {
    let pglite: Awaited<ReturnType<typeof openPglite>>;
    try {
      const bytes = fs.readFileSync(file);
      pglite = await openPglite(side, new Blob([bytes], { type: 'application/x-gzip' }));
    } catch (error) {
      throw new BackupError(
        `could not open ${file} as an embedded database (was it made by npm run backup on the embedded database, with this PGlite version?): ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    try {
      migrations = await migrationsIn((sql) => pglite.query<{ name: string }>(sql));
    } finally {
      await pglite.close();
    }
    assertRestorableLevel(migrations);
  } catch (error) {
    fs.rmSync(side, { recursive: true, force: true });
    throw error;
  }
  let keptOld: string | undefined;
  if (fs.existsSync(target)) {
    if (isNonEmptyDir(target)) {
      keptOld = `${target}.before-restore-${at}`;
      fs.renameSync(target, keptOld);
    } else fs.rmdirSync(target);
  }
  fs.renameSync(side, target);
  return { kind: 'pglite', migrations, ...(keptOld ? { keptOld } : {}) };
};

/** Restores `options.file` into the configured database; see the notes at the top. */
export const restore = async (options: RestoreOptions): Promise<RestoreResult> => {
  const log = options.log ?? (() => {});
  if (!fs.existsSync(options.file)) throw new BackupError(`${options.file} does not exist.`);
  const kind = backupKindOf(options.file);
  if (kind === null)
    throw new BackupError(`${options.file} is neither a pg_dump archive nor an embedded-database backup.`);
  const target = options.databaseUrl ? 'postgres' : 'pglite';
  if (kind !== target)
    throw new BackupError(
      kind === 'postgres'
        ? `${options.file} is a PostgreSQL backup, but DATABASE_URL is not set (the embedded database is configured). Set DATABASE_URL to the database to restore into.`
        : `${options.file} is a backup of the embedded database, but DATABASE_URL is set. Unset DATABASE_URL and set DATA_DIR to restore it.`,
    );
  return options.databaseUrl
    ? restorePostgres({ ...options, databaseUrl: options.databaseUrl }, log)
    : restorePglite(options, log);
};

const main = async () => {
  const args = parseArgs(process.argv.slice(2), []);
  const file = args.positional[0];
  if (!file) throw new BackupError('name the backup file: npm run restore -- <file> [--force]');
  const unknown = [...args.flags].filter((f) => f !== 'force');
  if (unknown.length > 0) throw new BackupError(`unknown option --${unknown[0]} (only --force).`);
  const config = loadServerConfig();
  const log: Log = (line) => console.log(line);
  const result = await restore({
    file: userPath(file),
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    force: args.flags.has('force'),
    log,
  });
  log(`Restored: ${migrationLevelText(result.migrations)}.`);
  if (result.keptOld)
    log(`The database that was there is kept in ${result.keptOld}; delete it when satisfied.`);
  log('Start Kontor as usual; it applies any newer migrations of this code at start.');
};

await runAsCommand(import.meta.url, 'restore', main);
