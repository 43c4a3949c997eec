/**
 * A plugin as the node manager sends it: three single-key objects,
 * `[{plugin_name}, {plugin_apps}, {plugin_state}]`. Looser on purpose than the generated type of
 * `GET /api/plugins/node/{id}/plugin` (which is assignable to it, as plugin-wire.test.ts checks):
 * `parsePlugin` trusts no member.
 */
export type PluginWire = readonly Readonly<Record<string, unknown>>[];

/** A plugin as the console shows it. */
export interface NodePlugin {
  readonly name: string;
  readonly apps: string;
  readonly on: boolean;
}

/**
 * Reads a plugin's three single-key objects in any order. Returns undefined when it has no
 * string `plugin_name`; a missing `plugin_apps` reads as `''`, any state other than `on` as off.
 */
export function parsePlugin(wire: PluginWire): NodePlugin | undefined {
  const fields = new Map<string, unknown>(wire.flatMap((entry) => Object.entries(entry)));
  const name = fields.get('plugin_name');
  if (typeof name !== 'string' || name === '') return undefined;
  const apps = fields.get('plugin_apps');
  return { name, apps: typeof apps === 'string' ? apps : '', on: fields.get('plugin_state') === 'on' };
}

/** Every well-formed plugin of a `{plugins: [...]}` reply, sorted by name. */
export function parsePlugins(wires: readonly PluginWire[]): NodePlugin[] {
  return wires
    .map(parsePlugin)
    .filter((plugin): plugin is NodePlugin => plugin !== undefined)
    .sort((a, b) => a.name.localeCompare(b.name));
}
