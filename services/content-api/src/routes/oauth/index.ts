import type { FastifyInstance, FastifyReply } from 'fastify';
import { isObject } from '@triad/common';
import type { LocalIdentity } from '../../auth/local-identity.js';
import type { SecretThrottle } from '../../auth/secret-throttle.js';
import { contentProblems } from '../../errors.js';
import { useSchemasAsDocumentation } from '../documentation-only-schemas.js';
import { jwksSchema, TOKEN_FORM_BODY_LIMIT, tokenSchema } from './schemas.js';

export interface OAuthRoutesOptions {
  /** The clients; each is granted its own scope (the read client the read scope, the admin client the admin scope). */
  readonly identity: LocalIdentity;
  /** Wrong secrets per client id and client address; each check takes a try, a right secret gives it back. */
  readonly throttle: SecretThrottle;
}

const FORM = 'application/x-www-form-urlencoded';

/**
 * The built-in identity endpoints: `POST /oauth/token` (OAuth 2 client credentials grant,
 * RFC 6749 §4.4; client from the form/JSON body or HTTP Basic; errors in the RFC's own
 * `{error, error_description}` shape) and `GET /.well-known/jwks.json` (the public key).
 */
export function oauthRoutes(app: FastifyInstance, options: OAuthRoutesOptions, done: (error?: Error) => void): void {
  const { identity, throttle } = options;
  useSchemasAsDocumentation(app);
  app.addContentTypeParser(FORM, { parseAs: 'string', bodyLimit: TOKEN_FORM_BODY_LIMIT }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });

  app.post('/oauth/token', { schema: tokenSchema }, async (request, reply) => {
    const body: Readonly<Record<string, unknown>> = isObject(request.body) ? request.body : {};
    const field = (name: string): string | undefined => {
      const value = body[name];
      return typeof value === 'string' ? value : undefined;
    };
    const basic = parseBasic(request.headers.authorization);
    const clientId = basic?.id ?? field('client_id');
    const clientSecret = basic?.secret ?? field('client_secret');
    const grantType = field('grant_type');
    if (grantType === undefined) return oauthError(reply, 400, 'invalid_request', 'grant_type is required');
    if (grantType !== 'client_credentials')
      return oauthError(reply, 400, 'unsupported_grant_type', 'only client_credentials is supported');
    let scope: string | undefined;
    if (clientId !== undefined && clientSecret !== undefined) {
      // Before the secret is checked, so that neither a right nor a wrong secret is told while waiting.
      const waitMs = throttle.take(clientId, request.ip, Date.now());
      if (waitMs > 0) {
        const seconds = Math.ceil(waitMs / 1000);
        reply.header('retry-after', String(seconds)).header('cache-control', 'no-store');
        throw contentProblems.create(
          'CONTENT_ERR_TOKEN_THROTTLED',
          `Too many wrong secrets for this client or from this address: try again in ${seconds} s ` +
            '(each wrong secret costs a try; tries come back over a minute by default)',
        );
      }
      scope = await identity.scopeOf(clientId, clientSecret);
      if (scope !== undefined) throttle.refund(clientId, request.ip, Date.now());
    }
    if (clientId === undefined || scope === undefined) {
      if (basic) reply.header('www-authenticate', 'Basic realm="content-api"');
      return oauthError(reply, 401, 'invalid_client', 'unknown client or wrong secret');
    }
    const requested = field('scope');
    if (requested !== undefined && requested.split(' ').some((s) => s !== '' && s !== scope)) {
      return oauthError(reply, 400, 'invalid_scope', `only the scope ${scope} can be granted to this client`);
    }
    const token = await identity.issueToken(scope, clientId);
    return reply.header('cache-control', 'no-store').send({
      access_token: token.accessToken,
      token_type: 'Bearer',
      expires_in: token.expiresIn,
      scope,
    });
  });

  app.get('/.well-known/jwks.json', { schema: jwksSchema }, async (_request, reply) =>
    reply.header('cache-control', 'public, max-age=300').send(await identity.publicKeys()),
  );
  done();
}

function parseBasic(header: string | undefined): { id: string; secret: string } | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  const encoded = match?.[1];
  if (encoded === undefined) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  // RFC 6749 §2.3.1: both parts are form-urlencoded before Basic encoding.
  const unescape = (s: string) => decodeURIComponent(s.replaceAll('+', ' '));
  try {
    return { id: unescape(decoded.slice(0, colon)), secret: unescape(decoded.slice(colon + 1)) };
  } catch {
    return undefined;
  }
}

function oauthError(reply: FastifyReply, status: number, error: string, description: string): FastifyReply {
  return reply.status(status).header('cache-control', 'no-store').send({ error, error_description: description });
}
