import type { ProblemDocument } from '@triad/service-kit';
import type { ProblemEntry } from '../presenters/problem-presenter.js';
import type { TemplateSummary } from '../presenters/template-presenter.js';

/** The reply of `POST /templates` and `PUT /templates/:id/:version`. */
export interface TemplateWriteReply {
  readonly created: boolean;
  readonly template: TemplateSummary;
  readonly warnings: readonly ProblemEntry[];
}

/** The reply of `GET /templates` (a filtered page) and of `POST /match` (items only). */
export interface TemplateListReply {
  readonly items: readonly TemplateSummary[];
  readonly total: number;
  readonly limit: number;
  readonly offset: number;
}

/** The parts of a stored document the route tests read back (`GET /templates/:id/:version`). */
export interface StoredDocument {
  readonly templateId: string;
  readonly templateVersion: string;
  readonly description: string;
}

/** A problem reply listing validation problems (422 `TPL_ERR_TEMPLATE_INVALID`, 400 request validation). */
export interface ProblemWithErrors extends ProblemDocument {
  readonly errors: readonly ProblemEntry[];
}
