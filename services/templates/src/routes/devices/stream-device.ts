import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DeviceCollection } from '../../instances/device-collection.js';
import type { DeviceStreamItem } from '../../instances/device-listeners.js';
import { presentEvent, type ErrorDetail } from '../../presenters/device-presenter.js';

/** Milliseconds between keep-alive comments. */
const KEEP_ALIVE_MS = 15_000;

/**
 * `GET /devices/{id}/stream`: Server-Sent Events until the client goes away. The current values
 * come first, then every change, as `value` events; alarm, log and state events go under their
 * type with the event id (`id:`) of /events. Works on every instance, whichever collects the device.
 */
export async function streamDevice(
  request: FastifyRequest,
  reply: FastifyReply,
  collection: DeviceCollection,
  id: string,
  detail: ErrorDetail,
): Promise<void> {
  reply.hijack();
  const out = reply.raw;
  out.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  out.write(': stream of device events\n\n');
  const send = (item: DeviceStreamItem) => {
    if (out.destroyed) return;
    if (item.kind === 'end') {
      out.end();
      return;
    }
    if (item.kind === 'values') {
      for (const value of item.values) out.write(`event: value\ndata: ${JSON.stringify(value)}\n\n`);
      return;
    }
    const event = presentEvent(item.event, detail);
    out.write(`id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
  };
  // The current values first, so a new listener starts from the whole picture; what comes while
  // they are fetched (from the owner, maybe another instance) waits until they are sent.
  let waiting: DeviceStreamItem[] | undefined = [];
  const unsubscribe = collection.subscribe(id, (item) => (waiting === undefined ? send(item) : waiting.push(item)));
  const keepAlive = setInterval(() => out.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
  const end = () => {
    clearInterval(keepAlive);
    unsubscribe();
  };
  request.raw.once('close', end);
  out.once('close', end);
  send({ kind: 'values', values: await collection.values(id) });
  for (const item of waiting) send(item);
  waiting = undefined;
}
