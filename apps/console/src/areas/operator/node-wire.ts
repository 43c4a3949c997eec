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
