/** What a command needs from its process, so tests can run commands in memory. */
export interface CliIo {
  readonly stdout: { write(text: string): unknown; readonly isTTY?: boolean };
  readonly stderr: { write(text: string): unknown; readonly isTTY?: boolean };
  /** Reads all of standard input (bytes). */
  readStdin(): Promise<Uint8Array>;
  readonly cwd: string;
  /** Set by commands: 0 success, 1 invalid input, 2 usage or I/O error. Highest wins. */
  exitCode: number;
}

/** Exit codes of every `triad` command (docs/cli.md). */
export const EXIT = Object.freeze({ OK: 0, INVALID: 1, USAGE: 2 });

/** Raises the exit code; a more severe code is never lowered by a later, milder one. */
export function raiseExit(io: CliIo, code: number): void {
  if (code > io.exitCode) io.exitCode = code;
}

/** The process-backed implementation used by the `triad` binary. */
export function processIo(): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    cwd: process.cwd(),
    exitCode: 0,
    async readStdin() {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    },
  };
}
