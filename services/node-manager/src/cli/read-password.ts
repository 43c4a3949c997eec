/** Where `triad users` reads a password it was not given on the command line. */
export interface PasswordSource {
  /** Reads all of standard input (used when it is not a terminal). */
  readStdin?(): Promise<Uint8Array>;
  /** Asks on the terminal without echo; absent when standard input is not a terminal. */
  promptHidden?(prompt: string): Promise<string>;
}

/** Thrown when no password could be read (empty input, or no terminal and nothing piped). */
export class PasswordInputError extends Error {}

/**
 * The password for `triad users add|set-password` when it is not an argument: asked twice on a
 * terminal (no echo; both answers must agree), else the first line of standard input, so
 * scripts can pipe it (`printf '%s\n' "$PW" | triad users add ops`) without it showing in `ps`.
 */
export async function readPassword(source: PasswordSource): Promise<string> {
  if (source.promptHidden) {
    const first = await source.promptHidden('Password: ');
    const second = await source.promptHidden('Repeat password: ');
    if (first !== second) throw new PasswordInputError('the two passwords differ');
    if (first === '') throw new PasswordInputError('no password given');
    return first;
  }
  if (!source.readStdin) throw new PasswordInputError('no password given: pass it as an argument or on standard input');
  const text = Buffer.from(await source.readStdin()).toString('utf8');
  const line = text.split(/\r?\n/, 1)[0] ?? '';
  if (line === '') throw new PasswordInputError('no password on standard input (one line expected)');
  return line;
}

/**
 * The process's own password source: a hidden prompt when standard input is a terminal
 * (raw mode, written to standard error; Backspace edits, Ctrl-C and Ctrl-D abort), else
 * standard input read to its end.
 */
export function processPasswordSource(): PasswordSource {
  const stdin = process.stdin;
  if (!stdin.isTTY) {
    return {
      async readStdin() {
        const chunks: Buffer[] = [];
        for await (const chunk of stdin) chunks.push(chunk as Buffer);
        return Buffer.concat(chunks);
      },
    };
  }
  return {
    promptHidden: (prompt) =>
      new Promise<string>((resolve, reject) => {
        process.stderr.write(prompt);
        let typed = '';
        const finish = (error?: Error) => {
          stdin.off('data', onData);
          stdin.setRawMode(false);
          stdin.pause();
          process.stderr.write('\n');
          if (error) reject(error);
          else resolve(typed);
        };
        const onData = (chunk: Buffer) => {
          for (const char of chunk.toString('utf8')) {
            if (char === '\r' || char === '\n') return finish();
            if (char === '\u0003' || char === '\u0004') return finish(new PasswordInputError('cancelled'));
            if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1);
            else typed += char;
          }
        };
        stdin.setRawMode(true);
        stdin.resume();
        stdin.on('data', onData);
      }),
  };
}
