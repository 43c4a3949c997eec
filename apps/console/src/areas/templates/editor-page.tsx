/**
 * The editor page of one stored version: CodeMirror (loaded on this page only) with live
 * diagnostics, the problems list beside it, "Save as new version" and the try-it panel.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { datapointIdsAround } from './datapoint-ids.js';
import { ProblemsList } from './problems-list.js';
import type { TemplateEditor } from './template-editor.js';
import { findTemplateVersion, nextPatchVersion } from './template-version.js';
import { usePageTitle } from '../../shell/page-title.js';
import { followLink } from '../../shell/router.js';
import { REGISTRY_PATH, editorPath } from './templates-routes.js';
import { readSource, saveNewVersion, type SourceFormat, type TemplateProblem } from './templates-api.js';
import { TryItPanel } from './try-it-panel.js';
import { useTokenPrompt, type WriteAccess } from './write-token.js';
import { errorMessage } from '../../shell/error-alert.js';

export interface EditorPageProps {
  readonly templateId: string;
  readonly templateVersion: string;
  /** The area's write token, asked for when a save is refused for want of it. */
  readonly access: WriteAccess;
}

interface Loaded {
  readonly text: string;
  readonly format: SourceFormat;
}

/** The first datapoint of the text, to prefill the try-it panel. */
function firstDatapoint(text: string): { setId: string; datapointId: string } {
  const setId = /\bdatapointSetId["']?\s*:\s*["']?([a-zA-Z0-9#&_-]+)/.exec(text)?.[1] ?? '';
  return { setId, datapointId: datapointIdsAround(text, text.search(/\bdatapointSetId\b/) + 1)[0] ?? '' };
}

/** The editor page. */
export function EditorPage({ templateId, templateVersion, access }: EditorPageProps) {
  const tokens = useTokenPrompt(access);
  usePageTitle(`${templateId} ${templateVersion}`);
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<TemplateEditor | undefined>(undefined);
  const [loaded, setLoaded] = useState<Loaded | undefined>();
  const [problems, setProblems] = useState<readonly TemplateProblem[]>([]);
  const [status, setStatus] = useState('Loading…');
  const [newVersion, setNewVersion] = useState('');
  const [saveMessage, setSaveMessage] = useState<{ text: string; saved?: string } | undefined>();

  useEffect(() => {
    let cancelled = false;
    setLoaded(undefined);
    setStatus('Loading…');
    readSource(templateId, templateVersion).then(
      (source) => {
        if (cancelled) return;
        setLoaded(source);
        setNewVersion(nextPatchVersion(templateVersion));
      },
      (e: unknown) => !cancelled && setStatus(errorMessage(e)),
    );
    return () => {
      cancelled = true;
    };
  }, [templateId, templateVersion]);

  useEffect(() => {
    if (!loaded || !host.current) return;
    const parent = host.current;
    let disposed = false;
    setStatus('Loading the editor…');
    import('./template-editor.js').then(
      ({ createTemplateEditor }) => {
        if (disposed) return;
        editor.current = createTemplateEditor({
          parent,
          text: loaded.text,
          format: loaded.format,
          label: `Template source (${loaded.format.toUpperCase()})`,
          onProblems: (list, elapsedMs) => {
            setProblems(list);
            setStatus(`Checked in ${Math.round(elapsedMs)} ms after the last edit`);
          },
        });
        setStatus('');
      },
      (e: unknown) => setStatus(`The editor failed to load: ${String(e)}`),
    );
    return () => {
      disposed = true;
      editor.current?.destroy();
      editor.current = undefined;
    };
  }, [loaded]);

  const save = async (event?: Event, token = access.token) => {
    event?.preventDefault();
    const current = editor.current;
    if (!current || !loaded) return;
    const found = findTemplateVersion(current.text());
    if (found && newVersion && found.version !== newVersion) current.replace(found.from, found.to, newVersion);
    try {
      const outcome = await saveNewVersion(current.text(), loaded.format, token);
      if (outcome.kind === 'saved') {
        const { templateId: id, templateVersion: version } = outcome.template;
        setSaveMessage({ text: `Saved ${id} ${version}`, saved: editorPath(id, version) });
      } else if (outcome.kind === 'invalid') {
        setProblems(outcome.errors);
        setSaveMessage({ text: `Not saved: ${outcome.errors.length} error(s), listed under Problems` });
      } else {
        // The API says "already stored; PUT it to its URL": a stored version never changes here.
        const taken = findTemplateVersion(current.text())?.version ?? newVersion;
        setSaveMessage({
          text:
            `Not saved: version ${taken} is in the registry already, and a saved version never changes. ` +
            'Enter a new version number and save again.',
        });
      }
    } catch (e) {
      if (tokens.asks(e, (given) => void save(undefined, given)))
        setSaveMessage({ text: 'Not saved yet: the service needs its write token' });
      else setSaveMessage({ text: `Not saved: ${errorMessage(e)}` });
    }
  };

  const sample = loaded ? firstDatapoint(loaded.text) : undefined;
  return (
    <section class="tpl-editor-page" aria-labelledby="tpl-editor-title">
      <p>
        <a href={REGISTRY_PATH} onClick={followLink}>
          Back to the registry
        </a>
      </p>
      <h1 id="tpl-editor-title">
        {templateId} {templateVersion}
      </h1>
      <p aria-live="polite" class="tpl-muted">
        {status}
      </p>
      <div class="tpl-editor-layout">
        <div class="tpl-editor" ref={host} />
        <ProblemsList problems={problems} onActivate={(p) => editor.current?.goTo(p.line, p.column)} />
      </div>
      <form class="tpl-save" onSubmit={(e) => void save(e)}>
        <label>
          New version
          <input value={newVersion} onInput={(e) => setNewVersion(e.currentTarget.value)} required />
        </label>
        <button type="submit" class="primary" disabled={!loaded}>
          Save as new version
        </button>
      </form>
      {tokens.field}
      {saveMessage ? (
        <p role="status">
          {saveMessage.text}
          {saveMessage.saved ? (
            <>
              {' '}
              <a href={saveMessage.saved} onClick={followLink}>
                Open it
              </a>
            </>
          ) : null}
        </p>
      ) : null}
      {sample ? (
        <TryItPanel
          key={`${templateId}/${templateVersion}`}
          templateId={templateId}
          templateVersion={templateVersion}
          datapointSetId={sample.setId}
          datapointId={sample.datapointId}
        />
      ) : null}
    </section>
  );
}
