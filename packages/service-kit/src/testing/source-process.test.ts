import { describe, expect, it } from 'vitest';
import { startServiceProcess, startSourceProcess, waitForProcess } from './source-process.js';

const cwd = process.cwd();

describe('startSourceProcess', () => {
  it('captures both streams and the exit code, with the environment changes applied', async () => {
    const script = 'console.log(process.env.SOURCE_PROCESS_TEST); console.error("to stderr"); process.exitCode = 3';
    const started = startSourceProcess({ cwd, args: ['-e', script], env: { SOURCE_PROCESS_TEST: 'from env' } });
    expect(await started.exited).toBe(3);
    expect(started.stdout()).toBe('from env\n');
    expect(started.stderr()).toBe('to stderr\n');
    await started.kill(); // ended already: resolves at once
  });

  it('waits for output, then stops with SIGTERM', async () => {
    const started = startSourceProcess({ cwd, args: ['-e', 'console.log("ready"); setInterval(() => {}, 1000)'] });
    await waitForProcess(started, () => started.stdout().includes('ready'), 60_000, 'ready');
    expect(await started.stop()).toBe('SIGTERM');
    await expect(waitForProcess(started, () => false, 60_000, 'never')).rejects.toThrow(/^never\n--- stdout\nready\n/);
  });
});

describe('startServiceProcess', () => {
  it('fails with the output when the service ends before it listens', async () => {
    const failing = startServiceProcess({
      cwd,
      args: ['-e', 'console.error("no config"); process.exit(1)'],
      name: 'x',
    });
    await expect(failing).rejects.toThrow(/^x did not start\n--- stdout\n\n--- stderr\nno config\n/);
  });
});
