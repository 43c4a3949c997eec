import { spawn } from 'node:child_process';

/** A real node started with WombatOAM's discovery call as its `-eval`, left running. */
export interface RegisteringNode {
  readonly name: string;
  /** What the calls returned, as printed by the node (`ok` per call). */
  readonly replies: Promise<string>;
  /** SIGKILL; resolves when the process exited. */
  kill(): Promise<void>;
}

/**
 * Starts `erl -name <alive>@127.0.0.1 -setcookie <cookie>` that runs the published discovery call
 * `gen_server:call({wo_discover_dynamic_nodes, Manager}, {auto_discover_node, node(),
 * erlang:get_cookie()})` `times` times, unchanged, prints `replies: R1 R2 ...` and keeps running.
 * `env` adds to the environment (e.g. `ERL_EPMD_PORT`).
 */
export function startRegisteringNode(
  alive: string,
  cookie: string,
  manager: string,
  times = 1,
  env: Readonly<Record<string, string>> = {},
): RegisteringNode {
  const call =
    `gen_server:call({wo_discover_dynamic_nodes, '${manager}'},` +
    ` {auto_discover_node, node(), erlang:get_cookie()})`;
  const calls = Array.from({ length: times }, () => `(catch ${call})`).join(', ');
  const code = `Rs = [${calls}], io:format("replies:~s~n", [[io_lib:format(" ~0p", [R]) || R <- Rs]]).`;
  const child = spawn(
    'erl',
    ['-name', `${alive}@127.0.0.1`, '-setcookie', cookie, '-noshell', '-noinput', '-eval', code],
    { stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, ERL_CRASH_DUMP_SECONDS: '0', ...env } },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const replies = new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /replies:(.*)\n/.exec(out);
      if (m) resolve(m[1]!.trim());
    });
    void exited.then(() => reject(new Error(`${alive} exited before replying: ${out}`)));
  });
  replies.catch(() => undefined);
  return {
    name: `${alive}@127.0.0.1`,
    replies,
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
}
