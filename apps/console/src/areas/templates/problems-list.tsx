/**
 * The problems beside the editor: line, column and message of each; activating one (click,
 * Enter or Space) moves the editor's cursor there. Arrow keys move between problems.
 */
import type { TemplateProblem } from './templates-api.js';

export interface ProblemsListProps {
  readonly problems: readonly TemplateProblem[];
  readonly onActivate: (problem: TemplateProblem) => void;
}

function moveFocus(event: KeyboardEvent) {
  if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
  const current = event.target;
  if (!(current instanceof HTMLElement)) return;
  const buttons = [...(current.closest('ul')?.querySelectorAll('button') ?? [])];
  const next = buttons[buttons.findIndex((button) => button === current) + (event.key === 'ArrowDown' ? 1 : -1)];
  if (next) {
    event.preventDefault();
    next.focus();
  }
}

/** The problems list (an empty list says so). */
export function ProblemsList({ problems, onActivate }: ProblemsListProps) {
  const errors = problems.filter((p) => p.severity === 'error').length;
  return (
    <section class="tpl-problems" aria-labelledby="tpl-problems-title">
      <h2 id="tpl-problems-title">Problems</h2>
      <p aria-live="polite" class="tpl-muted">
        {problems.length === 0
          ? 'No problems'
          : `${errors} error${errors === 1 ? '' : 's'}, ${problems.length - errors} warning${
              problems.length - errors === 1 ? '' : 's'
            }`}
      </p>
      <ul aria-label="Problems" onKeyDown={moveFocus}>
        {problems.map((problem, index) => (
          <li key={`${index}-${problem.code}-${problem.line}-${problem.column}`}>
            <button type="button" class={`tpl-problem tpl-${problem.severity}`} onClick={() => onActivate(problem)}>
              <span class="tpl-where">
                Line {problem.line}, column {problem.column}
              </span>
              <span class="visually-hidden">: </span>
              <span class="tpl-severity">{problem.severity}</span> {problem.message}
              {problem.suggestion ? <span class="tpl-muted"> {problem.suggestion}</span> : null}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
