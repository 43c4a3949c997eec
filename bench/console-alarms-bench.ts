/**
 * The console's alarm page at 1,000 rows in Chromium (apps/console, issue 26's budget: the
 * largest page update under 50 ms).
 *
 *   node --conditions=source --import tsx bench/console-alarms-bench.ts [rounds]
 *
 * Starts a node manager on loopback (SQLite in a temporary folder, authentication on) serving the
 * built console (`cd apps/console && npx vite build` first), raises 1,000 alarms of every
 * severity on one node, signs in as the admin in headless Chromium (1280×800) and opens
 * `/alarms?rows=1000`. Then, `rounds` times (default 5), it times each update from the click (or
 * the choice) to the next painted frame in the page's own clock (`performance.now`):
 *
 *   - sort by severity, by alarm (text, collated), by time (the API's order reversed),
 *   - filter by one severity and back to every severity,
 *   - select every alarm shown and unselect them,
 *   - a live update: an alarm acknowledged through the REST API, from the arrival of the reloaded
 *     list (its resource timing) to the frame after its row changed.
 *
 * Prints the median and the worst of each, and the longest task the page ran (Long Tasks API).
 * Asserts nothing about time. Needs `/usr/bin/chromium`; skips with a message without it.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { startNodeManagerServer } from '@triad/node-manager-service';
import { median, printTable } from './bench-utils.js';

const CHROMIUM = '/usr/bin/chromium';
const CONSOLE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/console/dist');
const ALARMS = 1000;
const ROUNDS = Number(process.argv[2] ?? 5);
const SEVERITIES = ['critical', 'major', 'minor', 'warning', 'indeterminate', 'cleared'];
const BASIC = { authorization: `Basic ${Buffer.from('admin:Admin123').toString('base64')}` };

if (!existsSync(CHROMIUM)) {
  console.log(`skipped: ${CHROMIUM} is missing (apt-get install chromium)`);
  process.exit(0);
}
if (!existsSync(path.join(CONSOLE_ROOT, 'index.html'))) {
  console.log('skipped: the console is not built (cd apps/console && npx vite build)');
  process.exit(0);
}

/*
 * What runs in the page is plain JavaScript text: this file is type-checked without the DOM's
 * types (the root tsconfig), and tsx would wrap named functions in a helper the page lacks.
 */

/** The ms from now to the next painted frame (rAF runs before the paint; the task after it once the frame is out). */
const TO_FRAME = 'new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))';

/** Clicks the element `selector` finds and returns the ms from the click to the next painted frame. */
function clickToFrame(page: Page, selector: string): Promise<number> {
  return page.evaluate<number>(`(async () => {
    const element = document.querySelector(${JSON.stringify(selector)});
    if (!element) throw new Error('no ' + ${JSON.stringify(selector)});
    const start = performance.now();
    element.click();
    await ${TO_FRAME};
    return performance.now() - start;
  })()`);
}

/** Picks `value` in the select labelled `label` and returns the ms to the next painted frame. */
function chooseToFrame(page: Page, label: string, value: string): Promise<number> {
  return page.evaluate<number>(`(async () => {
    const select = [...document.querySelectorAll('label')]
      .find((l) => l.textContent.startsWith(${JSON.stringify(label)}))
      ?.querySelector('select');
    if (!select) throw new Error('no select ' + ${JSON.stringify(label)});
    const start = performance.now();
    select.value = ${JSON.stringify(value)};
    select.dispatchEvent(new Event('change', { bubbles: true }));
    await ${TO_FRAME};
    return performance.now() - start;
  })()`);
}

/**
 * Waits until the row of alarm `id` offers Unacknowledge, and returns the ms from the arrival of
 * the last alarm list the page fetched to the frame after that change.
 */
function liveUpdateToFrame(page: Page, id: string): Promise<number> {
  return page.evaluate<number>(`new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      const row = [...document.querySelectorAll('tbody tr')]
        .find((r) => r.querySelector('th')?.textContent === ${JSON.stringify(id)});
      if (!row || !row.textContent.includes('Unacknowledge')) return;
      observer.disconnect();
      ${TO_FRAME}.then(() => {
        const painted = performance.now();
        const reply = performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/alarm?')).at(-1);
        resolve(painted - (reply ? reply.responseEnd : painted));
      });
    });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
  })`);
}

/**
 * The CPU time, in ms, the page's main thread (`CrRendererMain`) spent in top-level tasks in a
 * Chromium trace: what an update costs the page, whatever else the machine runs meanwhile.
 */
function mainThreadCpuMs(buffer: Buffer): number {
  const { traceEvents } = JSON.parse(buffer.toString()) as { traceEvents: TraceEvent[] };
  const main = new Set(
    traceEvents
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  let us = 0;
  for (const e of traceEvents)
    if (e.ph === 'X' && e.name === 'ThreadControllerImpl::RunTask' && main.has(`${e.pid}:${e.tid}`)) us += e.tdur ?? 0;
  return us / 1000;
}

interface TraceEvent {
  readonly name: string;
  readonly ph: string;
  readonly pid: number;
  readonly tid: number;
  /** Thread (CPU) time of a complete event, in µs. */
  readonly tdur?: number;
  readonly args?: { readonly name?: string };
}

/** Starts keeping the longest task the page runs (`longestTask`). */
const WATCH_LONG_TASKS = `(() => {
  window.longestTask = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.longestTask = Math.max(window.longestTask, entry.duration);
  }).observe({ type: 'longtask' });
})()`;

const dataDir = await mkdtemp(path.join(tmpdir(), 'console-alarms-bench-'));
const server = await startNodeManagerServer(
  { port: 0, dataDir, demo: false },
  {
    env: {
      TRIAD_SCRYPT_COST: '16',
      TRIAD_LOG_LEVEL: 'silent',
      TRIAD_ADMIN_PASSWORD: 'Admin123',
      // The node never answers; its node_down alarm must not join the 1,000.
      TRIAD_NODE_DOWN_ALARM_AFTER_MS: '86400000',
    },
    consoleRoot: CONSOLE_ROOT,
  },
);
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
try {
  const api = async (method: string, url: string, body?: unknown): Promise<unknown> => {
    const response = await fetch(`${server.url}${url}`, {
      method,
      headers: { ...BASIC, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return text === '' ? undefined : (JSON.parse(text) as unknown);
  };
  const { id: nodeId } = (await api('POST', '/api/topo/action/add-node', { name: 'ghost@localhost', cookie: 'c' })) as {
    id: string;
  };
  for (let i = 0; i < ALARMS; i++)
    await server.core.alarms.raise({
      alarmId: `load_${i}`,
      nodeId,
      severity: SEVERITIES[i % SEVERITIES.length]!,
      custom: `source_${i % 7}`,
      additionalInformation: `Alarm ${i} of the benchmark, raised on purpose.`,
    });

  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.setDefaultTimeout(30_000);
  await page.goto(`${server.url}/alarms?rows=${ALARMS}`);
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password').fill('Admin123');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator(`table[aria-rowcount="${ALARMS + 1}"]`).waitFor();
  await page.evaluate(WATCH_LONG_TASKS);

  const header = (name: string) => `th[data-column="${name}"] .sort-button`;
  const selectAll = 'input[aria-label="Select every alarm shown"]';
  const times: Record<string, { wall: number[]; cpu: number[] }> = {};
  /** Runs `op` while Chromium traces, and notes its time to the frame and the page's main-thread CPU time. */
  const note = async (name: string, op: () => Promise<number>) => {
    await browser.startTracing(page, { categories: ['toplevel'] });
    const wall = await op();
    const cpu = mainThreadCpuMs(await browser.stopTracing());
    const entry = (times[name] ??= { wall: [], cpu: [] });
    entry.wall.push(wall);
    entry.cpu.push(cpu);
  };
  for (let round = 0; round < ROUNDS; round++) {
    await note('sort by severity', () => clickToFrame(page, header('severity')));
    await note('sort by alarm (text)', () => clickToFrame(page, header('alarm')));
    await note('sort by time', () => clickToFrame(page, header('raised')));
    await note('filter one severity', () => chooseToFrame(page, 'Severity', 'major'));
    await page.locator('tbody tr').first().waitFor();
    await note('filter every severity', () => chooseToFrame(page, 'Severity', ''));
    await page.locator(`table[aria-rowcount="${ALARMS + 1}"]`).waitFor();
    await note('select all', () => clickToFrame(page, selectAll));
    await page.getByText(`${ALARMS} selected`).waitFor();
    await note('unselect all', () => clickToFrame(page, selectAll));
    await page.getByText('Select alarms to act on several at once.').waitFor();

    // Live: acknowledge the newest alarm elsewhere; time the page from the reloaded list's arrival to its frame.
    const newest = ((await api('GET', '/api/alarm?limit=1&tags=all')) as { alarms: AlarmRef[] }).alarms[0]!;
    await note('live update (reply to frame)', async () => {
      const watch = liveUpdateToFrame(page, newest.alarmId);
      await api('POST', '/api/alarm/acknowledge', {
        userId: 'admin',
        alarmId: newest.alarmId,
        alarmSrc: newest.rawSrc,
      });
      return watch;
    });
    await api('POST', '/api/alarm/unacknowledge', {
      userId: 'admin',
      alarmId: newest.alarmId,
      alarmSrc: newest.rawSrc,
    });
    // A CSS query, not a role locator: those walk the accessibility of all 1,000 rows on each poll.
    await page.evaluate(`(async () => {
      const id = ${JSON.stringify(newest.alarmId)};
      while (![...document.querySelectorAll('tbody tr')].some((r) =>
        r.querySelector('th')?.textContent === id && r.querySelector('button.primary')?.textContent === 'Acknowledge'))
        await new Promise((resolve) => setTimeout(resolve, 20));
    })()`);
  }
  const longestTask = await page.evaluate<number>('window.longestTask');
  const drawn = await page.locator('tbody tr[aria-rowindex]').count();

  console.log(
    `Alarm page, ${ALARMS} alarms on one page, Chromium 1280×800, ${ROUNDS} rounds: ms from the input to the ` +
      `painted frame (wall), and the page's main-thread CPU time for it (traced)`,
  );
  printTable(
    ['update', 'median ms', 'worst ms', 'CPU median ms', 'CPU worst ms'],
    Object.entries(times).map(([name, { wall, cpu }]) => {
      const w = [...wall].sort((a, b) => a - b);
      const c = [...cpu].sort((a, b) => a - b);
      return [name, median(w), w.at(-1) ?? 0, median(c), c.at(-1) ?? 0];
    }),
  );
  console.log(`longest task: ${longestTask.toFixed(0)} ms; rows drawn at the end: ${drawn} of ${ALARMS}`);
  if (errors.length > 0) console.log(`page errors: ${errors.join('; ')}`);
} finally {
  await browser.close();
  await server.close();
  await rm(dataDir, { recursive: true, force: true });
}

interface AlarmRef {
  readonly alarmId: string;
  readonly rawSrc: string;
}
