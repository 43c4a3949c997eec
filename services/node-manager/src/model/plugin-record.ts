/** One plugin of a node. */
export interface PluginRecord {
  readonly name: string;
  readonly apps: string;
  readonly state: 'on' | 'off';
}
