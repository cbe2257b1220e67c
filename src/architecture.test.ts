import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The import rules of docs/architecture.md ("Import rules"), checked on every run:
//   - no two files import each other, directly or round a circle;
//   - no two units do either: a unit is a server module (src/server/modules/<name>), a web page
//     (src/web/pages/<name>), or any other top-level file or folder (src/server/http,
//     src/server/db, src/server/app.ts, src/web/lib, src/shared/money.ts, ...);
//   - src/shared imports nothing from src/server or src/web, src/server nothing from src/web,
//     and src/web nothing from src/server.
// Every import counts: value imports, `import type`, `export ... from`, `import()` and Vite's
// `import.meta.glob()`. Type-only
// imports vanish at run time, but a circle of types is still two units that cannot be read,
// changed or moved one without the other — the design problem this test is about. Test files
// are left out of the graph: nothing imports them, and their helpers (src/server/testing) sit
// above app.ts on purpose.
// Decision record: docs/decisions/0019-import-cycles.md.

const SRC = path.dirname(fileURLToPath(import.meta.url));

/**
 * Unit cycles that exist today and were not broken with the rest (see each comment). Each entry
 * is the cycle's units, sorted, joined by ' ⇄ '. A new cycle, or a unit joining one of these,
 * fails; an entry whose cycle is gone fails too (remove it then).
 */
const KNOWN_CYCLES = new Map<string, string>([
  [
    // The session is plumbing but lives with auth, and auth reaches into business modules:
    // http (tenancy.ts, rate-limit.ts) reads the session through auth/, auth/ creates the profile
    // and sends mail through modules/, mail's routes use http/request-security.ts; and
    // http/rate-limit.ts reads the AppContext, whose config.ts parses origins with
    // http/origins.ts. Untangling it means a session lookup in http/ that auth/ registers into
    // the AppContext (and mail/profile called through it) — not done in this pass.
    'server/auth ⇄ server/config.ts ⇄ server/context.ts ⇄ server/http ⇄ server/modules/mail ⇄ server/modules/profile',
    'session plumbing inside auth/: issue 14 §1',
  ],
]);

const sourceFiles = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.d\.ts$/.test(entry.name) ? [full] : [];
  });

const allFiles = sourceFiles(SRC);

const resolveImport = (from: string, specifier: string): string | null => {
  if (!specifier.startsWith('.')) return null; // a package
  const base = path.resolve(path.dirname(from), specifier);
  for (const candidate of [
    base,
    `${base}.ts`,
    `${base}.tsx`,
    path.join(base, 'index.ts'),
    path.join(base, 'index.tsx'),
  ]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return null; // not a source file (e.g. ./styles.css); tsc reports missing modules
};

/** The files a Vite `import.meta.glob` pattern (relative, `*` and `**`) matches. */
const globMatches = (from: string, pattern: string): string[] => {
  if (!pattern.startsWith('.')) return [];
  const absolute = path.resolve(path.dirname(from), pattern).split(path.sep).join('/');
  const regex = new RegExp(
    `^${absolute
      .split('**')
      .map((part) =>
        part
          .split('*')
          .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
          .join('[^/]*'),
      )
      .join('.*')}$`,
  );
  return allFiles.filter((file) => regex.test(file.split(path.sep).join('/')));
};

/** Every relative module a file names: import, import type, export-from, import() and import.meta.glob(). */
const importsOf = (file: string): string[] => {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const specifiers: string[] = [];
  const globbed: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) specifiers.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      specifiers.push(node.arguments[0].text);
    } else if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.getText(source) === 'import.meta.glob' &&
      node.arguments[0]
    ) {
      const patterns = ts.isArrayLiteralExpression(node.arguments[0])
        ? node.arguments[0].elements
        : [node.arguments[0]];
      for (const pattern of patterns)
        if (ts.isStringLiteralLike(pattern)) globbed.push(...globMatches(file, pattern.text));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return [...specifiers.flatMap((s) => resolveImport(file, s) ?? []), ...globbed];
};

const rel = (file: string) => path.relative(SRC, file).split(path.sep).join('/');

const unitOf = (file: string) => {
  const parts = rel(file).split('/');
  if ((parts[0] === 'server' && parts[1] === 'modules') || (parts[0] === 'web' && parts[1] === 'pages')) {
    return parts.slice(0, 3).join('/');
  }
  return parts.slice(0, 2).join('/');
};

type Graph = Map<string, Map<string, string>>; // node → (target → one file-level import as proof)

/** Strongly connected components with more than one node (Tarjan). */
const cycles = (graph: Graph): string[][] => {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (v: string) => {
    index.set(v, counter);
    low.set(v, counter);
    counter += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) connect(v);
  return found;
};

/** A component, readably: each edge inside it with one import that makes it. */
const describeCycle = (graph: Graph, component: string[]) => {
  const members = new Set(component);
  const edges = component.flatMap((from) =>
    [...(graph.get(from) ?? [])]
      .filter(([to]) => members.has(to))
      .map(([to, proof]) => `    ${from} → ${to}  (${proof})`),
  );
  return `${component.join(' ⇄ ')}\n${edges.join('\n')}`;
};

const files = allFiles.filter((file) => !/\.test\.tsx?$/.test(file));
const fileImports = new Map(files.map((file) => [file, importsOf(file)]));

const buildGraph = (nodeOf: (file: string) => string): Graph => {
  const graph: Graph = new Map();
  for (const [file, targets] of fileImports) {
    const from = nodeOf(file);
    if (!graph.has(from)) graph.set(from, new Map());
    for (const target of targets) {
      const to = nodeOf(target);
      if (to !== from && !graph.get(from)!.has(to))
        graph.get(from)!.set(to, `${rel(file)} imports ${rel(target)}`);
    }
  }
  return graph;
};

describe('import graph of src/', () => {
  it('reads the whole tree', () => {
    // Guards the walk itself: if resolution broke, every check below would pass vacuously.
    expect(files.length).toBeGreaterThan(100);
    const edges = [...fileImports.values()].reduce((n, targets) => n + targets.length, 0);
    expect(edges).toBeGreaterThan(files.length);
  });

  it('has no import cycle between files', () => {
    const graph = buildGraph(rel);
    expect(cycles(graph).map((c) => describeCycle(graph, c))).toEqual([]);
  });

  it('has no import cycle between units (modules, pages, plumbing) beyond the known ones', () => {
    const graph = buildGraph(unitOf);
    const found = cycles(graph);
    const unknown = found.filter((c) => !KNOWN_CYCLES.has(c.join(' ⇄ '))).map((c) => describeCycle(graph, c));
    expect(unknown).toEqual([]);
    const gone = [...KNOWN_CYCLES.keys()].filter((key) => !found.some((c) => c.join(' ⇄ ') === key));
    expect(gone, 'these known cycles are broken now: remove them from KNOWN_CYCLES').toEqual([]);
  });

  it('keeps the layers apart: shared ↛ server/web, server ↛ web, web ↛ server', () => {
    const allowed: Record<string, string[]> = {
      shared: ['shared'],
      server: ['server', 'shared'],
      web: ['web', 'shared'],
    };
    // Tests included: a test may not cross layers either.
    const crossings = allFiles.flatMap((file) => {
      const from = rel(file).split('/')[0]!;
      return importsOf(file)
        .filter((target) => !(allowed[from] ?? [from]).includes(rel(target).split('/')[0]!))
        .map((target) => `${rel(file)} imports ${rel(target)}`);
    });
    expect(crossings).toEqual([]);
  });
});
