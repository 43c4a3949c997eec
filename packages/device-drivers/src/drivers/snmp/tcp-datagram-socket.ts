/**
 * SNMP over TCP (RFC 3430) behind the `dgram` socket interface net-snmp's sessions use
 * (`dgramModule`): each `send` writes one message to a TCP connection opened on the first send,
 * and each BER message read back from the stream (framed by its own length) is a `message` event.
 * When the connection ends or fails the socket emits `close`, which fails the session's pending
 * requests; the SNMP client then opens a new session (a new connection) for the next read.
 */
import { EventEmitter } from 'node:events';
import { connect, type Socket } from 'node:net';

/** Largest SNMP message accepted from the stream; a longer length prefix ends the connection. */
export const MAX_TCP_MESSAGE_BYTES = 1024 * 1024; // 1 MiB

type SendCallback = (error: Error | null, bytes?: number) => void;

/** The dgram socket methods net-snmp's Session calls. */
export class TcpDatagramSocket extends EventEmitter {
  readonly #connectTimeoutMs: number;
  #socket: Socket | undefined;
  #connected = false;
  #closed = false;
  #referenced = false;
  #pending: { buffer: Buffer; callback: SendCallback }[] = [];
  #received: Buffer = Buffer.alloc(0);

  constructor(connectTimeoutMs: number) {
    super();
    this.#connectTimeoutMs = connectTimeoutMs;
  }

  send(buffer: Buffer, offset: number, length: number, port: number, address: string, callback: SendCallback): void {
    const message = buffer.subarray(offset, offset + length);
    if (this.#closed) {
      callback(new Error('the TCP connection to the agent is closed'));
      return;
    }
    if (this.#connected && this.#socket !== undefined) {
      this.#socket.write(message, (error) => callback(error ?? null, length));
      return;
    }
    this.#pending.push({ buffer: message, callback });
    if (this.#socket === undefined) this.#open(port, address);
  }

  bind(): this {
    return this; // a TCP client needs no bound source port
  }

  ref(): this {
    this.#referenced = true;
    this.#socket?.ref();
    return this;
  }

  unref(): this {
    this.#referenced = false;
    this.#socket?.unref();
    return this;
  }

  close(): void {
    this.#end(null);
  }

  #open(port: number, address: string): void {
    const socket = connect({ port, host: address, timeout: this.#connectTimeoutMs });
    this.#socket = socket;
    if (!this.#referenced) socket.unref();
    socket.setNoDelay(true);
    socket.once('connect', () => {
      this.#connected = true;
      socket.setTimeout(0);
      for (const { buffer, callback } of this.#pending.splice(0))
        socket.write(buffer, (error) => callback(error ?? null, buffer.length));
    });
    socket.on('timeout', () => socket.destroy(new Error(`TCP connection to ${address}:${port} timed out`)));
    socket.on('data', (chunk: Buffer) => this.#data(chunk));
    socket.on('error', (error) => this.#end(error));
    socket.on('close', () => this.#end(null));
  }

  #data(chunk: Buffer): void {
    this.#received = this.#received.length === 0 ? chunk : Buffer.concat([this.#received, chunk]);
    for (;;) {
      const size = berMessageSize(this.#received);
      if (size === undefined) return;
      if (size > MAX_TCP_MESSAGE_BYTES || size < 0) {
        this.#end(new Error('the agent sent a message that is not BER or is over 1 MiB'));
        return;
      }
      if (this.#received.length < size) return;
      const message = this.#received.subarray(0, size);
      this.#received = this.#received.subarray(size);
      const remote = this.#socket;
      this.emit('message', message, {
        address: remote?.remoteAddress ?? '',
        family: remote?.remoteFamily ?? 'IPv4',
        port: remote?.remotePort ?? 0,
        size,
      });
    }
  }

  #end(error: Error | null): void {
    if (this.#closed) return;
    this.#closed = true;
    const failure = error ?? new Error('the agent closed the TCP connection');
    for (const { callback } of this.#pending.splice(0)) callback(failure);
    this.#socket?.destroy();
    this.#received = Buffer.alloc(0);
    this.emit('close');
  }
}

/**
 * The size of the BER element at the start of `bytes` (tag, length, contents), `undefined` while
 * its header is incomplete, -1 when the header is not a definite length of at most 4 bytes.
 */
export function berMessageSize(bytes: Buffer): number | undefined {
  if (bytes.length < 2) return undefined;
  const first = bytes[1] ?? 0;
  if (first < 0x80) return 2 + first;
  const count = first & 0x7f;
  if (count === 0 || count > 4) return -1;
  if (bytes.length < 2 + count) return undefined;
  let length = 0;
  for (let i = 0; i < count; i++) length = length * 256 + (bytes[2 + i] ?? 0);
  return 2 + count + length;
}

/** A `dgram`-like module whose sockets are TCP connections, for net-snmp's `dgramModule` option. */
export function tcpDgramModule(connectTimeoutMs: number): { createSocket: () => TcpDatagramSocket } {
  return { createSocket: () => new TcpDatagramSocket(connectTimeoutMs) };
}
