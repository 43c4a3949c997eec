import type { CliIo } from '../cli-io.js';

/** An in-memory CliIo for tests: collects output, serves `stdin` as standard input. */
export function memoryIo(options: { cwd: string; stdin?: string }): CliIo & { out(): string; err(): string } {
  let out = '';
  let err = '';
  return {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
    cwd: options.cwd,
    exitCode: 0,
    readStdin: () => Promise.resolve(new TextEncoder().encode(options.stdin ?? '')),
    out: () => out,
    err: () => err,
  };
}
