import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { build, defineConfig, type Plugin } from 'vite';

const projectRoot = path.dirname(fileURLToPath(import.meta.url));
const webRoot = path.join(projectRoot, 'src/web');

// The address canonical links and social previews name (PUBLIC_URL at build time, else the
// server's own default, as src/server/config.ts reads it).
const publicUrl = (process.env.PUBLIC_URL || `http://localhost:${process.env.PORT ?? 3000}`).replace(
  /\/+$/,
  '',
);

type PrerenderModule = typeof import('./src/web/prerender.tsx');

/** What the web app's session check asks for (src/web/auth/client.ts). */
const SESSION_URL = '/api/auth/get-session';

/**
 * Prerendered public pages (src/web/prerender.tsx, docs/ui.md): after the browser build, an SSR
 * build of the prerender entry renders each public path into `<outDir>/prerendered/<file>`,
 * with the chunks of the page's screen preloaded. `vite build` stays the one command.
 */
const prerenderPages = (): Plugin => {
  let outDir = '';
  let base = '/';
  // Each chunk of the browser build: its file and the chunks it imports statically.
  const chunkOf = new Map<string, { file: string; imports: string[] }>();
  const importsOf = new Map<string, string[]>();
  return {
    name: 'kontor:prerender',
    apply: (_config, env) => env.command === 'build' && !env.isSsrBuild,
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      base = config.base;
    },
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        importsOf.set(chunk.fileName, chunk.imports);
        if (chunk.facadeModuleId)
          chunkOf.set(chunk.facadeModuleId, { file: chunk.fileName, imports: chunk.imports });
      }
    },
    async closeBundle() {
      // Built where Node resolves the app's dependencies (they stay external), then removed.
      const scratch = path.join(projectRoot, 'node_modules/.kontor-prerender');
      fs.mkdirSync(scratch, { recursive: true });
      const ssrOut = fs.mkdtempSync(path.join(scratch, 'build-'));
      try {
        await build({
          configFile: path.join(projectRoot, 'vite.config.ts'),
          logLevel: 'warn',
          publicDir: false,
          build: {
            ssr: path.join(webRoot, 'prerender.tsx'),
            outDir: ssrOut,
            emptyOutDir: true,
            sourcemap: false,
            minify: false,
          },
        });
        const entry = fs.readdirSync(ssrOut).find((f) => /^prerender\.m?js$/.test(f));
        if (!entry) throw new Error('the prerender build wrote no prerender.js');
        const prerender: PrerenderModule = await import(pathToFileURL(path.join(ssrOut, entry)).href);

        const template = fs.readFileSync(path.join(outDir, 'index.html'), 'utf8');
        // The entry's own chunks are preloaded by index.html already.
        const inTemplate = new Set([...template.matchAll(/(?:src|href)="\/([^"]+\.js)"/g)].map((m) => m[1]!));
        const preloadFor = (modules: string[]) => {
          const files = new Set<string>();
          const add = (file: string) => {
            if (files.has(file) || inTemplate.has(file)) return;
            files.add(file);
            for (const next of importsOf.get(file) ?? []) add(next);
          };
          for (const module of modules) {
            const chunk = chunkOf.get(path.join(webRoot, module));
            if (!chunk)
              throw new Error(`prerender: no chunk of its own for ${module} (is it loaded lazily?)`);
            add(chunk.file);
          }
          return [...files].map((file) => `${base}${file}`);
        };

        // Every page names the files of the screens preloaded after its first render
        // (router.tsx PRELOAD_MODULES), so the preload downloads them without running them.
        const later = preloadFor([...prerender.PRELOAD_MODULES]).join(' ');
        const withPreload = template.replace(
          '</head>',
          `  <meta name="${prerender.PRELOAD_META}" content="${later}" />\n  </head>`,
        );
        if (withPreload === template) throw new Error('prerender: index.html has no </head>');
        fs.writeFileSync(path.join(outDir, 'index.html'), withPreload);

        fs.mkdirSync(path.join(outDir, 'prerendered'), { recursive: true });
        for (const page of prerender.PRERENDER_PAGES) {
          const markup = await prerender.renderPage(page.path);
          const html = prerender.prerenderedDocument(withPreload, {
            path: page.path,
            markup,
            origin: publicUrl,
            preload: preloadFor(page.modules),
          });
          fs.writeFileSync(path.join(outDir, 'prerendered', page.file), html);
        }

        // Signed-in pages: the guard's spinner painted from the HTML, their chunks preloaded.
        fs.mkdirSync(path.join(outDir, 'prerendered', 'app'), { recursive: true });
        const spinner = prerender.appPageMarkup();
        for (const page of prerender.APP_PAGE_FILES) {
          const preload =
            // The session's answer, asked for by the entry before its first render (main.tsx,
            // startSessionCheck): requested with the HTML's other resources, it is there when
            // the entry runs. `crossorigin` (anonymous: same-origin credentials) as fetch() asks.
            `    <link rel="preload" as="fetch" crossorigin href="${SESSION_URL}">\n` +
            preloadFor(page.modules)
              // Low: the entry (high) comes first.
              .map(
                (href) => `    <link rel="modulepreload" fetchpriority="low" crossorigin href="${href}">\n`,
              )
              .join('');
          const html = withPreload
            .replace('  </head>', `${preload}  </head>`)
            .replace('<div id="root"></div>', `<div id="root">${spinner}</div>`);
          if (!html.includes(spinner)) throw new Error('prerender: index.html has no empty #root');
          fs.writeFileSync(path.join(outDir, 'prerendered', page.file), html);
        }
      } finally {
        fs.rmSync(ssrOut, { recursive: true, force: true });
      }
    },
  };
};

// The web app lives in src/web and builds into dist/web, which the server serves.
export default defineConfig(({ command, isSsrBuild }) => ({
  root: 'src/web',
  publicDir: 'public',
  plugins: [react(), tailwindcss(), prerenderPages()],
  resolve: {
    // React Router's package names only its development build (dist/development: its warnings
    // and checks, 92 KB of the entry chunk); the browser build takes the production one it
    // ships beside it. The development server and the prerender (Node) keep the package's own.
    alias:
      command === 'build' && !isSsrBuild
        ? [
            {
              find: /^react-router$/,
              replacement: path.join(projectRoot, 'node_modules/react-router/dist/production/index.mjs'),
            },
          ]
        : [],
  },
  define: {
    // The browser detects the production environment from the same PUBLIC_DOMAIN the server
    // reads (baked in at build time: run `npm run build` after changing it).
    'import.meta.env.VITE_PUBLIC_DOMAIN': JSON.stringify(process.env.PUBLIC_DOMAIN ?? ''),
    // The public address for canonical links (empty: the page's own origin in the browser).
    'import.meta.env.VITE_PUBLIC_URL': JSON.stringify(process.env.PUBLIC_URL ?? ''),
    // The footer's year in prerendered HTML (the browser's own year follows after hydration).
    'import.meta.env.VITE_BUILD_YEAR': JSON.stringify(String(new Date().getFullYear())),
  },
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    sourcemap: true,
    target: 'es2022',
    rollupOptions: {
      treeshake: { manualPureFunctions: ['z'] },
      output: {
        codeSplitting: {
          groups: [
            {
              // Every icon in one chunk (about 8 KB compressed) instead of one chunk per icon:
              // a page drew ten to twenty of them, each its own request.
              name: 'icons',
              test: /node_modules[\\/]lucide-react[\\/]/,
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    // 127.0.0.1, not localhost: the API listens on IPv4 loopback by default (HOST), and
    // `localhost` may resolve to ::1 first. Host and Origin stay localhost:5173, which the
    // API trusts in development (src/server/http/origins.ts).
    proxy: { '/api': { target: `http://127.0.0.1:${process.env.PORT ?? 3000}`, changeOrigin: false } },
  },
}));
