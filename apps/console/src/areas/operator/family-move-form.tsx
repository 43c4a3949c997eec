import { useEffect, useState } from 'preact/hooks';
import { ErrorAlert, errorMessage } from '../../shell/error-alert.js';
import type { FamilyWire } from './node-wire.js';
import type { OperatorClient } from './operator-client.js';

/**
 * Moves a node to another family (`POST /api/topo/action/move-node`): a "Move to family" select
 * of every family (the node's own first chosen) and a "Move" button. The service answers
 * `{success: false, reason}` with 200 when it refuses; that shows as an alert. `onMoved` runs
 * after a move the service accepted.
 */
export function FamilyMoveForm(props: {
  readonly client: OperatorClient;
  readonly nodeId: string;
  readonly nodeName: string;
  readonly familyId: string;
  readonly onMoved: () => void;
}) {
  const { client, nodeId, nodeName, familyId, onMoved } = props;
  const [families, setFamilies] = useState<readonly FamilyWire[] | undefined>();
  const [target, setTarget] = useState(familyId);
  const [status, setStatus] = useState('');
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    client
      .get<FamilyWire[]>('/api/topo/node-family')
      .then((list) => setFamilies([...list].sort((a, b) => a.name.localeCompare(b.name))))
      .catch((reason: unknown) => setError(errorMessage(reason)));
  }, [client]);
  useEffect(() => setTarget(familyId), [familyId]);
  const submit = (event: Event) => {
    event.preventDefault();
    const name = families?.find((f) => f.id === target)?.name ?? target;
    setError(undefined);
    setStatus('');
    client
      .post<{ success: boolean; reason?: string }>('/api/topo/action/move-node', { node: nodeId, family: target })
      .then((reply) => {
        if (!reply.success) throw new Error(`The node manager refused the move: ${reply.reason ?? 'no reason given'}.`);
        setStatus(`Moved ${nodeName} to ${name}.`);
        onMoved();
      })
      .catch((reason: unknown) => setError(errorMessage(reason)));
  };
  if (families === undefined)
    return error ? (
      <p role="alert" class="error">
        {error}
      </p>
    ) : null;
  return (
    <form class="inline-form" onSubmit={submit} aria-label="Move to another family">
      <label>
        Move to family
        <select value={target} onChange={(e) => setTarget(e.currentTarget.value)}>
          {families.map((f) => (
            <option key={f.id} value={f.id}>
              {f.name}
              {f.id === familyId ? ' (current)' : ''}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" class="primary" disabled={target === familyId}>
        Move
      </button>
      <p role="status">{status}</p>
      <ErrorAlert message={error} />
    </form>
  );
}
