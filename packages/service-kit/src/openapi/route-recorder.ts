import type { FastifyInstance } from 'fastify';

/** A route as the server registered it: one method, the Fastify URL (`/a/:id`). */
export interface RegisteredRoute {
  readonly method: string;
  readonly url: string;
}

const recorded = new WeakMap<FastifyInstance, RegisteredRoute[]>();

/**
 * Starts recording every route registered on `app` (and its child plugins) from now on; routes
 * registered before the call are not seen. Calling it twice on one instance records once.
 */
export function recordRoutes(app: FastifyInstance): void {
  if (recorded.has(app)) return;
  const routes: RegisteredRoute[] = [];
  recorded.set(app, routes);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) routes.push({ method: String(method).toUpperCase(), url: route.url });
  });
}

/**
 * The routes recorded on `app` since `recordRoutes` (which `registerOpenApi` calls).
 *
 * @throws Error when nothing records `app`'s routes.
 */
export function registeredRoutes(app: FastifyInstance): readonly RegisteredRoute[] {
  const routes = recorded.get(app);
  if (!routes) throw new Error('This app does not record its routes: build it with registerOpenApi (service-kit)');
  return routes;
}
