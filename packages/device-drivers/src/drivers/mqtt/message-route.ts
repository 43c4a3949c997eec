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
  readonly #byOrigin = new Map<string, Set<RouteBinding>>();
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
    let bindings = this.#byOrigin.get(binding.origin);
    if (bindings === undefined) this.#byOrigin.set(binding.origin, (bindings = new Set()));
    bindings.add(binding);
  }

  remove(binding: RouteBinding): void {
    const bindings = this.#byOrigin.get(binding.origin);
    bindings?.delete(binding);
    if (bindings?.size === 0) this.#byOrigin.delete(binding.origin);
  }

  deliver(message: MqttMessage): void {
    const origin = this.#originOf(message);
    if (origin === undefined) return;
    if (origin === EVERY_DEVICE) {
      for (const bindings of this.#byOrigin.values()) for (const binding of bindings) binding.handle(message);
      return;
    }
    const bindings = this.#byOrigin.get(origin);
    if (bindings !== undefined) for (const binding of bindings) binding.handle(message);
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
