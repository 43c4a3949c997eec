import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyRequest,
  FastifySchema,
  FastifyTypeProvider,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
} from 'fastify';
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';

/**
 * Types a route's `params`, `querystring` and `body` from its JSON schema (json-schema-to-ts),
 * as ajv has checked them. Replies stay untyped here: presenters say what a reply holds, and
 * the response schema serialises it. Decision 0031, "Route handlers typed from their schemas".
 */
export interface RequestSchemaTypes extends FastifyTypeProvider {
  readonly validator: this['schema'] extends JSONSchema ? FromSchema<this['schema']> : unknown;
  readonly serializer: unknown;
}

/**
 * The Fastify instance a route plugin receives: a handler reads `request.body.name` typed from
 * the route's schema, without a hand-written type or a cast.
 */
export type SchemaTypedApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  RequestSchemaTypes
>;

/** The request of a route with schema `S`, as `SchemaTypedApp` types it, for handlers declared apart. */
export type SchemaRequest<S extends FastifySchema> = FastifyRequest<
  RouteGenericInterface,
  RawServerDefault,
  RawRequestDefaultExpression,
  S,
  RequestSchemaTypes
>;
