import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Content-Security-Policy of HTML pages (the console, `/docs`): scripts, styles, images, fonts and
 * connections from this origin only, no inline script (styles may be inline: CodeMirror and
 * Swagger UI set them), no plugins, no `<base>`, forms only back here, never in a frame.
 */
export const PAGE_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "script-src-attr 'none'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Content-Security-Policy of every other reply (JSON, problems, assets): loads nothing, never framed. */
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

/** The headers every reply carries, besides the Content-Security-Policy. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
});

/**
 * Adds `SECURITY_HEADERS` to every reply, and `PAGE_CONTENT_SECURITY_POLICY` to HTML replies
 * (`API_CONTENT_SECURITY_POLICY` to the others), unless the route set a policy of its own.
 * Register it at the root before any route.
 */
export const securityHeaders = fp(
  function securityHeadersPlugin(app: FastifyInstance, _options: object, done: (error?: Error) => void) {
    app.addHook('onSend', (_request, reply: FastifyReply, payload, hookDone) => {
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) void reply.header(name, value);
      if (!reply.hasHeader('content-security-policy')) {
        const html = String(reply.getHeader('content-type') ?? '').startsWith('text/html');
        void reply.header('content-security-policy', html ? PAGE_CONTENT_SECURITY_POLICY : API_CONTENT_SECURITY_POLICY);
      }
      hookDone(null, payload);
    });
    done();
  },
  { name: '@triad/service-kit/security-headers', fastify: '5.x' },
);
