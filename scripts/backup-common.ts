import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { ConfigError } from '../src/shared/config/config.ts';

// What `npm run backup` and `npm run restore` share (docs/operations.md "Backup and restore",
// decision 0045): finding PostgreSQL's client programs, connecting them without a password on
// their command line, the migration level of a database, and the embedded database's files.

export const root = path.resolve(import.meta.dirname, '..');
const MIGRATIONS_DIR = path.join(root, 'src/server/db/migrations');

/** A refusal or failure worth one clear line to the user (no stack trace). */
export class BackupError extends Error {}

export type Log = (line: string) => void;

// ---- PostgreSQL's client programs -------------------------------------------------------------

export type PgTool = { path: string; major: number; version: string };

/** The major version in a `pg_dump --version` / `server_version` text (15 of "15.20 (Debian…)"). */
export const pgMajorOf = (text: string): number | null => {
  const match = /(\d+)(?:\.(\d+))?/.exec(text);
  return match ? Number(match[1]) : null;
};

/** Every copy of `name` (pg_dump, pg_restore) on PATH and under /usr/lib/postgresql/<n>/bin. */
export const findPgTools = (
  name: 'pg_dump' | 'pg_restore',
  env: NodeJS.ProcessEnv = process.env,
): PgTool[] => {
  const candidates = new Set<string>();
  for (const dir of (env.PATH ?? '').split(path.delimiter)) if (dir) candidates.add(path.join(dir, name));
  for (const base of ['/usr/lib/postgresql', '/usr/local/opt', '/opt/homebrew/opt']) {
    if (!fs.existsSync(base)) continue;
    for (const entry of fs.readdirSync(base)) {
      if (base.endsWith('postgresql')) candidates.add(path.join(base, entry, 'bin', name));
      else if (entry.startsWith('postgresql')) candidates.add(path.join(base, entry, 'bin', name));
    }
  }
  const found = new Map<string, PgTool>();
  for (const candidate of candidates) {
    if (!fs.existsSync(candidate)) continue;
    const real = fs.realpathSync(candidate);
    if (found.has(real)) continue;
    const run = spawnSync(candidate, ['--version'], { encoding: 'utf8' });
    const major = run.status === 0 ? pgMajorOf(run.stdout) : null;
    if (major !== null) found.set(real, { path: candidate, major, version: run.stdout.trim() });
  }
  return [...found.values()];
};

/**
 * The program to use against a server (or archive) of major version `needed`: the same major
 * if there is one, else the newest newer one. Null when every copy is older (pg_dump refuses a
 * newer server, pg_restore a newer archive).
 */
export const choosePgTool = (tools: PgTool[], needed: number): PgTool | null => {
  const usable = tools.filter((t) => t.major >= needed).sort((a, b) => a.major - b.major);
  return usable.find((t) => t.major === needed) ?? usable.at(-1) ?? null;
};

/** Why no usable program was found, and what to install. */
export const missingToolMessage = (name: string, tools: PgTool[], needed: number, what: string) =>
  tools.length === 0
    ? `${name} was not found (looked on PATH and in /usr/lib/postgresql/*/bin). Install PostgreSQL's client programs, version ${needed} or newer (Debian/Ubuntu: apt-get install postgresql-client-${needed}), or put their directory on PATH.`
    : `${what} is PostgreSQL ${needed}, but the newest ${name} found is ${Math.max(...tools.map((t) => t.major))} (${tools.map((t) => t.path).join(', ')}); ${name} cannot read a newer ${what.includes('server') ? 'server' : 'archive'}. Install PostgreSQL ${needed}'s client programs (postgresql-client-${needed}) or put them on PATH.`;

/**
 * How to hand DATABASE_URL to a libpq program: the URL without its password (on the command
 * line, which other users of the machine can read) and the password in PGPASSWORD.
 */
export const libpqConnection = (databaseUrl: string) => {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  return {
    dbname: url.toString(),
    env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
  };
};

/** Runs a PostgreSQL program; throws its own error text when it fails. */
export const runPgTool = (tool: PgTool, args: string[], env: NodeJS.ProcessEnv) => {
  const run = spawnSync(tool.path, args, { encoding: 'utf8', env, maxBuffer: 256 * 1024 * 1024 });
  if (run.error) throw new BackupError(`${path.basename(tool.path)} could not run: ${run.error.message}`);
  if (run.status !== 0)
    throw new BackupError(`${path.basename(tool.path)} failed: ${(run.stderr || run.stdout).trim()}`);
  return run.stdout;
};

export const withPgClient = async <T>(databaseUrl: string, use: (client: pg.Client) => Promise<T>) => {
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    await client.connect();
  } catch (error) {
    throw new BackupError(
      `could not connect to DATABASE_URL: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  try {
    return await use(client);
  } finally {
    await client.end();
  }
};

// ---- migration levels -------------------------------------------------------------------------

/** The migrations this code knows, by name (file name without its extension). */
export const codeMigrations = (): string[] =>
  fs
    .readdirSync(MIGRATIONS_DIR)
    .filter((f) => /\.(ts|js)$/.test(f) && !f.includes('.test.'))
    .map((f) => f.replace(/\.(ts|js)$/, ''))
    .sort();

/**
 * Refuses a backup whose database has migrations this code does not know (it was made by a
 * newer Kontor): restoring it would give the code tables it cannot read. An older backup is
 * fine — the server migrates it forward at start.
 */
export const assertRestorableLevel = (backupMigrations: string[]) => {
  if (backupMigrations.length === 0)
    throw new BackupError('the backup holds no kysely_migration rows: it is not a Kontor database backup.');
  const known = new Set(codeMigrations());
  const unknown = backupMigrations.filter((name) => !known.has(name));
  if (unknown.length > 0)
    throw new BackupError(
      `the backup comes from a newer Kontor: its database has ${unknown.length} migration(s) this code does not have (${unknown.slice(0, 3).join(', ')}${unknown.length > 3 ? ', …' : ''}). Restore it with that version of Kontor or a later one.`,
    );
};

export const migrationLevelText = (names: string[]) =>
  names.length === 0 ? 'no migrations' : `${names.length} migrations, the latest ${[...names].sort().at(-1)}`;

// ---- the embedded database --------------------------------------------------------------------

export const pgliteDir = (dataDir: string) => path.join(dataDir, 'pgdata');

/** PGlite writes postmaster.pid while a process has the data directory open, and removes it on close. */
export const assertPgliteNotOpen = (dataDir: string) => {
  const pid = path.join(pgliteDir(dataDir), 'postmaster.pid');
  if (fs.existsSync(pid))
    throw new BackupError(
      `the embedded database in ${pgliteDir(dataDir)} is open (${pid} exists): stop the Kontor server using DATA_DIR=${dataDir} first — only one process may open it. If no server is running (it was killed), start Kontor once and stop it with Ctrl-C, which closes the database cleanly.`,
    );
};

export const isNonEmptyDir = (dir: string) => fs.existsSync(dir) && fs.readdirSync(dir).length > 0;

/** Opens the embedded database in `dir` (PGlite), optionally loading a dumped data directory first. */
export const openPglite = async (dir: string, loadDataDir?: Blob) => {
  const { PGlite } = await import('@electric-sql/pglite');
  return PGlite.create(dir, loadDataDir ? { loadDataDir } : {});
};

/** The names in kysely_migration, or [] when the table is missing. */
export const migrationsIn = async (query: (sql: string) => Promise<{ rows: { name: string }[] }>) => {
  try {
    return (await query('select name from kysely_migration order by name')).rows.map((r) => r.name);
  } catch {
    return [];
  }
};

// ---- what a backup leaves out -----------------------------------------------------------------

/** Notes on what the database backup does not hold, for this configuration. */
export const notInBackup = (options: {
  dataDir: string;
  attachmentsDir: string;
  s3Bucket: string | null;
  bankFeedsKeySet: boolean;
}): string[] => {
  const notes: string[] = [];
  const countFiles = (dir: string): number =>
    fs.existsSync(dir)
      ? fs
          .readdirSync(dir, { withFileTypes: true })
          .reduce((n, e) => n + (e.isDirectory() ? countFiles(path.join(dir, e.name)) : 1), 0)
      : 0;
  const legacy = countFiles(options.attachmentsDir);
  if (legacy > 0)
    notes.push(
      `${legacy} attachment file(s) uploaded before attachments moved into the database are in ${options.attachmentsDir} and NOT in this backup: copy that directory alongside it.`,
    );
  if (options.s3Bucket)
    notes.push(
      `Attachments stored in the S3 bucket ${options.s3Bucket} are NOT in this backup (the database holds their keys): back the bucket up with the object store's own means (versioning, replication, or a sync).`,
    );
  const keyFile = path.join(options.dataDir, 'bank-feeds.key');
  if (!options.bankFeedsKeySet && fs.existsSync(keyFile))
    notes.push(
      `Bank feed access tokens in the database are encrypted with ${keyFile}, which is NOT in this backup: keep a copy of it (or set BANK_FEEDS_KEY to its contents) — without it, restored bank connections must be linked again.`,
    );
  return notes;
};

/** `kontor-backup-<UTC time>` with the extension of its kind. */
export const defaultBackupName = (kind: 'postgres' | 'pglite', now = new Date()) =>
  `kontor-backup-${now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}${kind === 'postgres' ? '.dump' : '.tar.gz'}`;

/** What a backup file is, by its first bytes: pg_dump's custom format or PGlite's tar.gz. */
export const backupKindOf = (file: string): 'postgres' | 'pglite' | null => {
  const fd = fs.openSync(file, 'r');
  try {
    const head = Buffer.alloc(5);
    fs.readSync(fd, head, 0, 5, 0);
    if (head.toString('latin1') === 'PGDMP') return 'postgres';
    if (head[0] === 0x1f && head[1] === 0x8b) return 'pglite';
    return null;
  } finally {
    fs.closeSync(fd);
  }
};

/** A path the user typed, relative to where they ran `npm run` (npm runs scripts in the project root). */
export const userPath = (p: string) => path.resolve(process.env.INIT_CWD ?? process.cwd(), p);

/** The value after `--name`, positional arguments and flags of a command line. */
export const parseArgs = (argv: string[], valued: string[]) => {
  const values: Record<string, string> = {};
  const flags = new Set<string>();
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg.startsWith('--')) {
      const [name, inline] = arg.slice(2).split('=', 2) as [string, string | undefined];
      if (valued.includes(name)) {
        const value = inline ?? argv[++i];
        if (value === undefined) throw new BackupError(`--${name} needs a value.`);
        values[name] = value;
      } else flags.add(name);
    } else positional.push(arg);
  }
  return { values, flags, positional };
};

/**
 * Runs a command's `main` when its file is the one Node was started with (not when a test
 * imports it): a BackupError or ConfigError is printed as its message, anything else with its
 * stack, and the process exits 1.
 */
export const runAsCommand = async (moduleUrl: string, name: string, main: () => Promise<void>) => {
  if (!process.argv[1] || moduleUrl !== pathToFileURL(path.resolve(process.argv[1])).href) return;
  try {
    await main();
  } catch (error) {
    const message =
      error instanceof BackupError || error instanceof ConfigError
        ? error.message
        : error instanceof Error
          ? (error.stack ?? error.message)
          : String(error);
    console.error(`kontor: ${name} failed: ${message}`);
    process.exit(1);
  }
};
