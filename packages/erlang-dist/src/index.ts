export { ErlangDistError, erlangDistErrors, type ErlangDistErrorCode } from './errors.js';
export * from './term.js';
export { decodeTerm, DEFAULT_DECODE_OPTIONS, type DecodeOptions } from './term-decoder.js';
export { encodeTerm } from './term-encoder.js';
export { Tag } from './etf-tags.js';
export {
  FrameDecoder,
  encodeFrame,
  TICK_FRAME,
  DEFAULT_MAX_FRAME_BYTES,
  type Frame,
  type FrameDecoderOptions,
} from './frame-decoder.js';
export {
  EPMD_DEFAULT_PORT,
  EpmdTag,
  NodeType,
  aliveName,
  encodePortPlease2Request,
  decodePort2Response,
  encodeNamesRequest,
  decodeNamesResponse,
  encodeAlive2Request,
  decodeAlive2Response,
  type EpmdNodeInfo,
  type Port2Response,
  type NamesResponse,
} from './epmd.js';
export {
  DistFlag,
  HIDDEN_CLIENT_FLAGS,
  VISIBLE_NODE_FLAGS,
  MANDATORY_FLAGS_25,
  MANDATORY_FLAGS_26,
  missingMandatoryFlags,
  flagNames,
} from './dist-flags.js';
export { challengeDigest, digestsEqual } from './challenge-digest.js';
export {
  HandshakeTag,
  encodeSendName,
  decodeSendName,
  encodeStatus,
  decodeStatus,
  encodeChallenge,
  decodeChallenge,
  encodeChallengeReply,
  decodeChallengeReply,
  encodeChallengeAck,
  decodeChallengeAck,
  decodeAnySendName,
  decodeComplement,
  type SendName,
  type Challenge,
  type ChallengeReply,
} from './handshake-messages.js';
export {
  HandshakeClient,
  type HandshakeClientOptions,
  type HandshakeResult,
  type HandshakeStep,
  type HandshakeState,
} from './handshake-client.js';
export {
  HandshakeServer,
  aliasesNegotiated,
  MAX_PEER_NAME_BYTES,
  type HandshakeServerOptions,
  type HandshakeServerState,
} from './handshake-server.js';
export { matchGenCall, genCallAlias, genReply, type GenCall } from './gen-call.js';
export {
  PASS_THROUGH,
  ControlOp,
  control,
  encodeDistFrame,
  decodeDistPayload,
  parseControlMessage,
  type DistMessage,
  type ControlMessage,
} from './control-message.js';
export {
  rexCallMessage,
  rexCNodeCallMessage,
  matchRexReply,
  matchRexCNodeReply,
  badRpcReason,
  sameReference,
  referenceKey,
  type RexCall,
} from './rex-rpc.js';
export { RexCallCodec } from './rex-call-codec.js';
export { NodeIdentity, randomCreation } from './node-identity.js';
