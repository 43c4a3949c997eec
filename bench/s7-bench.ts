/**
 * S7 values per second through the S7 driver from snap7's server (node-snap7's `S7Server` in a
 * child process on 127.0.0.1), and the read requests each poll takes: each case polls one
 * request of REALs back to back for 3 s on each of its devices at once (one connection each).
 * Our process's CPU only; the server shares the machine.
 * Run: `npm run bench -- s7` (needs a built node-snap7; < 30 s).
 */
import type { PointRequest, PollingDriver } from '../packages/device-drivers/src/driver.js';
// createS7Driver (a driver with our own node-snap7 clients) is not part of the package's exports.
import { createS7Driver } from '../packages/device-drivers/src/drivers/s7/s7-driver.js';
import { loadSnap7 } from '../packages/device-drivers/src/drivers/s7/snap7-client.js';
import { countingSnap7Clients } from '../packages/device-drivers/src/test-support/counting-snap7-client.js';
import { S7TestServer } from '../packages/device-drivers/src/test-support/s7-server.js';
import { printTable } from './bench-utils.js';

const SECONDS = 3;
/** [values, bytes between them, devices polling at once] */
const CASES: [number, number, number][] = [
  [2, 8, 1],
  [100, 8, 1],
  [100, 8, 4],
  [100, 8, 16],
  [496, 4, 4],
];

if (loadSnap7() instanceof Error) {
  console.log('skipped: node-snap7 does not load (npm install node-snap7, needs a C++ compiler)');
  process.exit(0);
}

const server = await S7TestServer.start({ db: { 1: Buffer.alloc(2000) } });
const counter = countingSnap7Clients();
const factory = createS7Driver(counter.newClient);

const rows: (string | number)[][] = [];
try {
  for (const [values, spacing, devices] of CASES) {
    const points: PointRequest[] = Array.from({ length: values }, (_, i) => ({
      datapointSetId: 'bench',
      datapointId: `p${i}`,
      originAddress: `DB1.DBD${i * spacing}`,
      originDataType: 'REAL',
      dataType: 'DOUBLE',
      receiveMode: 'polling',
      pollingGroup: '5s',
    }));
    const request = { points, tables: [] };
    const config = { s7basicConfig: { address: '127.0.0.1' }, s7extraConfig: { port: server.port } };
    const drivers = Array.from({ length: devices }, () => factory.create({ config, origin: 'bench' }) as PollingDriver);
    await Promise.all(drivers.map((driver) => driver.read(request, AbortSignal.timeout(5_000))));
    counter.requests = 0;
    let polls = 0;
    const cpu = process.cpuUsage();
    const started = performance.now();
    const until = started + SECONDS * 1000;
    await Promise.all(
      drivers.map(async (driver) => {
        while (performance.now() < until) {
          const result = await driver.read(request, AbortSignal.timeout(5_000));
          if (result.updates.some((u) => 'quality' in u && u.quality !== 'good')) throw new Error('a bad value');
          polls += 1;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    await Promise.all(drivers.map((driver) => driver.close()));
    const perValue = (used.user + used.system) / (polls * values);
    const rates = [values, devices, counter.requests / polls, polls / seconds, (polls * values) / seconds];
    rows.push([...rates.map((n) => Math.round(n).toLocaleString('en')), perValue.toFixed(1)]);
  }
} finally {
  await server.stop();
}
printTable(['values per poll', 'devices', 'requests per poll', 'polls/s', 'values/s', 'CPU µs per value'], rows);
