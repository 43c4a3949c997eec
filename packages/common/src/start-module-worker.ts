import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts the worker module `name` that sits beside the caller's module `here` (its
 * `import.meta.url`): `name.js` when the caller runs built, and when it runs from its `.ts`
 * source (tests, benchmarks, `npm run dev`, all through tsx) `name.ts` with tsx registered inside
 * the worker first, since a worker does not inherit its parent's module loader.
 */
export function startModuleWorker(here: string, name: string, options?: WorkerOptions): Worker {
  if (!here.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, here), options);
  const entry = new URL(`./${name}.ts`, here).href;
  // `require.resolve` finds tsx's CommonJS entry; its ES module twin sits beside it.
  const tsx = pathToFileURL(
    createRequire(here)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  const code = `import { register } from ${JSON.stringify(tsx)}; register(); await import(${JSON.stringify(entry)});`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(code)}`), options);
}
