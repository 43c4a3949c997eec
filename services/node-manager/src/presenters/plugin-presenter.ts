import type { PluginRecord } from '../model/plugin-record.js';

/** A plugin as the API shows it: `[{plugin_name}, {plugin_apps}, {plugin_state}]`. */
export type PluginReply = [{ plugin_name: string }, { plugin_apps: string }, { plugin_state: 'on' | 'off' }];

/** A plugin as WombatOAM shows it: a proplist of three single-key objects. */
export function presentPlugin(plugin: PluginRecord): PluginReply {
  return [{ plugin_name: plugin.name }, { plugin_apps: plugin.apps }, { plugin_state: plugin.state }];
}

/** The schema of `presentPlugin`'s output (OpenAPI). */
export const pluginSchema = {
  type: 'array',
  description: '[{plugin_name}, {plugin_apps}, {plugin_state}]',
  items: {
    type: 'object',
    properties: {
      plugin_name: { type: 'string' },
      plugin_apps: { type: 'string' },
      plugin_state: { type: 'string', enum: ['on', 'off'] },
    },
  },
} as const;
