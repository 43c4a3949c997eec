/**
 * The package's error catalogue. Codes never change meaning. Every error the codec throws on
 * purpose is an `ErlangDistError`; anything else escaping a decoder is a bug (the fuzz tests pin it).
 */
export const erlangDistErrors = Object.freeze({
  ED_ERR_TRUNCATED: 'The input ended before a complete value',
  ED_ERR_LENGTH_EXCEEDS_INPUT: 'A declared length or count exceeds the bytes that remain',
  ED_ERR_BAD_VERSION: 'The term does not start with the external format version byte 131',
  ED_ERR_UNKNOWN_TAG: 'Unknown or unsupported tag',
  ED_ERR_TRAILING_BYTES: 'Bytes remain after a complete value',
  ED_ERR_DEPTH_EXCEEDED: 'The term is nested deeper than the decoder allows',
  ED_ERR_MALFORMED: 'The value is structurally invalid',
  ED_ERR_BAD_ATOM: 'An atom is not valid text',
  ED_ERR_ATOM_CACHE_REF: 'Atom cache reference received, but no distribution header (atom cache) was negotiated',
  ED_ERR_COMPRESSED: 'A compressed term could not be inflated within its declared size',
  ED_ERR_UNENCODABLE: 'The value cannot be encoded in the external term format',
  ED_ERR_FRAME_TOO_LARGE: 'A frame is larger than allowed',
  ED_ERR_INVALID_ARGUMENT: 'An argument is outside its allowed range',
  ED_ERR_HANDSHAKE_STATE: 'A handshake message arrived in a state that does not expect it',
  ED_ERR_HANDSHAKE_REFUSED: 'The peer refused the connection',
  ED_ERR_PEER_FLAGS: 'The peer lacks distribution flags this client requires',
  ED_ERR_BAD_DIGEST: "The peer's challenge acknowledgement does not match the cookie",
  ED_ERR_BAD_COOKIE: 'The peer closed the connection after our challenge reply (wrong cookie)',
  ED_ERR_CONNECTION_CLOSED: 'The connection closed before the handshake completed',
  ED_ERR_BAD_CONTROL: 'A control message does not have the shape its opcode requires',
} as const);

export type ErlangDistErrorCode = keyof typeof erlangDistErrors;

/**
 * The only error type this package throws on purpose. `offset` is the byte offset in the input
 * where the problem was found (undefined when the error is not about input bytes); `details`
 * is structured context (tag, declared length, status text ...).
 */
export class ErlangDistError extends Error {
  readonly code: ErlangDistErrorCode;
  readonly offset: number | undefined;
  readonly details: Readonly<Record<string, unknown>>;
  constructor(
    code: ErlangDistErrorCode,
    options: { offset?: number; detail?: string; details?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    const where = options.offset === undefined ? '' : ` at byte ${options.offset}`;
    const detail = options.detail ? `: ${options.detail}` : '';
    super(
      `${erlangDistErrors[code]}${where}${detail}`,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = 'ErlangDistError';
    this.code = code;
    this.offset = options.offset;
    this.details = Object.freeze({ ...options.details });
  }
}
