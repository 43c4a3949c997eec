import type { ChildProcess } from 'node:child_process';

/** Kills a test server with SIGKILL (as a crash would end it) and resolves once it has exited. */
export async function killProcess(child: ChildProcess | undefined): Promise<void> {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}
