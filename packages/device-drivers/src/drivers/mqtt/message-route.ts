/**
 * The devices that read one topic entry (topic name and origin strategy) on a connection. A
 * message is matched and its origin found once per route, then handed to the devices with that
 * origin (a map lookup): a thousand devices of one template cost one origin lookup per message.
 * Strategies that read only the topic answer from a per-topic cache.
 */
import type { MqttMessage } from './mqtt-message.js';
import type { TopicEntry } from './mqtt-settings.js';
import { EVERY_DEVICE } from './origin-strategy.js';
import { topicMatches } from './topic-filter.js';

/** One topic entry of one device. */
export interface RouteBinding {
  readonly entry: TopicEntry;
  /** The device's origin. */
  readonly origin: string;
  handle(message: MqttMessage): void;
}

// About 100 bytes each: a cache of every topic of 100,000 devices stays near 10 MB.
const MAX_CACHED_TOPICS = 100_000;

/** The devices that read one topic entry, and the per-topic answers of its origin strategy. */
export class MessageRoute {
  readonly entry: TopicEntry;
  // Arrays, replaced (never changed) on add and remove: a delivery walks one without an iterator,
  // and a device added or removed while a message is handed over does not change that walk.
  readonly #byOrigin = new Map<string, readonly RouteBinding[]>();
  // Per topic: whether it matches, and the origin when the strategy reads only the topic.
  readonly #cache = new Map<string, { matches: boolean; origin: string | typeof EVERY_DEVICE | undefined }>();

  constructor(entry: TopicEntry) {
    this.entry = entry;
  }

  /** Routes of equal topic entries are one route. */
  static keyOf(entry: TopicEntry): string {
    return `${entry.subscribeFilter}\n${entry.strategy.key}`;
  }

  /** The topic all of an entry's messages have when its topic name is a plain one (no wildcard, no expression). */
  static exactTopicOf(entry: TopicEntry): string | undefined {
    const { pattern, topicName } = entry;
    return pattern === undefined && !/[+#]/.test(topicName) && !topicName.startsWith('$share/') ? topicName : undefined;
  }

  get empty(): boolean {
    return this.#byOrigin.size === 0;
  }

  add(binding: RouteBinding): void {
    const bindings = this.#byOrigin.get(binding.origin) ?? [];
    if (!bindings.includes(binding)) this.#byOrigin.set(binding.origin, [...bindings, binding]);
  }

  remove(binding: RouteBinding): void {
    const bindings = this.#byOrigin.get(binding.origin);
    if (bindings === undefined || !bindings.includes(binding)) return;
    const rest = bindings.filter((b) => b !== binding);
    if (rest.length === 0) this.#byOrigin.delete(binding.origin);
    else this.#byOrigin.set(binding.origin, rest);
  }

  deliver(message: MqttMessage): void {
    const origin = this.#originOf(message);
    if (origin === undefined) return;
    if (origin === EVERY_DEVICE) {
      for (const bindings of this.#byOrigin.values())
        for (let i = 0; i < bindings.length; i++) bindings[i]!.handle(message);
      return;
    }
    const bindings = this.#byOrigin.get(origin);
    if (bindings !== undefined) for (let i = 0; i < bindings.length; i++) bindings[i]!.handle(message);
  }

  #originOf(message: MqttMessage): string | typeof EVERY_DEVICE | undefined {
    const { strategy } = this.entry;
    let known = this.#cache.get(message.topic);
    if (known === undefined) {
      const matches = this.#matches(message.topic);
      known = { matches, origin: matches && strategy.topicOnly ? strategy.originOf(message) : undefined };
      if (this.#cache.size >= MAX_CACHED_TOPICS) this.#cache.clear();
      this.#cache.set(message.topic, known);
    }
    if (!known.matches) return undefined;
    return strategy.topicOnly ? known.origin : strategy.originOf(message);
  }

  #matches(topic: string): boolean {
    const { pattern, topicName } = this.entry;
    return pattern !== undefined ? pattern.test(topic) : topicMatches(topicName, topic);
  }
}
