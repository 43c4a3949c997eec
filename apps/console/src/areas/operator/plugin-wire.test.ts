import { describe, expect, expectTypeOf, it } from 'vitest';
import type { paths } from '../../generated/node-manager-api.js';
import type { ReplyBody } from '../../shell/api-types.js';
import { parsePlugin, parsePlugins, type PluginWire } from './plugin-wire.js';

describe('parsePlugin', () => {
  it('reads the three single-key objects', () => {
    expect(
      parsePlugin([{ plugin_name: 'wombat_plugin_sasl' }, { plugin_apps: 'sasl' }, { plugin_state: 'on' }]),
    ).toEqual({ name: 'wombat_plugin_sasl', apps: 'sasl', on: true });
  });
  it('reads any order, a missing apps as empty and any state but on as off', () => {
    expect(parsePlugin([{ plugin_state: 'off' }, { plugin_name: 'x' }])).toEqual({ name: 'x', apps: '', on: false });
    expect(parsePlugin([{ plugin_name: 'x' }, { plugin_state: 'ON' }])?.on).toBe(false);
  });
  it('refuses a plugin without a name', () => {
    expect(parsePlugin([{ plugin_apps: 'sasl' }, { plugin_state: 'on' }])).toBeUndefined();
    expect(parsePlugin([{ plugin_name: 42 }])).toBeUndefined();
  });
});

describe('parsePlugins', () => {
  it('drops malformed plugins and sorts by name', () => {
    const wires = [[{ plugin_name: 'b' }], [{ plugin_apps: 'x' }], [{ plugin_name: 'a' }]];
    expect(parsePlugins(wires).map((p) => p.name)).toEqual(['a', 'b']);
  });
});

describe('PluginWire', () => {
  it('takes every plugin the node manager lists', () => {
    type Listed = NonNullable<ReplyBody<paths['/api/plugins/node/{node_id}/plugin']['get']>['plugins']>[number];
    expectTypeOf<Listed>().not.toBeNever();
    expectTypeOf<Listed>().toExtend<PluginWire>();
  });
});
