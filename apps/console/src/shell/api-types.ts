/**
 * Type helpers over the generated API types (`src/generated/*-api.ts`, from the services' OpenAPI
 * documents): the `*-wire.ts` modules name a reply by its route instead of writing its shape again.
 */

/**
 * `T` with every member and array read-only, all the way down. The generated types are mutable
 * (openapi-fetch's reply types do not map read-only arrays); what the console keeps is not.
 */
export type Immutable<T> = T extends (infer E)[]
  ? readonly Immutable<E>[]
  : T extends object
    ? { readonly [K in keyof T]: Immutable<T[K]> }
    : T;

/**
 * The body of an operation's `Status` reply (200 unless given), in whichever JSON media type the
 * service declares (`application/json`, `application/vnd.vendor.content.v1+json` ...), read-only:
 * `ReplyBody<paths['/devices/{id}']['get']>`.
 */
export type ReplyBody<Operation, Status extends number = 200> = Operation extends {
  readonly responses: { readonly [S in Status]: { readonly content: infer Content } };
}
  ? Immutable<Content[Extract<keyof Content, `application/${string}json`>]>
  : never;

/** The JSON body an operation takes, read-only: `RequestBody<paths['/devices']['post']>`. */
export type RequestBody<Operation> = Operation extends {
  readonly requestBody?: { readonly content: { readonly 'application/json': infer Body } };
}
  ? Immutable<Body>
  : never;

/**
 * `Keys` of `T`, each required and never undefined. For replies whose schema lists properties
 * without `required` (most of the node manager's): the console relies on these members being
 * sent, as the service's presenters always do; the names and value types still come from the
 * schema.
 */
export type Present<T, Keys extends keyof T> = { readonly [K in Keys]-?: Exclude<T[K], undefined> };
