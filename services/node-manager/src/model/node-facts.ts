/** What a node reports of itself: its release, uptime and running applications. */

/** An application a node runs, as `application:which_applications()` lists it. */
export interface RunningApplication {
  readonly name: string;
  readonly description: string;
  readonly version: string;
}

/** What the node facts collector last read of a node. */
export interface NodeFacts {
  /** `erlang:system_info(otp_release)`, e.g. `"25"`. */
  readonly otpRelease: string;
  /** `erlang:system_info(version)`: the ERTS version, e.g. `"13.1.5"`. */
  readonly ertsVersion: string;
  /** Milliseconds the node had run when read (`erlang:statistics(wall_clock)`). */
  readonly uptimeMs: number;
  readonly processCount: number;
  /** `erlang:memory(total)`, bytes. */
  readonly totalMemory: number;
  /** Sorted by name. */
  readonly applications: readonly RunningApplication[];
  /**
   * The node was still booting (`init:get_status()` said `starting`): its boot script, or an
   * `-s`/`-eval` of its command line, had not finished, so `applications` may be partial.
   */
  readonly booting: boolean;
  /** When it was read, ms since the epoch. */
  readonly readAt: number;
}
