import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, describe, expect, it } from 'vitest';
import { APP_PAGES } from '../../shared/web-routes.ts';
import { setUpTestApp } from '../testing/per-file-app.ts';
import { INDEXED_PATHS, acceptedEncoding, appPageFileName, prerenderedFileName } from './web-app.ts';

// The web app as a browser and a crawler get it: robots.txt, sitemap.xml, the prerendered
// public pages, index.html for the rest, 404 for unknown paths, and every HTML answer
// compressed. The build is a temporary folder of made-up files.

const page = (name: string) =>
  `<!doctype html><html lang="en"><head><title>${name}</title></head><body><div id="root">${`<p>${name} content</p>`.repeat(60)}</div></body></html>`;

const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kontor-web-app-'));
fs.mkdirSync(path.join(webDir, 'prerendered'));
fs.mkdirSync(path.join(webDir, 'assets'));
fs.writeFileSync(path.join(webDir, 'index.html'), page('App shell'));
fs.writeFileSync(path.join(webDir, 'prerendered', 'index.html'), page('Landing'));
fs.writeFileSync(path.join(webDir, 'prerendered', 'pricing.html'), page('Pricing'));
fs.writeFileSync(path.join(webDir, 'prerendered', '404.html'), page('Not found'));
fs.mkdirSync(path.join(webDir, 'prerendered', 'app'));
fs.writeFileSync(path.join(webDir, 'prerendered', 'app', 'dashboard.html'), page('Dashboard preloads'));
fs.writeFileSync(path.join(webDir, 'assets', 'main-abc123.js'), 'console.log("kontor");\n'.repeat(200));
afterAll(() => fs.rmSync(webDir, { recursive: true, force: true }));

/** robots.txt's verdict for one path: the longest matching rule wins, Allow on a tie. */
const robotsAllows = (robots: string, pathname: string) => {
  let best: { length: number; allow: boolean } = { length: -1, allow: true };
  for (const line of robots.split('\n')) {
    const match = /^(Allow|Disallow):\s*(\S*)/i.exec(line.trim());
    if (!match?.[2] || !pathname.startsWith(match[2])) continue;
    const allow = match[1]!.toLowerCase() === 'allow';
    if (match[2].length > best.length || (match[2].length === best.length && allow))
      best = { length: match[2].length, allow };
  }
  return best.allow;
};

describe('robots.txt and sitemap.xml', () => {
  const t = setUpTestApp({ env: { PUBLIC_URL: 'https://books.example.com/' }, webDir });

  it('robots.txt lets crawlers read the public site, not the app, the API or the dev tools', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/robots.txt' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    const robots = res.body;
    expect(robots).toMatch(/^User-agent: \*$/m);
    for (const p of ['/', '/pricing', '/about', '/contact', '/login', '/signup', '/reset-password'])
      expect(robotsAllows(robots, p), p).toBe(true);
    for (const p of [...APP_PAGES.map((a) => `/${a}`), '/api/health', '/api/orgs/x/invoices', '/dev/mailbox'])
      expect(robotsAllows(robots, p), p).toBe(false);
    // No trailing slash doubled from PUBLIC_URL.
    expect(robots).toMatch(/^Sitemap: https:\/\/books\.example\.com\/sitemap\.xml$/m);
  });

  it('sitemap.xml lists the public pages worth indexing with absolute URLs from PUBLIC_URL', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/sitemap.xml' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    const xml = new XMLParser({ ignoreAttributes: false }).parse(res.body);
    expect(xml.urlset['@_xmlns']).toBe('http://www.sitemaps.org/schemas/sitemap/0.9');
    const locs = [xml.urlset.url].flat().map((u: { loc: string }) => u.loc);
    expect(locs).toEqual([
      'https://books.example.com/',
      'https://books.example.com/pricing',
      'https://books.example.com/about',
      'https://books.example.com/contact',
      'https://books.example.com/login',
      'https://books.example.com/signup',
    ]);
    expect(locs).toHaveLength(INDEXED_PATHS.length);
  });

  it('neither is in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(Object.keys(doc.paths).filter((p) => !p.startsWith('/api'))).toEqual([]);
  });
});

describe('pages: prerendered where the build has them, index.html elsewhere, compressed', () => {
  const t = setUpTestApp({ webDir });
  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });
  const text = (res: Awaited<ReturnType<typeof get>>) => {
    const encoding = res.headers['content-encoding'];
    if (encoding === 'br') return zlib.brotliDecompressSync(res.rawPayload).toString();
    if (encoding === 'gzip') return zlib.gunzipSync(res.rawPayload).toString();
    return res.body;
  };

  it('answers a prerendered public path with its file, trailing slash and letter case as the router reads them', async () => {
    for (const [url, title] of [
      ['/', 'Landing'],
      ['/pricing', 'Pricing'],
      ['/pricing/', 'Pricing'],
      ['/Pricing?plan=business', 'Pricing'],
    ] as const) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.body, url).toContain(`<title>${title}</title>`);
    }
  });

  it('answers other pages of the app with index.html', async () => {
    for (const url of ['/about', '/login', '/invoices?invoice=abc', '/dev/mailbox']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain('<title>App shell</title>');
    }
  });

  it("answers a signed-in page with the build's HTML for it (its chunks preloaded) when there is one", async () => {
    for (const url of ['/dashboard', '/dashboard/', '/Dashboard?range=ytd']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toBe('text/html; charset=utf-8');
      expect(res.body, url).toContain('<title>Dashboard preloads</title>');
    }
    for (const url of ['/prerendered/app/dashboard.html', '/app/dashboard.html']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
    }
  });

  it('answers unknown paths 404 with the prerendered not-found page', async () => {
    for (const url of ['/nope', '/pricing/extra', '/prerendered/pricing.html', '/prerendered/404.html']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toBe('text/html; charset=utf-8');
      expect(res.body, url).toContain('<title>Not found</title>');
    }
    const api = await get('/api/nope');
    expect(api.statusCode).toBe(404);
    expect(api.json().error.code).toBe('not_found');
  });

  it('compresses the HTML with the best encoding the browser accepts', async () => {
    const plain = await get('/dashboard');
    expect(plain.headers['content-encoding']).toBeUndefined();
    const size = plain.rawPayload.length;
    for (const [accept, encoding] of [
      ['br, gzip', 'br'],
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['*', 'br'],
    ] as const) {
      for (const url of ['/dashboard', '/', '/nope']) {
        const res = await get(url, { 'accept-encoding': accept });
        expect(res.headers['content-encoding'], `${accept} ${url}`).toBe(encoding);
        expect(res.headers.vary, `${accept} ${url}`).toContain('accept-encoding');
        expect(Number(res.headers['content-length']), `${accept} ${url}`).toBe(res.rawPayload.length);
        expect(text(res), `${accept} ${url}`).toContain('</html>');
      }
    }
    const br = await get('/dashboard', { 'accept-encoding': 'br, gzip' });
    expect(br.rawPayload.length).toBeLessThan(size / 4);
    expect(text(br)).toBe(plain.body);
    const identity = await get('/dashboard', { 'accept-encoding': 'identity' });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body).toBe(plain.body);
  });

  it('compresses the build’s scripts too', async () => {
    const res = await get('/assets/main-abc123.js', { 'accept-encoding': 'br, gzip' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('answers 304 to a browser that has the page, and HEAD without a body', async () => {
    const first = await get('/');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/".+"$/);
    const again = await get('/', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const other = await get('/pricing', { 'if-none-match': etag });
    expect(other.statusCode).toBe(200);
    const head = await t.app.inject({ method: 'HEAD', url: '/pricing' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
  });

  it('serves a page again after the build rewrites it', async () => {
    const file = path.join(webDir, 'prerendered', 'pricing.html');
    const before = await get('/pricing', { 'accept-encoding': 'br' });
    fs.writeFileSync(file, page('Pricing, rebuilt'));
    const later = new Date(Date.now() + 5000);
    fs.utimesSync(file, later, later);
    const after = await get('/pricing', { 'accept-encoding': 'br' });
    expect(text(before)).toContain('<title>Pricing</title>');
    expect(text(after)).toContain('<title>Pricing, rebuilt</title>');
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });
});

describe('prerenderedFileName and acceptedEncoding', () => {
  it('names the file of each public path, and none for the rest', () => {
    expect(prerenderedFileName('/')).toBe('index.html');
    expect(prerenderedFileName('/reset-password/')).toBe('reset-password.html');
    expect(prerenderedFileName('/CONTACT')).toBe('contact.html');
    expect(prerenderedFileName('/dashboard')).toBeNull();
    expect(prerenderedFileName('/../index')).toBeNull();
    expect(appPageFileName('/dashboard')).toBe('app/dashboard.html');
    expect(appPageFileName('/settings/')).toBe('app/settings.html');
    expect(appPageFileName('/')).toBeNull();
    expect(appPageFileName('/pricing')).toBeNull();
    expect(appPageFileName('/dashboard/../x')).toBeNull();
  });

  it('reads q-values', () => {
    expect(acceptedEncoding(undefined)).toBeNull();
    expect(acceptedEncoding('identity')).toBeNull();
    expect(acceptedEncoding('gzip;q=0.5, br;q=0.4')).toBe('gzip');
    expect(acceptedEncoding('GZIP')).toBe('gzip');
    expect(acceptedEncoding('*;q=0')).toBeNull();
    expect(acceptedEncoding('br;q=0, *')).toBe('gzip');
  });
});
