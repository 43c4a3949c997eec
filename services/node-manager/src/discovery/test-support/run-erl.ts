import { execFile } from 'node:child_process';

/**
 * Runs `erl -name <alive>@127.0.0.1 -setcookie <cookie> -noshell -eval <code> [extra args]` to
 * its end and resolves with what it printed; rejects when it fails or outlives `timeoutMs`.
 */
export function runErl(
  alive: string,
  cookie: string,
  code: string,
  options: { readonly timeoutMs?: number; readonly extraArgs?: readonly string[] } = {},
): Promise<string> {
  const args = [
    '-name',
    `${alive}@127.0.0.1`,
    '-setcookie',
    cookie,
    '-noshell',
    '-noinput',
    ...(options.extraArgs ?? []),
    '-eval',
    code,
  ];
  return new Promise((resolve, reject) => {
    execFile('erl', args, { timeout: options.timeoutMs ?? 20_000 }, (error, stdout) =>
      error ? reject(new Error(`erl failed: ${error.message}`, { cause: error })) : resolve(stdout),
    );
  });
}
