import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { APP_PAGES, PUBLIC_PATHS, isWebAppPath } from '../../shared/web-routes.ts';
import type { AppContext } from '../context.ts';
import { isApiPath } from './request-security.ts';

// Everything outside /api: the built web app (dist/web), its HTML for each path, robots.txt
// and sitemap.xml.
//
// - Files of the build (scripts, styles, images) are served as they are by @fastify/static;
//   hashed assets are cached for a year.
// - Any other GET is a page. A public page the build prerendered (`prerendered/<name>.html`,
//   '/' → index.html, '/pricing' → pricing.html; docs/ui.md) is answered with that file, so it
//   paints before the app's code arrives; a signed-in page gets `prerendered/app/<page>.html`
//   (index.html naming its chunks for preload) when the build made it, else index.html. A path
//   the app has no screen for (src/shared/web-routes.ts) answers 404 with
//   `prerendered/404.html` when the build made one, else index.html (the app's not-found page).
// - Those HTML answers are compressed here: @fastify/compress adds its hook to routes only,
//   and this is Fastify's not-found handler, not a route, so it never ran for them. Each file
//   is compressed once (brotli and gzip) and kept until it changes on disk.

/** Public pages worth a search engine's index (the sitemap). */
export const INDEXED_PATHS = ['/', '/pricing', '/about', '/contact', '/login', '/signup'] as const;

/** Below this size an HTML answer goes out as it is (as @fastify/compress's threshold). */
const COMPRESS_THRESHOLD = 1024;

/** The prerendered file of a public path, e.g. '/' → 'index.html', '/pricing' → 'pricing.html'. */
export const prerenderedFileName = (pathname: string): string | null => {
  const clean = (pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname).toLowerCase() || '/';
  if (!(PUBLIC_PATHS as readonly string[]).includes(clean)) return null;
  return clean === '/' ? 'index.html' : `${clean.slice(1)}.html`;
};

/**
 * The build's HTML of a signed-in page ('/dashboard' → 'app/dashboard.html': index.html with
 * the page's chunks preloaded), or null for any other path.
 */
export const appPageFileName = (pathname: string): string | null => {
  const clean = (pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname).toLowerCase();
  const page = APP_PAGES.find((p) => `/${p}` === clean);
  return page ? `app/${page}.html` : null;
};

const baseUrlOf = (publicUrl: string) => publicUrl.replace(/\/+$/, '');

export const robotsTxt = (publicUrl: string) =>
  [
    '# Kontor: the public site may be indexed; the signed-in app, the API and development',
    '# tools may not.',
    'User-agent: *',
    'Allow: /',
    'Disallow: /api/',
    'Disallow: /dev/',
    ...APP_PAGES.map((page) => `Disallow: /${page}`),
    '',
    `Sitemap: ${baseUrlOf(publicUrl)}/sitemap.xml`,
    '',
  ].join('\n');

const xmlText = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export const sitemapXml = (publicUrl: string) =>
  [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...INDEXED_PATHS.map(
      (p) => `  <url><loc>${xmlText(`${baseUrlOf(publicUrl)}${p === '/' ? '/' : p}`)}</loc></url>`,
    ),
    '</urlset>',
    '',
  ].join('\n');

type HtmlFile = { mtimeMs: number; size: number; raw: Buffer; br: Buffer; gzip: Buffer; etag: string };

/** The HTML files of the build, read and compressed once each, again when they change. */
const htmlFiles = () => {
  const cache = new Map<string, HtmlFile>();
  return (file: string): HtmlFile | null => {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(file);
    } catch {
      return null;
    }
    if (!stat.isFile()) return null;
    const known = cache.get(file);
    if (known && known.mtimeMs === stat.mtimeMs && known.size === stat.size) return known;
    const raw = fs.readFileSync(file);
    const entry: HtmlFile = {
      mtimeMs: stat.mtimeMs,
      size: stat.size,
      raw,
      br: zlib.brotliCompressSync(raw, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
          [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
        },
      }),
      gzip: zlib.gzipSync(raw, { level: zlib.constants.Z_BEST_COMPRESSION }),
      etag: `W/"${createHash('sha256').update(raw).digest('base64url').slice(0, 27)}"`,
    };
    cache.set(file, entry);
    return entry;
  };
};

/** The best encoding the request accepts of br and gzip (q-values honoured), or null. */
export const acceptedEncoding = (header: string | string[] | undefined): 'br' | 'gzip' | null => {
  const weights = new Map<string, number>();
  for (const part of [header ?? ''].flat().join(',').split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (name: string) => weights.get(name) ?? weights.get('*') ?? 0;
  const br = weightOf('br');
  const gzip = weightOf('gzip');
  if (br > 0 && br >= gzip) return 'br';
  if (gzip > 0) return 'gzip';
  return null;
};

const sendHtml = (request: FastifyRequest, reply: FastifyReply, status: number, file: HtmlFile) => {
  reply.status(status).type('text/html; charset=utf-8').header('cache-control', 'no-cache');
  reply.header('vary', 'accept-encoding');
  reply.header('etag', file.etag);
  const ifNoneMatch = request.headers['if-none-match'];
  if (status === 200 && ifNoneMatch && ifNoneMatch.split(',').some((tag) => tag.trim() === file.etag)) {
    return reply.status(304).send();
  }
  const encoding =
    file.raw.length >= COMPRESS_THRESHOLD ? acceptedEncoding(request.headers['accept-encoding']) : null;
  if (!encoding) return reply.send(file.raw);
  return reply.header('content-encoding', encoding).send(encoding === 'br' ? file.br : file.gzip);
};

export type WebAppOptions = {
  /** The built web app; when it has no index.html, pages answer 503 saying how to build it. */
  webDir: string;
};

/** Registers robots.txt, sitemap.xml, the build's files and the page / not-found answers. */
export const registerWebApp = async (app: FastifyInstance, ctx: AppContext, { webDir }: WebAppOptions) => {
  const robots = robotsTxt(ctx.config.publicUrl);
  const sitemap = sitemapXml(ctx.config.publicUrl);
  app.get('/robots.txt', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/plain; charset=utf-8').header('cache-control', 'public, max-age=3600').send(robots),
  );
  app.get('/sitemap.xml', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .type('application/xml; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(sitemap),
  );

  const hasWeb = fs.existsSync(path.join(webDir, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDir,
      wildcard: false,
      index: false,
      // The prerendered pages are answered at their paths (below), not at /prerendered/…;
      // robots.txt and sitemap.xml are the routes above, whatever the build holds.
      globIgnore: ['prerendered/**', 'robots.txt', 'sitemap.xml'],
      setHeaders: (reply, filePath) => {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          reply.header('cache-control', 'public, max-age=31536000, immutable');
        }
      },
    });
  }

  const html = htmlFiles();
  const prerendered = (name: string) => html(path.join(webDir, 'prerendered', name));

  // A GET outside /api gets a page; its router decides the title. A path the app has no
  // screen for (the shared list, src/shared/web-routes.ts) is answered 404 with the app's
  // not-found page.
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    if (isApiPath(url) || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return reply
        .status(404)
        .send({ error: { code: 'not_found', message: `No route ${request.method} ${url}.` } });
    }
    const index = hasWeb ? html(path.join(webDir, 'index.html')) : null;
    if (!index) {
      return reply
        .status(503)
        .type('text/plain')
        .send('The web app is not built yet. Run `npm run build` (npm start does this for you).');
    }
    if (!isWebAppPath(url)) return sendHtml(request, reply, 404, prerendered('404.html') ?? index);
    const name = prerenderedFileName(url) ?? appPageFileName(url);
    return sendHtml(request, reply, 200, (name && prerendered(name)) || index);
  });
};
