/** What one run of the system `ping` (iputils) reported. */
export interface PingSummary {
  readonly transmitted: number;
  readonly received: number;
  /** Milliseconds; null when nothing came back. */
  readonly rttMin: number | null;
  readonly rttAvg: number | null;
  readonly rttMax: number | null;
}

/**
 * Reads the summary lines of iputils `ping -n` output:
 * `4 packets transmitted, 4 received, 0% packet loss, time 3004ms` and
 * `rtt min/avg/max/mdev = 0.036/0.144/0.252/0.108 ms`. Returns undefined when there is no summary.
 */
export function parsePingOutput(text: string): PingSummary | undefined {
  const counts = /(\d+) packets transmitted, (\d+) (?:packets )?received/.exec(text);
  if (counts === null) return undefined;
  const rtt = /= ([\d.]+)\/([\d.]+)\/([\d.]+)\//.exec(text);
  return {
    transmitted: Number(counts[1]),
    received: Number(counts[2]),
    rttMin: rtt === null ? null : Number(rtt[1]),
    rttAvg: rtt === null ? null : Number(rtt[2]),
    rttMax: rtt === null ? null : Number(rtt[3]),
  };
}
