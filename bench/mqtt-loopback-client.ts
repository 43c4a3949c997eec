import { EventEmitter } from 'node:events';
import type { MqttClientLike } from '../packages/device-drivers/src/drivers/mqtt/mqtt-connection.js';

/**
 * An MQTT client without a broker for the MQTT benches: connects at once and grants every
 * subscription; a bench feeds it messages with `emit('message', topic, payload, packet)`.
 */
export class LoopbackClient extends EventEmitter implements MqttClientLike {
  constructor() {
    super();
    setImmediate(() => this.emit('connect'));
  }
  subscribe(_topic: string, _options: unknown, callback: (error: null, granted: { qos: number }[]) => void): this {
    setImmediate(() => callback(null, [{ qos: 0 }]));
    return this;
  }
  unsubscribe(_topic: string, callback: () => void): this {
    setImmediate(callback);
    return this;
  }
  reconnect(): this {
    return this;
  }
  end(_force: boolean, callback: () => void): this {
    setImmediate(callback);
    return this;
  }
}
