/**
 * One received MQTT message as the driver reads it. The payload is decoded once, on first use,
 * however many devices and topic entries read it: JSON when it parses, else its UTF-8 text.
 */
import { errorMessage, isObject } from '@triad/common';

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
  #jsonError: string | undefined;
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

  /** Set when the payload looks like a JSON object or array but does not parse. */
  get jsonError(): string | undefined {
    this.#decode();
    return this.#jsonError;
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
    const text = this.#raw.toString('utf8');
    try {
      this.#payload = JSON.parse(text) as unknown;
    } catch (error) {
      this.#payload = text;
      const start = text.trimStart()[0];
      if (start === '{' || start === '[')
        this.#jsonError = `the payload on ${this.topic} is not valid JSON: ${errorMessage(error)}`;
    }
  }
}
