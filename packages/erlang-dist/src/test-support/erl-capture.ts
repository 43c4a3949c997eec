import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FixtureSpec } from './fixture-specs.js';

/** True when an `erl` executable is on PATH. */
export function erlOnPath(): boolean {
  for (const dir of (process.env['PATH'] ?? '').split(path.delimiter)) {
    try {
      accessSync(path.join(dir || '.', 'erl'), constants.X_OK);
      return true;
    } catch {
      // not in this directory
    }
  }
  return false;
}

/** What one `erl` run made of the specs. */
export interface Capture {
  readonly otpRelease: string;
  /**
   * name -> the bytes of every spec, lower-case hex: what `term_to_binary` wrote, or for a
   * hand-written spec its own bytes (after `binary_to_term` proved them equal to the expression).
   */
  readonly hexByName: ReadonlyMap<string, string>;
}

/**
 * Evaluates every spec in one `erl` run: `term_to_binary` of the expression, or for hand-written
 * bytes whether `binary_to_term` of them equals the expression.
 *
 * @throws Error when `erl` fails, prints nothing for a spec, or rejects a spec's hand-written bytes.
 */
export function captureWithErl(specs: readonly FixtureSpec[]): Capture {
  const lines = specs.map((s) => {
    if (s.hex !== undefined) {
      return `P("${s.name}", atom_to_list(binary_to_term(binary:decode_hex(<<"${s.hex}">>)) =:= (${s.erlang})))`;
    }
    const options = s.options ?? '[{minor_version,2}]';
    return `P("${s.name}", binary_to_list(binary:encode_hex(term_to_binary(${s.erlang}, ${options}))))`;
  });
  const program =
    [
      'P = fun(N, V) -> io:format("~s ~s~n", [N, V]) end',
      'P("otp_release", erlang:system_info(otp_release))',
      ...lines,
      'halt()',
    ].join(', ') + '.';
  const run = spawnSync('erl', ['-noshell', '-eval', program], {
    encoding: 'utf8',
    timeout: 20_000,
    cwd: tmpdir(),
    env: { ...process.env, ERL_CRASH_DUMP_SECONDS: '0' }, // no erl_crash.dump files on failure
  });
  if (run.status !== 0) throw new Error(`erl failed (${run.status ?? run.signal}): ${run.stderr}${run.stdout}`);
  const printed = new Map<string, string>();
  for (const line of run.stdout.split('\n')) {
    const [name, value] = line.trim().split(' ');
    if (name && value !== undefined) printed.set(name, value.toLowerCase());
  }
  const hexByName = new Map<string, string>();
  for (const spec of specs) {
    const result = printed.get(spec.name);
    if (result === undefined) throw new Error(`erl printed nothing for ${spec.name}`);
    if (spec.hex !== undefined && result !== 'true') {
      throw new Error(`erl does not decode the hand-written bytes of ${spec.name} to ${spec.erlang}`);
    }
    hexByName.set(spec.name, spec.hex ?? result);
  }
  return { otpRelease: printed.get('otp_release') ?? '?', hexByName };
}
