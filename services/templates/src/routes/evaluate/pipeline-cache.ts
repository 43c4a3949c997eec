import { compileTemplatePipeline, type DeviceTemplate, type TemplatePipeline } from '@triad/device-templates';

/**
 * Compiled pipelines of recently evaluated template versions, keyed by the source's SHA-256 (a
 * replaced version has a new hash, so no entry is ever stale). Compiling is the costly part of a
 * request; state is never cached: each request gets a fresh evaluator. Least recently used
 * entries go first. Compile errors are not cached (they are rare and cheap to repeat).
 */
export class PipelineCache {
  readonly #entries = new Map<string, TemplatePipeline>();
  readonly #capacity: number;

  constructor(capacity = 32) {
    this.#capacity = capacity;
  }

  /**
   * The pipeline of the source with hash `sha256`; `document` is parsed only on a miss.
   * Throws `TemplateEvaluatorError`.
   */
  get(sha256: string, document: () => DeviceTemplate): TemplatePipeline {
    const hit = this.#entries.get(sha256);
    if (hit !== undefined) {
      this.#entries.delete(sha256);
      this.#entries.set(sha256, hit);
      return hit;
    }
    const pipeline = compileTemplatePipeline(document());
    if (this.#entries.size >= this.#capacity) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    this.#entries.set(sha256, pipeline);
    return pipeline;
  }
}
