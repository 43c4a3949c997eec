/**
 * The editor page of one stored version: CodeMirror (loaded on this page only) with live
 * diagnostics, the problems list beside it, "Save as new version" and the try-it panel.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { ProblemsList } from './problems-list.js';
import type { TemplateEditor } from './template-editor.js';
import { findTemplateVersion, nextPatchVersion } from './template-version.js';
import { usePageTitle } from '../../shell/page-title.js';
import { followLink } from '../../shell/router.js';
import { REGISTRY_PATH, editorPath } from './templates-routes.js';
import { readSource, saveNewVersion, type SourceFormat, type TemplateProblem } from './templates-api.js';
import { TryItPanel } from './try-it-panel.js';
import { templateOutline, type TemplateOutline } from './template-outline.js';
import { readTemplateDocument } from './devices-api.js';
import { useTokenPrompt, type WriteAccess } from './write-token.js';
import { errorMessage } from '../../shell/error-alert.js';

export interface EditorPageProps {
  readonly templateId: string;
  readonly templateVersion: string;
  /** The area's write token, asked for when a save is refused for want of it. */
  readonly access: WriteAccess;
  /** Opens the editor on another version (after a save: the saved one). */
  readonly navigate: (path: string) => void;
  /** What the area says on arrival, e.g. "Saved ... 1.0.1" after the save that opened this page. */
  readonly notice?: string | undefined;
  /** Tells the area what to say on the page a save opens (`path`). */
  readonly onSaved: (path: string, notice: string) => void;
}

interface Loaded {
  readonly text: string;
  readonly format: SourceFormat;
}

/** The editor page. */
export function EditorPage({ templateId, templateVersion, access, navigate, notice, onSaved }: EditorPageProps) {
  const tokens = useTokenPrompt(access);
  usePageTitle(`${templateId} ${templateVersion}`);
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<TemplateEditor | undefined>(undefined);
  const [loaded, setLoaded] = useState<Loaded | undefined>();
  const [problems, setProblems] = useState<readonly TemplateProblem[]>([]);
  const [status, setStatus] = useState('Loading…');
  const [newVersion, setNewVersion] = useState('');
  const [saveMessage, setSaveMessage] = useState<string | undefined>(notice);
  const [outline, setOutline] = useState<TemplateOutline | undefined>();

  useEffect(() => {
    let cancelled = false;
    // The saved version's datapoints, for "Try it" (it runs the saved version, not the text).
    readTemplateDocument(templateId, templateVersion).then(
      (document) => !cancelled && setOutline(templateOutline(document)),
      () => undefined,
    );
    return () => {
      cancelled = true;
    };
  }, [templateId, templateVersion]);

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
        // Open the saved version: its title, URL and Try-it, and the next version proposed.
        const { templateId: id, templateVersion: version } = outcome.template;
        const path = editorPath(id, version);
        onSaved(
          path,
          `Saved ${id} ${version}. You are editing it now; saving again stores ${nextPatchVersion(version)} ` +
            'unless you change New version.',
        );
        navigate(path);
      } else if (outcome.kind === 'invalid') {
        setProblems(outcome.errors);
        setSaveMessage(`Not saved: ${outcome.errors.length} error(s), listed under Problems`);
      } else {
        // The API says "already stored; PUT it to its URL": a stored version never changes here.
        const taken = findTemplateVersion(current.text())?.version ?? newVersion;
        setSaveMessage(
          `Not saved: version ${taken} is in the registry already, and a saved version never changes. ` +
            'Enter a new version number and save again.',
        );
      }
    } catch (e) {
      if (tokens.asks(e, (given) => void save(undefined, given)))
        setSaveMessage('Not saved yet: the service needs its write token');
      else setSaveMessage(`Not saved: ${errorMessage(e)}`);
    }
  };

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
      <p role="status">{saveMessage}</p>
      {outline ? (
        <TryItPanel
          key={`${templateId}/${templateVersion}`}
          templateId={templateId}
          templateVersion={templateVersion}
          outline={outline}
        />
      ) : null}
    </section>
  );
}
