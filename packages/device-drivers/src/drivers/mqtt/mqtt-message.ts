/**
 * One received MQTT message as the driver reads it. The payload is decoded once, on first use,
 * however many devices and topic entries read it: JSON when it parses, else its UTF-8 text.
 * Bytes that are not UTF-8 are refused (`problem`), never decoded lossily: the template format
 * has no field to declare another encoding (decision 0045).
 */
import { errorMessage, isObject } from '@triad/common';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The MQTT 5 publish properties the driver reads. */
export interface PublishProperties {
  readonly userProperties?: Readonly<Record<string, string | string[]>>;
}

/** A received message: topic, arrival time, QoS, retain flag, MQTT 5 properties, lazily decoded payload. */
export class MqttMessage {
  readonly topic: string;
  /** Epoch milliseconds at which the message arrived. */
  readonly receivedAt: number;
  readonly qos: number;
  readonly retain: boolean;
  readonly #raw: Buffer;
  readonly #properties: PublishProperties | undefined;
  #decoded = false;
  #payload: unknown;
  #problem: string | undefined;
  #document: Readonly<Record<string, unknown>> | undefined;

  constructor(
    topic: string,
    raw: Buffer,
    options: { receivedAt: number; qos?: number; retain?: boolean; properties?: PublishProperties },
  ) {
    this.topic = topic;
    this.#raw = raw;
    this.receivedAt = options.receivedAt;
    this.qos = options.qos ?? 0;
    this.retain = options.retain ?? false;
    this.#properties = options.properties;
  }

  /** The payload: the parsed JSON value, or the text when it is not JSON. */
  get payload(): unknown {
    this.#decode();
    return this.#payload;
  }

  /** True for a zero-length payload: the usual "delete the retained message", which carries no value. */
  get empty(): boolean {
    return this.#raw.length === 0;
  }

  /**
   * Why the payload cannot be read, in words naming the topic: bytes that are not UTF-8 text, or
   * text that looks like a JSON object or array but does not parse. Undefined when it can.
   */
  get problem(): string | undefined {
    this.#decode();
    return this.#problem;
  }

  /**
   * What `extract` dot paths and `transform` JSONPaths address: `payload`, `topic`, `qos`,
   * `retain`, `receivedAt` and `userProperties` (MQTT 5, `{}` without).
   */
  get document(): Readonly<Record<string, unknown>> {
    this.#document ??= {
      payload: this.payload,
      topic: this.topic,
      qos: this.qos,
      retain: this.retain,
      receivedAt: this.receivedAt,
      userProperties: this.#properties?.userProperties ?? {},
    };
    return this.#document;
  }

  /** An MQTT 5 user property (the first value when it is repeated). */
  userProperty(name: string): string | undefined {
    const value = this.#properties?.userProperties?.[name];
    return Array.isArray(value) ? value[0] : value;
  }

  /** A top-level field of a JSON object payload. */
  payloadField(name: string): unknown {
    const payload = this.payload;
    return isObject(payload) && Object.hasOwn(payload, name) ? payload[name] : undefined;
  }

  #decode(): void {
    if (this.#decoded) return;
    this.#decoded = true;
    let text: string;
    try {
      text = utf8.decode(this.#raw);
    } catch {
      this.#payload = null;
      this.#problem =
        `the payload on ${this.topic} (${this.#raw.length} bytes) is not UTF-8 text; ` +
        'publish UTF-8 text or JSON (binary payloads are not read)';
      return;
    }
    try {
      this.#payload = JSON.parse(text) as unknown;
    } catch (error) {
      this.#payload = text;
      const start = text.trimStart()[0];
      if (start === '{' || start === '[')
        this.#problem = `the payload on ${this.topic} is not valid JSON: ${errorMessage(error)}`;
    }
  }
}
