import { formatPlace, loadFailure } from './load-failure.js';
import { firstInvalidUtf8, utf8ByteLength, type Utf8Fault } from './utf8-check.js';

const BOM = 0xfeff;

/**
 * Turns the caller's input into the text to parse: bytes are decoded as UTF-8 (strictly), a
 * leading byte order mark is removed, and input over `maxBytes` is refused before any work.
 *
 * Throws `DocumentLoadError` with `DT_ERR_LOAD_TOO_LARGE` or `DT_ERR_LOAD_ENCODING`.
 */
export function decodeText(input: string | Uint8Array, maxBytes: number): string {
  if (typeof input === 'string') {
    // Each UTF-16 unit is 1 to 3 UTF-8 bytes, so counting is only needed near the limit.
    if (input.length * 3 > maxBytes) {
      const size = input.length > maxBytes ? input.length : utf8ByteLength(input);
      if (size > maxBytes)
        throw tooLarge(input.length > maxBytes ? `at least ${formatBytes(size)}` : formatBytes(size), maxBytes);
    }
    return input.charCodeAt(0) === BOM ? input.slice(1) : input;
  }
  if (input.byteLength > maxBytes) throw tooLarge(formatBytes(input.byteLength), maxBytes);
  try {
    // The decoder drops a leading UTF-8 BOM itself (ignoreBOM defaults to false).
    return new TextDecoder('utf-8', { fatal: true }).decode(input);
  } catch {
    throw notUtf8(input, firstInvalidUtf8(input));
  }
}

function tooLarge(size: string, maxBytes: number) {
  return loadFailure(
    'DT_ERR_LOAD_TOO_LARGE',
    { path: '', line: 1, column: 1 },
    `The input is ${size}, more than the limit of ${formatBytes(maxBytes)}; ` +
      'split the template into smaller files or raise limits.maxBytes.',
    { allowed: `at most ${maxBytes} bytes` },
  );
}

/** `33554432` -> `33554432 bytes (32.0 MiB)`. */
function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  const units = ['KiB', 'MiB', 'GiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${bytes} bytes (${value.toFixed(1)} ${units[unit]})`;
}

function notUtf8(bytes: Uint8Array, fault: Utf8Fault | undefined) {
  if (fault === undefined) {
    // The decoder refused what the checker accepts: should not happen; report without a place.
    return loadFailure(
      'DT_ERR_LOAD_ENCODING',
      { path: '', line: 1, column: 1 },
      'The input is not valid UTF-8; save the file as UTF-8.',
    );
  }
  const place = placeOfByte(bytes, fault.offset);
  const byte = `0x${(bytes[fault.offset] ?? 0).toString(16).toUpperCase().padStart(2, '0')}`;
  const utf16 =
    (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)
      ? ' The file starts with a UTF-16 byte order mark: save it as UTF-8 instead.'
      : ' Save the file as UTF-8 (not Latin-1 or Windows-1252) or remove the character.';
  const what =
    fault.reason === 'truncated'
      ? `byte ${byte} starts a multi-byte character that is cut short`
      : fault.reason === 'bad-continuation'
        ? `byte ${byte} starts a multi-byte character whose following bytes are not valid`
        : `byte ${byte} cannot start a character`;
  return loadFailure(
    'DT_ERR_LOAD_ENCODING',
    { path: '', ...place },
    `The input is not valid UTF-8: at ${formatPlace(place)} (byte offset ${fault.offset}) ${what}.${utf16}`,
    { found: byte },
  );
}

/** Line and column (UTF-16 units, 1-based) of a byte offset, decoding only the valid prefix's last line. */
function placeOfByte(bytes: Uint8Array, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i += 1) {
    const b = bytes[i];
    if (b === 0x0a || (b === 0x0d && bytes[i + 1] !== 0x0a)) {
      line += 1;
      lineStart = i + 1;
    }
  }
  let prefix = new TextDecoder('utf-8').decode(bytes.subarray(lineStart, offset));
  if (line === 1 && prefix.charCodeAt(0) === BOM) prefix = prefix.slice(1);
  return { line, column: prefix.length + 1 };
}
