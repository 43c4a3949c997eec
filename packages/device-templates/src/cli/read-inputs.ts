import { open, stat } from 'node:fs/promises';
import path from 'node:path';
import fg from 'fast-glob';
import { errorCode, errorMessage } from '@triad/common';

/** One input named on the command line, read as bytes (or the reason it could not be). */
export type CliInput =
  { readonly file: string; readonly bytes: Uint8Array } | { readonly file: string; readonly ioError: string };

/**
 * Expands `-` (standard input), plain paths and glob patterns into inputs, in the order given.
 * Reads at most `maxBytes + 1` bytes of each file, so an oversized file is reported by the
 * loader's size check without being read whole.
 */
export async function readInputs(
  args: readonly string[],
  options: { cwd: string; maxBytes: number; readStdin: () => Promise<Uint8Array> },
): Promise<CliInput[]> {
  const inputs: CliInput[] = [];
  const seen = new Set<string>();
  for (const arg of args) {
    if (arg === '-') {
      inputs.push({ file: '<stdin>', bytes: await options.readStdin() });
      continue;
    }
    const files = await expand(arg, options.cwd);
    if (files.length === 0) {
      inputs.push({ file: arg, ioError: `no such file, and no file matches the pattern "${arg}"` });
      continue;
    }
    for (const file of files) {
      if (seen.has(file)) continue;
      seen.add(file);
      inputs.push(await readBounded(file, path.resolve(options.cwd, file), options.maxBytes));
    }
  }
  return inputs;
}

async function expand(arg: string, cwd: string): Promise<string[]> {
  try {
    const s = await stat(path.resolve(cwd, arg));
    if (s.isFile()) return [arg];
    if (s.isDirectory())
      return (await fg('**/*.ndst.{json,yml,yaml}', { cwd: path.resolve(cwd, arg), dot: false }))
        .sort()
        .map((f) => path.join(arg, f));
  } catch {
    // not a path: try it as a glob below
  }
  if (!fg.isDynamicPattern(arg)) return [];
  return (await fg(arg, { cwd, onlyFiles: true, dot: false })).sort();
}

async function readBounded(file: string, absolute: string, maxBytes: number): Promise<CliInput> {
  try {
    const handle = await open(absolute, 'r');
    try {
      const size = (await handle.stat()).size;
      const buffer = Buffer.alloc(Math.min(size, maxBytes + 1));
      let read = 0;
      while (read < buffer.length) {
        const { bytesRead } = await handle.read(buffer, read, buffer.length - read, read);
        if (bytesRead === 0) break;
        read += bytesRead;
      }
      return { file, bytes: buffer.subarray(0, read) };
    } finally {
      await handle.close();
    }
  } catch (error) {
    return {
      file,
      ioError: errorCode(error) === 'ENOENT' ? 'no such file' : errorMessage(error),
    };
  }
}
