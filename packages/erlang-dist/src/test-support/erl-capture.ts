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

export interface Capture {
  readonly otpRelease: string;
  /** name -> hex bytes (term_to_binary), or 'true'/'false' (hand-written bytes checked by binary_to_term). */
  readonly results: ReadonlyMap<string, string>;
}

/** Evaluates every spec in one `erl` run and returns what it printed per spec. */
export function captureWithErl(specs: readonly FixtureSpec[]): Capture {
  const lines = specs.map((s) =>
    s.hex
      ? `P("${s.name}", atom_to_list(binary_to_term(binary:decode_hex(<<"${s.hex}">>)) =:= (${s.erlang})))`
      : `P("${s.name}", binary_to_list(binary:encode_hex(term_to_binary(${s.erlang}, ${s.options ?? '[{minor_version,2}]'}))))`,
  );
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
  const results = new Map<string, string>();
  for (const line of run.stdout.split('\n')) {
    const [name, value] = line.trim().split(' ');
    if (name && value !== undefined) results.set(name, value.toLowerCase());
  }
  return { otpRelease: results.get('otp_release') ?? '?', results };
}
