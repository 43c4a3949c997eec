/**
 * The registry: the newest version of every template, searched by text (id, alias, description)
 * or driver (originType), each with its versions, a link to the editor and a download link.
 */
import { useEffect, useState } from 'preact/hooks';
import { listTemplates, listVersions, templateUrl, type TemplateSummary } from './templates-api.js';
import { usePageTitle } from '../../shell/page-title.js';
import { followLink } from '../../shell/router.js';
import { editorPath } from './templates-routes.js';
import { errorMessage } from '../../shell/error-alert.js';

/** File name a downloaded version gets. */
function fileName(summary: TemplateSummary): string {
  const base = `${summary.templateId}-${summary.templateVersion}`.replace(/[^A-Za-z0-9._-]+/g, '-');
  return `${base}.ndst.${summary.sourceFormat}`;
}

function VersionRow({ summary }: { readonly summary: TemplateSummary }) {
  const label = `${summary.templateId} ${summary.templateVersion}`;
  return (
    <li class="tpl-version">
      <span>{summary.templateVersion}</span>
      {summary.latest ? <span class="tpl-badge"> latest</span> : null}
      <span class="tpl-muted"> {new Date(summary.updatedAt).toLocaleString()}</span>{' '}
      <a
        href={editorPath(summary.templateId, summary.templateVersion)}
        aria-label={`Edit ${label}`}
        onClick={followLink}
      >
        Edit
      </a>{' '}
      <a
        href={`${templateUrl(summary.templateId, summary.templateVersion)}?format=source`}
        download={fileName(summary)}
        aria-label={`Download ${label}`}
      >
        Download
      </a>
    </li>
  );
}

function TemplateRow({ summary }: { readonly summary: TemplateSummary }) {
  const [versions, setVersions] = useState<readonly TemplateSummary[] | undefined>();
  const [open, setOpen] = useState(false);
  const [error, setError] = useState('');
  const toggle = () => {
    const next = !open;
    setOpen(next);
    if (next && !versions) {
      listVersions(summary.templateId).then(setVersions, (e: unknown) => setError(String(e)));
    }
  };
  const listId = `tpl-versions-${summary.templateId.replace(/\W+/g, '-')}`;
  return (
    <li class="tpl-card">
      <h3>{summary.alias ? `${summary.alias} (${summary.templateId})` : summary.templateId}</h3>
      <p>{summary.description}</p>
      <p class="tpl-muted">
        Drivers: {summary.originTypes.join(', ') || 'none'} · {summary.sourceFormat.toUpperCase()}
      </p>
      <ul class="tpl-versions" aria-label={`Latest version of ${summary.templateId}`}>
        <VersionRow summary={summary} />
      </ul>
      <button type="button" aria-expanded={open} aria-controls={listId} onClick={toggle}>
        {open ? 'Hide versions' : 'All versions'}
        <span class="visually-hidden"> of {summary.templateId}</span>
      </button>
      {open ? (
        <ul id={listId} class="tpl-versions" aria-label={`Versions of ${summary.templateId}`}>
          {error ? (
            <li role="alert" class="error">
              {error}
            </li>
          ) : null}
          {versions?.map((v) => (
            <VersionRow key={v.templateVersion} summary={v} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}

/** The registry page. */
export function RegistryPage() {
  usePageTitle('Template registry');
  const [query, setQuery] = useState('');
  const [driver, setDriver] = useState('');
  const [drivers, setDrivers] = useState<readonly string[]>([]);
  const [page, setPage] = useState<{ items: readonly TemplateSummary[]; total: number } | undefined>();
  const [error, setError] = useState('');

  useEffect(() => {
    listTemplates({ latest: true, limit: 200 }).then(
      (all) => setDrivers([...new Set(all.items.flatMap((t) => t.originTypes))].sort()),
      () => setDrivers([]),
    );
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    const timer = setTimeout(() => {
      listTemplates(
        {
          latest: true,
          limit: 200,
          ...(query.trim() ? { q: query.trim() } : {}),
          ...(driver ? { originType: driver } : {}),
        },
        controller.signal,
      ).then(
        (result) => {
          setError('');
          setPage(result);
        },
        (e: unknown) => {
          if (!controller.signal.aborted) setError(errorMessage(e));
        },
      );
    }, 150);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query, driver]);

  return (
    <section class="tpl-registry" aria-labelledby="tpl-registry-title">
      <h1 id="tpl-registry-title">Template registry</h1>
      <form role="search" class="tpl-search" onSubmit={(e) => e.preventDefault()}>
        <label>
          Search templates
          <input type="search" value={query} onInput={(e) => setQuery(e.currentTarget.value)} />
        </label>
        <label>
          Driver
          <select value={driver} onChange={(e) => setDriver(e.currentTarget.value)}>
            <option value="">Any driver</option>
            {drivers.map((d) => (
              <option key={d} value={d}>
                {d}
              </option>
            ))}
          </select>
        </label>
      </form>
      {error ? (
        <p role="alert" class="error">
          {error}
        </p>
      ) : null}
      <p aria-live="polite" class="tpl-muted">
        {page ? `${page.total} template${page.total === 1 ? '' : 's'}` : 'Loading…'}
      </p>
      <ul class="tpl-cards" aria-label="Templates">
        {page?.items.map((t) => (
          <TemplateRow key={t.templateId} summary={t} />
        ))}
      </ul>
    </section>
  );
}
