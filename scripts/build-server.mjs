// Compiles the server to JavaScript in dist/server so that `npm start` runs plain JavaScript
// (issue 20 §6, decisions 0039 and 0048). esbuild bundles src/server/main.ts with src/shared
// and the pure-JavaScript libraries it imports into dist/server/main.js (plus shared chunks
// beside it), so a start reads a handful of files instead of about 2,500: loading modules one
// by one was most of the start. Each migration is an entry of its own
// (dist/server/db/migrations/<name>.js, found by db/migrate.ts at run time) sharing the
// bundle's chunks, so it uses the same Kysely as the server.
//
// Left to Node at run time (EXTERNAL below): packages with native code or files they read
// beside themselves (PGlite's WebAssembly, argon2, pdfkit's fonts, the Swagger UI's assets,
// pino's worker transport), pg (tracing patches the pg that Node loaded, tracing.ts), and the
// large libraries the server imports only when first used (Stripe, Plaid, the S3 client,
// nodemailer, web-push, ioredis, OpenTelemetry): bundled, they would be parsed at every start.
//
// A source file's `import.meta.url` is rewritten to the URL its file-per-file output would
// have (`new URL('./db/migrate.js', import.meta.url)` from dist/server/main.js), so the paths
// the server computes from its own location — dist/web (app.ts), the migrations directory
// (db/migrate.ts) — are the same as when it runs from source or compiled file by file.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER_SOURCES = ['src/server', 'src/shared'];
const OUT = path.join(root, 'dist');
const SERVER_OUT = path.join(OUT, 'server');
export const builtServerEntry = path.join(SERVER_OUT, 'main.js');
const MIGRATIONS = path.join(root, 'src/server/db/migrations');

/** Packages Node loads at run time instead of the bundle holding them (see the note above). */
export const EXTERNAL = [
  // native code, or files read from beside the package
  '@electric-sql/pglite',
  '@node-rs/argon2',
  'pdfkit',
  '@fastify/swagger-ui',
  'pino',
  'pino-pretty',
  // instrumented by OpenTelemetry when tracing is on (its require hook sees Node's copy only)
  'pg',
  'pg-pool',
  'pg-native',
  // imported only when first used
  '@aws-sdk/client-s3',
  // OpenTelemetry's SDK (tracing.ts); its API is bundled (better-auth imports it), and both
  // copies share the one registration the API keeps on globalThis
  '@opentelemetry/exporter-trace-otlp-http',
  '@opentelemetry/instrumentation',
  '@opentelemetry/instrumentation-http',
  '@opentelemetry/instrumentation-pg',
  '@opentelemetry/resources',
  '@opentelemetry/sdk-trace-base',
  '@opentelemetry/sdk-trace-node',
  'ioredis',
  'nodemailer',
  'plaid',
  'stripe',
  'web-push',
];

/** The newest modification time of a file or anything below a folder (0 when it is missing). */
const newestMtime = (p) => {
  const full = path.join(root, p);
  if (!fs.existsSync(full)) return 0;
  const stat = fs.statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(full)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
};

/** Whether `built` is missing or older than any of `sources` (paths from the repository root). */
export const isStale = (built, sources) =>
  !fs.existsSync(built) || sources.some((s) => newestMtime(s) > fs.statSync(built).mtimeMs);

/** Whether the compiled server is missing or older than its sources, the lockfile or this script. */
export const serverIsStale = () =>
  isStale(builtServerEntry, [...SERVER_SOURCES, 'package-lock.json', 'scripts/build-server.mjs']);

const migrationFiles = () =>
  fs
    .readdirSync(MIGRATIONS)
    .filter((f) => f.endsWith('.ts') && !f.includes('.test.'))
    .map((f) => path.join(MIGRATIONS, f));

/** Where `file` (under src/) would be written compiled file by file, as a URL relative to dist/server. */
const outputUrlOf = (file) => {
  const relative = path.relative(path.join(root, 'src/server'), file).replace(/\.ts$/, '.js');
  return `./${relative.split(path.sep).join('/')}`;
};

// Every `import.meta.url` in Kontor's own code names the file-per-file output's URL, computed
// from where the bundle runs (dist/server/main.js, or a chunk beside it).
const ownImportMetaUrl = {
  name: 'kontor-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\/src\/(server|shared)\/.*\.ts$/ }, async (args) => {
      const text = await fs.promises.readFile(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return null;
      if (args.path.startsWith(MIGRATIONS))
        throw new Error(`${args.path}: a migration may not use import.meta.url (it is bundled elsewhere)`);
      return {
        contents: text.replaceAll(
          'import.meta.url',
          `new URL(${JSON.stringify(outputUrlOf(args.path))}, import.meta.url).href`,
        ),
        loader: 'ts',
      };
    });
  },
};

export const buildServer = async () => {
  // esbuild is loaded only to build: a start with an up-to-date dist/server never loads it.
  const { build } = await import('esbuild');
  for (const dir of SERVER_SOURCES)
    fs.rmSync(path.join(OUT, path.basename(dir)), { recursive: true, force: true });
  await build({
    entryPoints: [path.join(root, 'src/server/main.ts'), ...migrationFiles()],
    outbase: path.join(root, 'src/server'),
    outdir: SERVER_OUT,
    // Chunks sit beside main.js, so import.meta.url's folder is dist/server in every bundle file.
    chunkNames: 'chunk-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: EXTERNAL,
    plugins: [ownImportMetaUrl],
    // CommonJS libraries inside the bundle `require` Node's modules and the external packages.
    banner: {
      js: "import { createRequire as __kontorCreateRequire } from 'node:module';\nconst require = __kontorCreateRequire(import.meta.url);",
    },
    // Stack traces name the TypeScript lines (npm start runs Node with --enable-source-maps);
    // without the sources' text the maps are a third of the size, and so is what Node holds.
    sourcemap: true,
    sourcesContent: false,
    logLevel: 'warning',
  });
};

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  await buildServer();
  console.log(`kontor: server compiled to dist/server in ${Math.round(performance.now() - started)} ms`);
}
