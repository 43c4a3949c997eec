/**
 * SNMP datapoint reads per second with many devices polling a real snmpd every 5 s (issue 15;
 * aim: 10,000 values/s sustained with 1,000 devices), CPU per value and memory per device. Every
 * device is a DeviceCollector with its own SNMP session (UDP socket) against the one local agent,
 * reading the same 50 scalars (system group and two ifTable rows: two GET PDUs of 25 varbinds) in
 * the 5 s polling group, through the value pipeline. Devices start spread over the first period,
 * as a service's devices would be. After one warm-up period the values read, the pipeline's
 * output, the read latency, our CPU time and snmpd's are measured over BENCH_SNMP_SECONDS.
 * Run: `npm run bench -- snmp` (needs /usr/sbin/snmpd; about 45 s).
 * Env: BENCH_SNMP_DEVICES (1000), BENCH_SNMP_SECONDS (30), BENCH_SNMP_VERSION (2, or 3 for
 * authPriv SHA/AES), BENCH_SNMP_CONCURRENCY (the collector's shared read limit, 64).
 */
import { existsSync } from 'node:fs';
import { compileTemplatePipeline } from '@triad/device-templates';
import { DeviceCollector, DriverRegistry, Limiter, prepareDevice } from '@triad/device-drivers';
// Not exported by the package yet: the lead wires the driver into the default registry.
import { snmpDriver } from '../packages/device-drivers/src/drivers/snmp/snmp-driver.js';
import { SNMPD, SNMPD_V3, startSnmpd } from '../packages/device-drivers/src/test-support/snmpd-server.js';
import { mapSet, snmpPoint, snmpTemplate } from '../packages/device-drivers/src/test-support/snmp-templates.js';
import { cpuSeconds, percentile, printTable } from './bench-utils.js';
import { countingDriver, noCounts } from './counting-driver.js';

const DEVICES = Number(process.env['BENCH_SNMP_DEVICES'] ?? 1_000);
const SECONDS = Number(process.env['BENCH_SNMP_SECONDS'] ?? 30);
const VERSION = Number(process.env['BENCH_SNMP_VERSION'] ?? 2);
const CONCURRENCY = Number(process.env['BENCH_SNMP_CONCURRENCY'] ?? 64);
const PERIOD_MS = 5_000;
const gc = () => (globalThis as { gc?: () => void }).gc?.();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The system group (no sysServices on Net-SNMP), sysORTable row 1, ifNumber, 20 ifTable columns of ifIndex 1 and 2. */
function points() {
  const system = [1, 2, 3, 4, 5, 6, 8].map((n) =>
    snmpPoint(`sys${n}`, `1.3.6.1.2.1.1.${n}.0`, n === 3 || n === 8 ? 'LONG' : 'STRING'),
  );
  const columns = [...Array(22).keys()].map((i) => i + 1).filter((c) => c !== 22 && c !== 12);
  const interfaces = [1, 2].flatMap((row) =>
    columns.map((c) =>
      snmpPoint(`if${c}_${row}`, `1.3.6.1.2.1.2.2.1.${c}.${row}`, c === 2 || c === 6 ? 'STRING' : 'LONG'),
    ),
  );
  const more = [
    snmpPoint('ifNumber', '1.3.6.1.2.1.2.1.0', 'LONG'),
    snmpPoint('sysORID1', '1.3.6.1.2.1.1.9.1.2.1', 'STRING'),
    snmpPoint('sysORDescr1', '1.3.6.1.2.1.1.9.1.3.1', 'STRING'),
  ];
  return [...system, ...interfaces, ...more].slice(0, 50);
}

/** CPU seconds (user + system) a process has used, from /proc. */
function processCpuSeconds(pid: number | undefined): number {
  return pid === undefined || !existsSync(`/proc/${pid}/stat`) ? NaN : cpuSeconds(pid);
}

async function main(): Promise<void> {
  if (!existsSync(SNMPD)) {
    console.log(`skipped: ${SNMPD} not found (apt-get install snmpd snmp)`);
    return;
  }
  const agent = await startSnmpd();
  const template = snmpTemplate([mapSet('device', points())]);
  const settings =
    VERSION === 3
      ? { basicConfig: { port: agent.port, version: 3, timeout: 2000, retries: 1 }, snmpV3Security: SNMPD_V3 }
      : { basicConfig: { port: agent.port, version: 2, timeout: 2000, retries: 1 } };

  // Counts what the driver reads and how long each read takes.
  const counts = noCounts();
  const timed = countingDriver(snmpDriver, counts);
  const registry = new DriverRegistry([timed]);
  const pipeline = compileTemplatePipeline(template);
  const limiter = new Limiter(CONCURRENCY);
  let emitted = 0;
  let down = 0;

  gc();
  const heapBefore = process.memoryUsage();
  const collectors: DeviceCollector[] = [];
  for (let i = 0; i < DEVICES; i++) {
    const prepared = prepareDevice(
      template,
      { variables: { ICMP_IPAddress: '127.0.0.1' }, drivers: { 'svc-ds-drv-snmp': settings } },
      registry,
    );
    if (prepared.problems.length > 0) throw new Error(JSON.stringify(prepared.problems));
    collectors.push(
      new DeviceCollector({
        pipeline,
        drivers: prepared.drivers,
        origin: `device-${i}`,
        registry,
        limiter,
        sink: {
          output: (values) => (emitted += values.length),
          state: (state) => {
            if (state === 'down') down++;
          },
        },
      }),
    );
  }
  // Spread the starts over one period; each device then keeps its own phase.
  const started = performance.now();
  for (const [i, collector] of collectors.entries()) {
    const due = (i * PERIOD_MS) / DEVICES - (performance.now() - started);
    if (due > 1) await sleep(due);
    collector.start();
  }
  await sleep(PERIOD_MS);
  gc();
  const heapAfter = process.memoryUsage();

  Object.assign(counts, noCounts());
  emitted = down = 0;
  const cpuBefore = process.cpuUsage();
  const agentCpuBefore = processCpuSeconds(agent.pid());
  const measureStart = performance.now();
  await sleep(SECONDS * 1000);
  const elapsedS = (performance.now() - measureStart) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const agentCpu = processCpuSeconds(agent.pid()) - agentCpuBefore;
  const measured = { ...counts, emitted, down, latencies: [...counts.latencies].sort((a, b) => a - b) };
  const reads = measured.latencies.length;
  await Promise.all(collectors.map((collector) => collector.stop()));
  await agent.close();

  const cpuS = (cpu.user + cpu.system) / 1e6;
  const version = VERSION === 3 ? 'v3 authPriv' : 'v2c';
  console.log(
    `${DEVICES} devices x ${points().length} scalars every ${PERIOD_MS / 1000} s, SNMP ${version}, ` +
      `read limit ${CONCURRENCY}, measured ${elapsedS.toFixed(1)} s after a ${PERIOD_MS / 1000} s warm-up`,
  );
  printTable(
    ['measure', 'value'],
    [
      ['values read / s', Math.round(measured.valuesRead / elapsedS)],
      ['  of them not good', measured.notGood],
      ['reads (polls) / s', reads / elapsedS],
      ['failed reads', measured.failedReads],
      ['devices turned down', measured.down],
      ['pipeline values out / s', Math.round(measured.emitted / elapsedS)],
      ['read latency p50 ms', reads > 0 ? percentile(measured.latencies, 50) : NaN],
      ['read latency p99 ms', reads > 0 ? percentile(measured.latencies, 99) : NaN],
      ['our CPU % of one core', (cpuS / elapsedS) * 100],
      ['our CPU µs per value', measured.valuesRead > 0 ? (cpuS / measured.valuesRead) * 1e6 : NaN],
      ['snmpd CPU % of one core', (agentCpu / elapsedS) * 100],
      ['heap KiB per device', (heapAfter.heapUsed - heapBefore.heapUsed) / 1024 / DEVICES],
      ['RSS KiB per device', (heapAfter.rss - heapBefore.rss) / 1024 / DEVICES],
    ],
  );
}

await main();
