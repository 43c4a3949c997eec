import type { UsersCommandIo } from '../cli/users-command.js';

/** A `UsersCommandIo` that keeps what the command writes, for tests to read back. */
export interface MemoryUsersIo extends UsersCommandIo {
  readonly stdout: { text: string; write(text: string): void };
  readonly stderr: { text: string; write(text: string): void };
  exitCode: number;
}

/** A fresh `MemoryUsersIo` with empty output and exit code 0. */
export function memoryUsersIo(): MemoryUsersIo {
  const stream = () => ({
    text: '',
    write(text: string) {
      this.text += text;
    },
  });
  return { stdout: stream(), stderr: stream(), exitCode: 0 };
}
