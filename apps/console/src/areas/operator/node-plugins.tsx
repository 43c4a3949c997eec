import { useCallback, useEffect, useState } from 'preact/hooks';
import { errorMessage } from '../../shell/error-alert.js';
import type { OperatorClient } from './operator-client.js';
import { parsePlugin, parsePlugins, type NodePlugin, type PluginWire } from './plugin-wire.js';

/**
 * A node's plugins (`/api/plugins/node/<id>/plugin`), each an on/off switch named after the
 * plugin. Switching sends `PUT .../plugin/<name>` and shows the state the service answers; an
 * error (a guest lacks the write right) shows in an alert region and the switch stays as it was.
 */
export function NodePlugins(props: { readonly client: OperatorClient; readonly nodeId: string }) {
  const { client } = props;
  const base = `/api/plugins/node/${encodeURIComponent(props.nodeId)}/plugin`;
  const [plugins, setPlugins] = useState<readonly NodePlugin[] | undefined>();
  const [busy, setBusy] = useState<string | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [status, setStatus] = useState<string | undefined>();
  useEffect(() => {
    client
      .get<{ plugins: PluginWire[] }>(base)
      .then((reply) => setPlugins(parsePlugins(reply.plugins)))
      .catch((failure: unknown) => setError(errorMessage(failure)));
  }, [client, base]);
  const toggle = useCallback(
    (plugin: NodePlugin) => {
      setBusy(plugin.name);
      setError(undefined);
      client
        .put<PluginWire>(`${base}/${encodeURIComponent(plugin.name)}`, { plugin_state: plugin.on ? 'off' : 'on' })
        .then((reply) => {
          const switched = parsePlugin(reply);
          if (switched === undefined) throw new Error(`The service answered no plugin for ${plugin.name}.`);
          setPlugins((list) => list?.map((p) => (p.name === switched.name ? switched : p)));
          setStatus(`${switched.name} is ${switched.on ? 'on' : 'off'}.`);
        })
        .catch((failure: unknown) => setError(errorMessage(failure)))
        .finally(() => setBusy(undefined));
    },
    [client, base],
  );
  return (
    <section aria-labelledby="node-plugins">
      <h2 id="node-plugins">Plugins</h2>
      <div role="alert" class="error">
        {error}
      </div>
      <p role="status">{status}</p>
      {plugins === undefined ? (
        error ? null : (
          <p>Loading…</p>
        )
      ) : plugins.length === 0 ? (
        <p>No plugins.</p>
      ) : (
        <ul class="plugins">
          {plugins.map((plugin) => (
            <li key={plugin.name}>
              <button
                type="button"
                role="switch"
                aria-checked={plugin.on}
                aria-label={plugin.name}
                class={plugin.on ? 'primary' : undefined}
                disabled={busy === plugin.name}
                onClick={() => toggle(plugin)}
              >
                {plugin.on ? 'On' : 'Off'}
              </button>{' '}
              {plugin.name}
              {plugin.apps ? ` (${plugin.apps})` : ''}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
