import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Every document a newcomer reads (README.md, CONTRIBUTING.md, docs/**\/*.md) must lead only to
 * files inside the repository: relative links resolve to existing files (and headings, for
 * `#anchor`s), nothing points at the workspace around the clone, and no link leaves for another
 * site except our own services on loopback (CONTRIBUTING rule 17).
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** One broken reference, reported as `file:line: message`. */
interface Finding {
  readonly file: string;
  readonly line: number;
  readonly message: string;
}

/** Text that mentions files outside the clone: the shared workspace or absolute paths of a machine. */
const OUTSIDE_PATH =
  /(?:^|[\s`'"(])(?:\.\.\/)+shared\/|\bshared\/(?:specs|reference|STYLE\.md)|(?:^|[\s`'"(])\/(?:work|home|Users|root|mnt)\//;

/** Hosts an http(s) URL may name: our own services on this machine. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * GitHub's heading anchor: lower case, punctuation other than `-` and `_` removed, each space a
 * `-`. Markdown links keep their text, inline code its content, HTML tags go.
 */
export function headingSlug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The lines of a Markdown text with fenced code blocks blanked (their `#` lines are not headings). */
function proseLines(text: string): string[] {
  let fence: string | undefined;
  return text.split('\n').map((line) => {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === undefined && marker !== undefined) {
      fence = marker;
      return '';
    }
    if (fence !== undefined) {
      if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
      return '';
    }
    return line;
  });
}

/** Every anchor a document offers: heading slugs (numbered when repeated) and `<a id>`/`<a name>` targets. */
export function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(text)) {
    const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading !== undefined) {
      const slug = headingSlug(heading);
      const count = seen.get(slug) ?? 0;
      anchors.add(count === 0 ? slug : `${slug}-${count}`);
      seen.set(slug, count + 1);
    }
    for (const match of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) if (match[1]) anchors.add(match[1]);
  }
  return anchors;
}

/** A link found in a document, with the line it is on. */
interface FoundLink {
  readonly target: string;
  readonly line: number;
}

const INLINE_LINK =
  /!?\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g;
const REFERENCE_DEFINITION = /^\s{0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/;
const AUTOLINK = /<((?:https?|ftp|file|mailto):[^>\s]*)>/gi;
const BARE_URL = /\b(?:https?|ftp|file):\/\/[^\s<>)\]`'"]+/gi;

/** Links (inline, reference definitions, autolinks, bare URLs) and inline code spans, per line, outside code blocks. */
function scan(text: string): { links: FoundLink[]; codeSpans: FoundLink[] } {
  const links: FoundLink[] = [];
  const codeSpans: FoundLink[] = [];
  proseLines(text).forEach((raw, index) => {
    const line = index + 1;
    const withoutCode = raw.replace(/(`+)([\s\S]*?[^`])\1(?!`)/g, (_span, _ticks: string, content: string) => {
      codeSpans.push({ target: content.trim(), line });
      return ' ';
    });
    const definition = REFERENCE_DEFINITION.exec(withoutCode)?.[1];
    if (definition !== undefined) links.push({ target: definition, line });
    let rest = withoutCode;
    for (const match of withoutCode.matchAll(INLINE_LINK)) {
      if (match[1] !== undefined) links.push({ target: match[1], line });
      rest = rest.replace(match[0], ' ');
    }
    for (const match of rest.matchAll(AUTOLINK)) {
      if (match[1] !== undefined) links.push({ target: match[1], line });
      rest = rest.replace(match[0], ' ');
    }
    for (const match of rest.matchAll(BARE_URL)) links.push({ target: match[0], line });
  });
  return { links, codeSpans };
}

/** Whether an absolute URL stays on this machine (our services on loopback). */
function isLoopbackUrl(target: string): boolean {
  try {
    const url = new URL(target);
    return (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_HOSTS.has(url.hostname);
  } catch {
    return false;
  }
}

/**
 * Checks one document. `read(file)` gives the text of another repository file (for anchors), or
 * undefined when there is no such file; `root` bounds where links may lead.
 */
export function checkDocument(
  file: string,
  text: string,
  root: string,
  read: (file: string) => string | undefined,
): Finding[] {
  const findings: Finding[] = [];
  const report = (line: number, message: string) => findings.push({ file: path.relative(root, file), line, message });
  const { links, codeSpans } = scan(text);

  for (const span of codeSpans) {
    if (OUTSIDE_PATH.test(` ${span.target}`)) report(span.line, `names a path outside the repository: ${span.target}`);
  }

  for (const { target: rawTarget, line } of links) {
    const target = rawTarget.replace(/^<|>$/g, '');
    if (OUTSIDE_PATH.test(` ${target}`)) {
      report(line, `links outside the repository: ${target}`);
      continue;
    }
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
      if (!isLoopbackUrl(target)) report(line, `links to another site: ${target}`);
      continue;
    }
    if (target.startsWith('/')) {
      report(line, `links to an absolute path (write it relative to ${path.relative(root, file)}): ${target}`);
      continue;
    }
    const hashAt = target.indexOf('#');
    const pathPart = hashAt < 0 ? target : target.slice(0, hashAt);
    const anchor = hashAt < 0 ? undefined : decodeURIComponent(target.slice(hashAt + 1));
    const resolved = pathPart === '' ? file : path.resolve(path.dirname(file), decodeURIComponent(pathPart));
    const relative = path.relative(root, resolved);
    if (relative.startsWith('..') || path.isAbsolute(relative)) {
      report(line, `leads outside the repository: ${target}`);
      continue;
    }
    const targetText = resolved === file ? text : read(resolved);
    if (targetText === undefined) {
      report(line, `no such file: ${target}`);
      continue;
    }
    if (anchor !== undefined && anchor !== '' && resolved.endsWith('.md') && !anchorsOf(targetText).has(anchor)) {
      report(line, `no heading or anchor #${anchor} in ${path.relative(root, resolved)}`);
    }
  }
  return findings;
}

/** README.md, CONTRIBUTING.md and every Markdown file under docs/. */
function documents(): string[] {
  const docs = readdirSync(path.join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => path.join(ROOT, 'docs', name));
  return [path.join(ROOT, 'README.md'), path.join(ROOT, 'CONTRIBUTING.md'), ...docs.sort()];
}

/** A repository file's text; a directory counts as existing (its text is empty). */
function readRepositoryFile(file: string): string | undefined {
  if (!existsSync(file)) return undefined;
  return statSync(file).isDirectory() ? '' : readFileSync(file, 'utf8');
}

const format = (findings: readonly Finding[]) => findings.map((f) => `${f.file}:${f.line}: ${f.message}`);

describe('documentation links', () => {
  const files = documents();

  it('covers README.md, CONTRIBUTING.md, the guides, the reference documents and the decisions', () => {
    const names = files.map((f) => path.relative(ROOT, f));
    expect(names).toContain('README.md');
    expect(names).toContain('CONTRIBUTING.md');
    expect(names).toContain(path.join('docs', 'reference', 'node-management-api.md'));
    expect(names.filter((n) => n.startsWith(path.join('docs', 'decisions'))).length).toBeGreaterThan(10);
  });

  it.each(files.map((f) => [path.relative(ROOT, f), f]))(
    '%s: every link resolves inside the repository and no path leads outside it',
    (_name, file) => {
      const findings = format(checkDocument(file, readFileSync(file, 'utf8'), ROOT, readRepositoryFile));
      expect(findings.join('\n')).toBe('');
    },
  );
});

describe('the link checker', () => {
  const root = path.join(path.sep, 'repo');
  const files: Record<string, string> = {
    [path.join(root, 'docs', 'guide.md')]: '# Guide\n\n## Search (`GET /api/articles`)\n\n## Notes\n\n## Notes\n',
    [path.join(root, 'docs', 'errors.md')]: '| <a id="x_err_one"></a>`X_ERR_ONE` |\n',
  };
  const check = (text: string) =>
    format(checkDocument(path.join(root, 'README.md'), text, root, (file) => files[file]));

  it('accepts relative links to existing files, headings and explicit anchors', () => {
    const text = [
      '# Top',
      '[guide](docs/guide.md), [search](docs/guide.md#search-get-apiarticles), [again](docs/guide.md#notes-1)',
      '[code](docs/errors.md#x_err_one), [here](#top), <http://127.0.0.1:8080/docs>, http://localhost:8081/api',
      '```sh',
      'curl https://example.com/not-a-link-in-code',
      '```',
    ].join('\n');
    expect(check(text)).toEqual([]);
  });

  it('reports a link to a file that does not exist', () => {
    expect(check('See [the spec](docs/missing.md).')).toEqual(['README.md:1: no such file: docs/missing.md']);
  });

  it('reports an anchor that names no heading', () => {
    expect(check('[x](docs/guide.md#searching)')).toEqual([
      'README.md:1: no heading or anchor #searching in docs/guide.md',
    ]);
  });

  it('reports links and inline-code paths that lead outside the repository', () => {
    expect(check('Spec: `../shared/specs/1-device-template-format.md`.')).toHaveLength(1);
    expect(check('From `shared/reference/bmecat.md`.')).toHaveLength(1);
    expect(check('[spec](../shared/specs/2-node-management-api.md)')).toHaveLength(1);
    expect(check('[up](../outside.md)')).toEqual(['README.md:1: leads outside the repository: ../outside.md']);
    expect(check('Read `/work/shared/STYLE.md` first.')).toHaveLength(1);
  });

  it('reports links to other sites, but not our services on loopback', () => {
    expect(check('[docs](https://example.com/docs) and https://example.org')).toEqual([
      'README.md:1: links to another site: https://example.com/docs',
      'README.md:1: links to another site: https://example.org',
    ]);
    expect(check('<http://127.0.0.1:8082/openapi.json>')).toEqual([]);
  });
});
