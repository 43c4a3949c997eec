/**
 * Which import may point where (CONTRIBUTING.md, "Layers"); `npm run lint:layers` checks it with
 * dependency-cruiser, and `npm run lint` runs that.
 *
 * Between workspaces: packages import no service or app, services import no other service and no
 * app, the console imports no workspace (it talks HTTP), product code imports no test support.
 * Inside a workspace: its `layers.json` lists every folder and file directly under `src/` from top
 * to bottom; an entry may import itself and the entries below it, never one above it, and never a
 * peer (entries grouped in one array sit at the same height and know nothing of each other).
 * Import circles are refused everywhere, type-only imports included.
 *
 * The config refuses to load when a `layers.json` misses an entry of its `src/` or names one that
 * does not exist, so a new folder cannot slip past the rule unplaced.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = import.meta.dirname;
const TEST_FILE = '\\.test\\.tsx?$';
const TEST_SUPPORT = '(^|/)test-support/';

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `src/` entries a layer rule is about: folders and source files, tests and test support left out. */
function srcEntries(srcDir) {
  return readdirSync(srcDir, { withFileTypes: true })
    .filter((entry) => entry.name !== 'test-support')
    .filter((entry) => entry.isDirectory() || /\.tsx?$/.test(entry.name))
    .filter((entry) => !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
    .map((entry) => entry.name);
}

/** The workspace's layers, top first, each an array of peers; checked against its `src/`. */
function readLayers(workspace) {
  const file = path.join(ROOT, workspace, 'layers.json');
  const { layers } = JSON.parse(readFileSync(file, 'utf8'));
  if (!Array.isArray(layers)) throw new Error(`${workspace}/layers.json: "layers" must be an array`);
  const groups = layers.map((entry) => (Array.isArray(entry) ? entry : [entry]));
  const listed = groups.flat();
  const present = srcEntries(path.join(ROOT, workspace, 'src'));
  const problems = [
    ...present.filter((name) => !listed.includes(name)).map((name) => `src/${name} is not placed`),
    ...listed.filter((name) => !present.includes(name)).map((name) => `"${name}" is not in src/`),
    ...listed.filter((name, i) => listed.indexOf(name) !== i).map((name) => `"${name}" is listed twice`),
  ];
  if (problems.length > 0)
    throw new Error(`${workspace}/layers.json: ${problems.join('; ')}. Place each entry of src/ once, top to bottom.`);
  return groups;
}

const entryPattern = (workspace, names) =>
  `^${escape(workspace)}/src/(${names.map((name) => escape(name)).join('|')})(/|$)`;

/** One rule per entry: nothing above it and none of its peers. */
function layerRules(workspace, groups) {
  const rules = [];
  groups.forEach((group, height) => {
    const above = groups.slice(0, height).flat();
    for (const name of group) {
      const refused = [...above, ...group.filter((peer) => peer !== name)];
      if (refused.length === 0) continue;
      rules.push({
        name: `layers:${workspace}/src/${name}`,
        comment: `${workspace}/src/${name} may import only what ${workspace}/layers.json lists below it`,
        severity: 'error',
        from: { path: entryPattern(workspace, [name]), pathNot: [TEST_FILE, TEST_SUPPORT] },
        to: { path: entryPattern(workspace, refused), pathNot: [TEST_FILE, TEST_SUPPORT] },
      });
    }
  });
  return rules;
}

const workspaces = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).workspaces;

const missingLayers = workspaces.filter((workspace) => !existsSync(path.join(ROOT, workspace, 'layers.json')));
if (missingLayers.length > 0)
  throw new Error(`every workspace needs a layers.json; missing: ${missingLayers.join(', ')}`);

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'files that import each other in a loop (type-only imports count): move the shared part down',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'package-imports-no-app-or-service',
      comment: 'packages are libraries under every service and app; hand them what they need instead',
      severity: 'error',
      from: { path: '^packages/' },
      to: { path: '^(apps|services)/' },
    },
    {
      name: 'service-imports-no-other-service',
      comment: 'services meet over HTTP and the database, never through each other’s code',
      severity: 'error',
      from: { path: '^services/([^/]+)/' },
      to: { path: '^services/', pathNot: '^services/$1/' },
    },
    {
      name: 'service-imports-no-app',
      severity: 'error',
      from: { path: '^services/' },
      to: { path: '^apps/' },
    },
    {
      name: 'console-talks-http-only',
      comment:
        'the console reaches the services over HTTP; its wire types are generated from their OpenAPI documents. ' +
        'It bundles one published document, the device-template JSON schema, for the editor’s completion. ' +
        'Its tests start real services.',
      severity: 'error',
      from: { path: '^apps/console/', pathNot: [TEST_FILE, TEST_SUPPORT] },
      to: {
        path: '^(packages|services|apps/cli)/',
        pathNot: '^packages/device-templates/schema/[^/]+\\.schema\\.json$',
      },
    },
    {
      name: 'console-areas-apart',
      comment: 'each console area (operator, catalog, templates) stands alone; what they share lives in shell/',
      severity: 'error',
      from: { path: '^apps/console/src/areas/([^/]+)/' },
      to: { path: '^apps/console/src/areas/', pathNot: '^apps/console/src/areas/$1/' },
    },
    {
      name: 'product-imports-no-test-support',
      severity: 'error',
      from: { path: '^(packages|services|apps)/[^/]+/src/', pathNot: [TEST_FILE, TEST_SUPPORT] },
      to: { path: TEST_SUPPORT },
    },
    ...workspaces.flatMap((workspace) => layerRules(workspace, readLayers(workspace))),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      conditionNames: ['source', 'import', 'node', 'default'],
      exportsFields: ['exports'],
      mainFields: ['module', 'main', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
