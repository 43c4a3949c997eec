import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { kitProblems } from '../errors.js';
import { sendProblem } from '../http/problem-handler.js';

/** The console's areas, one per service (apps/console/src/areas). */
export type ConsoleArea = 'operator' | 'catalog' | 'templates';

/** Where a service's console lives, as the shell's navigation shows it. */
export interface ConsoleLink {
  readonly area: ConsoleArea;
  readonly title: string;
  /** Absolute base URL of the service (`http://127.0.0.1:8080`), no trailing slash. */
  readonly url: string;
}

/** What the page learns from `<meta name="triad-console">` (apps/console/README.md). */
export interface ConsolePageConfig {
  readonly home: ConsoleArea;
  readonly links: readonly ConsoleLink[];
  /** What the home area needs to know before its first call (e.g. `{authentication: true}`). */
  readonly settings: Readonly<Record<string, string | number | boolean>>;
}

export interface ConsoleOptions {
  /** The area this service is home to. */
  readonly home: ConsoleArea;
  /** Every service's console, read at each page load (`triad serve` fills it in as services start); default none. */
  readonly links?: () => readonly ConsoleLink[];
  /**
   * The built console (`index.html` and `assets/`), which `triad serve` finds in `@triad/console`
   * and hands down (a package never depends on an app); default none: `/` says how to build it.
   */
  readonly root?: string;
  /** Path prefixes of this service's API besides the ones every service has (`CONSOLE_RESERVED_PREFIXES`). */
  readonly apiPrefixes?: readonly string[];
  /** Settings for the home area, in the page config; default none. */
  readonly settings?: Readonly<Record<string, string | number | boolean>>;
}

/** Paths the console never answers, whatever the service: its API, docs, probes and metrics. */
export const CONSOLE_RESERVED_PREFIXES: readonly string[] = Object.freeze([
  '/api',
  '/docs',
  '/openapi.json',
  '/healthz',
  '/metrics',
  '/oauth',
  '/admin',
  '/assets',
]);

/** `Cache-Control` of hashed assets: their name changes with their content. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
/** `Cache-Control` of the page itself, so a new build is picked up at once. */
export const NO_CACHE = 'no-cache';

const META_PLACEHOLDER = '</head>';

/**
 * Serves the console on `app`: `GET /` is `index.html` with this service's page config in a
 * `<meta name="triad-console">` (`Cache-Control: no-cache`), `/assets/*` the hashed files
 * (immutable, one year), and `handleNavigation` lets a not-found handler answer client-side
 * routes. Register it before the OpenAPI plugin: these routes are not API operations. When the
 * build is missing, `/` answers a short page saying how to build it.
 */
export async function serveConsole(
  app: FastifyInstance,
  options: ConsoleOptions,
): Promise<(request: FastifyRequest, reply: FastifyReply) => boolean> {
  const { root } = options;
  const indexFile = root === undefined ? undefined : path.join(root, 'index.html');
  const built = indexFile !== undefined && existsSync(indexFile);
  const template = built ? readFileSync(indexFile, 'utf8') : MISSING_BUILD_PAGE;
  const reserved = [...CONSOLE_RESERVED_PREFIXES, ...(options.apiPrefixes ?? [])];
  const page = () => {
    const config: ConsolePageConfig = {
      home: options.home,
      links: options.links?.() ?? [],
      settings: options.settings ?? {},
    };
    const meta = `<meta name="triad-console" content="${escapeAttribute(JSON.stringify(config))}" />`;
    return template.replace(META_PLACEHOLDER, `${meta}\n  ${META_PLACEHOLDER}`);
  };
  const sendPage = (reply: FastifyReply) =>
    reply
      .code(built ? 200 : 503)
      .header('cache-control', NO_CACHE)
      .type('text/html; charset=utf-8')
      .send(page());
  app.get('/', { schema: { hide: true } }, (_request, reply) => sendPage(reply));
  if (built && root !== undefined) {
    const assets = path.join(root, 'assets');
    await app.register(async (scope) => {
      // Only flat, hashed file names reach the file system; anything else (dot segments, encoded
      // or backslashed separators, NUL, a directory) is a plain 404 before @fastify/send sees it.
      scope.addHook('onRequest', async (request, reply) => {
        const name = (request.url.split('?')[0] ?? '').slice(ASSETS_PREFIX.length);
        if (!ASSET_NAME.test(name)) {
          request.log.info({ code: 'SVC_ERR_ROUTE_NOT_FOUND', status: 404 }, 'request refused: not a console asset');
          const def = kitProblems.definitions.SVC_ERR_ROUTE_NOT_FOUND;
          return sendProblem(request, reply, {
            status: def.status,
            code: 'SVC_ERR_ROUTE_NOT_FOUND',
            title: def.title,
            detail: 'No console asset has this name',
          });
        }
        return undefined;
      });
      await scope.register(fastifyStatic, {
        root: assets,
        prefix: ASSETS_PREFIX,
        decorateReply: false,
        index: false,
        cacheControl: false,
        schemaHide: true,
        setHeaders: (res) => {
          res.setHeader('cache-control', IMMUTABLE_CACHE);
        },
      });
    });
  }
  return (request, reply) => {
    if (!isNavigation(request, reserved)) return false;
    void sendPage(reply);
    return true;
  };
}

/**
 * A browser navigation to a client-side route: GET or HEAD, asks for HTML, and outside every
 * reserved prefix (so `/api/...` keeps its own 404 whatever the client accepts).
 */
export function isNavigation(request: FastifyRequest, reserved: readonly string[]): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  if (!String(request.headers.accept ?? '').includes('text/html')) return false;
  const pathname = request.url.split('?')[0] ?? '/';
  if (!isCleanPath(pathname)) return false;
  return !reserved.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}

/** Where the hashed console files are served. */
const ASSETS_PREFIX = '/assets/';
/** A console asset's name as Vite writes it: flat, `name-hash.ext`, nothing encoded. */
const ASSET_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
/** Percent-encoded dots, slashes, backslashes and control characters. */
const ENCODED_TRICK = /%(?:2e|2f|5c|[01][0-9a-f]|7f)/i;

/**
 * A path a client-side route may have: starts with one `/`, no empty, `.` or `..` segment, no
 * backslash, no control character or blank, and none of those percent-encoded. Anything else
 * (a traversal probe) is not a navigation and gets the 404 problem.
 */
export function isCleanPath(pathname: string): boolean {
  if (!pathname.startsWith('/') || pathname.includes('\\') || ENCODED_TRICK.test(pathname)) return false;
  for (const char of pathname) {
    const code = char.charCodeAt(0);
    if (code <= 0x20 || code === 0x7f) return false;
  }
  return pathname
    .slice(1)
    .split('/')
    .every(
      (segment, index, all) => (segment !== '' || index === all.length - 1) && segment !== '.' && segment !== '..',
    );
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

const MISSING_BUILD_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8" /><title>Triad console not built</title></head>
<body><main><h1>The console is not built</h1>
<p>Run <code>npm run build -w apps/console</code> (or <code>npm install</code>) and reload.</p>
<p>The API documentation is at <a href="/docs">/docs</a>.</p></main></body>
</html>
`;
