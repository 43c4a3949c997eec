/** A node as `GET /api/topo/node` lists it (the fields the console shows). */
export interface NodeWire {
  readonly id: string;
  readonly name: string;
  readonly node_family_id: string;
  /** `UP`, `DOWN` or `STOPPED`. */
  readonly state: string;
  readonly otp_release: string | null;
  readonly uptime_ms: number | null;
}

/** A node family as `GET /api/topo/node-family` lists it. */
export interface FamilyWire {
  readonly id: string;
  readonly name: string;
}

/** An alarm as the alarm lists give it. */
export interface AlarmWire {
  readonly alarmId: string;
  readonly src: { readonly nodeId: string; readonly nodeName: string; readonly custom: string };
  readonly eventTime: number;
  readonly eventId: string;
  readonly severity: string;
  /** `new` or `acknowledged`. */
  readonly state: string;
  readonly additionalInformation: string;
  readonly comments: readonly { readonly user: string; readonly time: number; readonly text: string }[];
  readonly rawSrc: string;
}

/** `3 d 4 h`, `5 h 12 min`, `42 s`: an uptime a person reads at a glance. */
export function formatUptime(ms: number | null): string {
  if (ms === null) return '—';
  const s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d > 0) return `${d} d ${h} h`;
  if (h > 0) return `${h} h ${m} min`;
  if (m > 0) return `${m} min`;
  return `${s} s`;
}

/** A node as `GET /api/topo/node/{id}` gives it, with the facts the node page shows. */
export interface NodeDetailWire extends NodeWire {
  readonly erts_version: string | null;
  readonly process_count: number | null;
  /** Bytes. */
  readonly total_memory: number | null;
}

/** `GET /api/topo/node/{id}/info`: the node and the applications it runs. */
export interface NodeInfoWire {
  readonly node: NodeDetailWire;
  readonly applications: readonly { readonly name: string; readonly description: string; readonly version: string }[];
}

/** A log entry as `GET /api/logs/node/{id}` lists it; `time` in ms since the epoch. */
export interface NodeLogWire {
  readonly time: number;
  readonly level: string;
  readonly kind: string;
  readonly text: string;
}
