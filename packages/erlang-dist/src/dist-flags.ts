/** Distribution capability flags (reference §3; values from dist.h / dist.hrl). */
export const DistFlag = Object.freeze({
  PUBLISHED: 0x1n,
  ATOM_CACHE: 0x2n,
  EXTENDED_REFERENCES: 0x4n,
  DIST_MONITOR: 0x8n,
  FUN_TAGS: 0x10n,
  DIST_MONITOR_NAME: 0x20n,
  HIDDEN_ATOM_CACHE: 0x40n,
  NEW_FUN_TAGS: 0x80n,
  EXTENDED_PIDS_PORTS: 0x100n,
  EXPORT_PTR_TAG: 0x200n,
  BIT_BINARIES: 0x400n,
  NEW_FLOATS: 0x800n,
  UNICODE_IO: 0x1000n,
  DIST_HDR_ATOM_CACHE: 0x2000n,
  SMALL_ATOM_TAGS: 0x4000n,
  UTF8_ATOMS: 0x10000n,
  MAP_TAG: 0x20000n,
  BIG_CREATION: 0x40000n,
  SEND_SENDER: 0x80000n,
  BIG_SEQTRACE_LABELS: 0x100000n,
  EXIT_PAYLOAD: 0x400000n,
  FRAGMENTS: 0x800000n,
  HANDSHAKE_23: 0x1000000n,
  UNLINK_ID: 0x2000000n,
  /** "All OTP-25 mandatory flags" (bit 26 in code; the doc's 1 bsl 36 is wrong, see reference). */
  MANDATORY_25_DIGEST: 0x4000000n,
  SPAWN: 1n << 32n,
  NAME_ME: 1n << 33n,
  V4_NC: 1n << 34n,
  ALIAS: 1n << 35n,
} as const);

/** Flags OTP 25+ requires of every peer. */
export const MANDATORY_FLAGS_25 = 0x01070f94n;
/** Flags OTP 26+ additionally requires (V4_NC | UNLINK_ID). */
export const MANDATORY_FLAGS_26 = 0x402000000n;

/**
 * What our hidden client advertises (erl_interface's preferred set): DIGEST | MANDATORY_25 |
 * MANDATORY_26 | DIST_MONITOR | SMALL_ATOM_TAGS. No PUBLISHED (hidden), no DIST_HDR_ATOM_CACHE (so
 * peers use pass-through messages and never atom cache references), no FRAGMENTS, no SEND_SENDER,
 * no ALIAS, no EXIT_PAYLOAD.
 */
export const HIDDEN_CLIENT_FLAGS = 0x407074f9cn;

/**
 * What our named, visible node advertises when it accepts connections: the hidden client's set plus
 * PUBLISHED (peers list us in `nodes()`), DIST_MONITOR_NAME (a peer's monitor of one of our
 * registered names reaches us, so an unknown name can answer `noproc` at once) and ALIAS (replies
 * to `gen:call`'s alias tags go to the alias, as OTP 24+ replies).
 */
export const VISIBLE_NODE_FLAGS =
  HIDDEN_CLIENT_FLAGS | DistFlag.PUBLISHED | DistFlag.DIST_MONITOR_NAME | DistFlag.ALIAS;

/**
 * The OTP-25 mandatory flags a peer's advertised set lacks (0n when it has them all). A peer's
 * MANDATORY_25_DIGEST bit stands for the whole OTP-25 set, as in erl_interface.
 */
export function missingMandatoryFlags(peerFlags: bigint): bigint {
  const expanded = peerFlags & DistFlag.MANDATORY_25_DIGEST ? peerFlags | MANDATORY_FLAGS_25 : peerFlags;
  return MANDATORY_FLAGS_25 & ~expanded;
}

/** Names of the flags set in `flags` (for logs and error details). */
export function flagNames(flags: bigint): string[] {
  return Object.entries(DistFlag)
    .filter(([, bit]) => (flags & bit) !== 0n)
    .map(([name]) => name);
}
