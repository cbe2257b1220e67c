import fs from 'node:fs';
import path from 'node:path';
import { loadServerConfig } from '../src/server/config.ts';
import { legacyAttachmentsDir } from '../src/server/modules/attachments/store.ts';
import {
  BackupError,
  runAsCommand,
  type Log,
  assertPgliteNotOpen,
  choosePgTool,
  defaultBackupName,
  findPgTools,
  isNonEmptyDir,
  libpqConnection,
  migrationLevelText,
  migrationsIn,
  missingToolMessage,
  notInBackup,
  openPglite,
  parseArgs,
  pgMajorOf,
  pgliteDir,
  runPgTool,
  userPath,
  withPgClient,
} from './backup-common.ts';

// npm run backup [-- <file> | --output <file>]: a backup of the configured database
// (docs/operations.md "Backup and restore", decision 0045).
// - PostgreSQL (DATABASE_URL): `pg_dump --format=custom`, a consistent snapshot taken while the
//   server keeps running. pg_dump must be the server's major version or newer.
// - The embedded database (DATA_DIR): PGlite's dumpDataDir, a .tar.gz of the data directory.
//   The server must be stopped: only one process may open it.
// The file is written under a temporary name and renamed when complete; an existing file is
// never overwritten. What the backup leaves out (legacy attachment files, an S3 bucket, the
// development bank-feeds key) is printed.

export type BackupOptions = {
  databaseUrl: string | null;
  dataDir: string;
  /** The backup file to write; must not exist. */
  output: string;
  log?: Log;
};

export type BackupResult = { file: string; kind: 'postgres' | 'pglite'; bytes: number; migrations: string[] };

const writeAtomically = async (output: string, write: (partial: string) => Promise<void>) => {
  if (fs.existsSync(output)) throw new BackupError(`${output} exists already; name a new file.`);
  fs.mkdirSync(path.dirname(path.resolve(output)), { recursive: true });
  const partial = `${output}.partial-${process.pid}`;
  try {
    await write(partial);
    fs.renameSync(partial, output);
  } finally {
    fs.rmSync(partial, { force: true });
  }
  return fs.statSync(output).size;
};

const backupPostgres = async (databaseUrl: string, output: string, log: Log): Promise<BackupResult> => {
  const { serverVersion, migrations } = await withPgClient(databaseUrl, async (client) => ({
    serverVersion: String((await client.query('show server_version')).rows[0]?.server_version ?? ''),
    migrations: await migrationsIn((sql) => client.query(sql)),
  }));
  const serverMajor = pgMajorOf(serverVersion);
  if (serverMajor === null)
    throw new BackupError(`could not read the server's version ("${serverVersion}").`);
  const tools = findPgTools('pg_dump');
  const pgDump = choosePgTool(tools, serverMajor);
  if (!pgDump)
    throw new BackupError(missingToolMessage('pg_dump', tools, serverMajor, 'The database server'));
  log(`Backing up PostgreSQL ${serverVersion} (${migrationLevelText(migrations)}) with ${pgDump.path} …`);
  const { dbname, env } = libpqConnection(databaseUrl);
  const bytes = await writeAtomically(output, async (partial) => {
    runPgTool(pgDump, ['--format=custom', '--compress=6', `--file=${partial}`, `--dbname=${dbname}`], env);
  });
  return { file: output, kind: 'postgres', bytes, migrations };
};

const backupPglite = async (dataDir: string, output: string, log: Log): Promise<BackupResult> => {
  const dir = pgliteDir(dataDir);
  if (!isNonEmptyDir(dir))
    throw new BackupError(`there is no embedded database in ${dir} (DATA_DIR=${dataDir}).`);
  assertPgliteNotOpen(dataDir);
  log(`Backing up the embedded database in ${dir} …`);
  const pglite = await openPglite(dir);
  try {
    const migrations = await migrationsIn((sql) => pglite.query<{ name: string }>(sql));
    const dump = await pglite.dumpDataDir('gzip');
    const bytes = await writeAtomically(output, async (partial) => {
      fs.writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    });
    return { file: output, kind: 'pglite', bytes, migrations };
  } finally {
    await pglite.close();
  }
};

/** Writes a backup of the database `options` name (PostgreSQL when databaseUrl is set). */
export const backup = (options: BackupOptions): Promise<BackupResult> => {
  const log = options.log ?? (() => {});
  return options.databaseUrl
    ? backupPostgres(options.databaseUrl, options.output, log)
    : backupPglite(options.dataDir, options.output, log);
};

const main = async () => {
  const args = parseArgs(process.argv.slice(2), ['output']);
  const config = loadServerConfig();
  const kind = config.databaseUrl ? 'postgres' : 'pglite';
  const output = userPath(args.values.output ?? args.positional[0] ?? defaultBackupName(kind));
  const log: Log = (line) => console.log(line);
  const result = await backup({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, output, log });
  log(
    `Wrote ${result.file} (${(result.bytes / 1024 / 1024).toFixed(1)} MB, ${migrationLevelText(result.migrations)}). Restore it with: npm run restore -- ${result.file}`,
  );
  for (const note of notInBackup({
    dataDir: config.dataDir,
    attachmentsDir: legacyAttachmentsDir(config.dataDir),
    s3Bucket: config.s3?.bucket ?? null,
    bankFeedsKeySet: Boolean(config.bankFeeds.key),
  }))
    log(`Note: ${note}`);
};

await runAsCommand(import.meta.url, 'backup', main);
