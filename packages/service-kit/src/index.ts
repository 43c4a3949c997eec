export { createServiceApp, DEFAULT_BODY_LIMIT, type ServiceAppOptions } from './create-service-app.js';
export { connectionLimits, DEFAULT_CONNECTION_LIMITS, type ConnectionLimits } from './connections/connection-limits.js';
export { guardConnections, type ConnectionGuardLog } from './connections/connection-guard.js';
export {
  securityHeaders,
  SECURITY_HEADERS,
  PAGE_CONTENT_SECURITY_POLICY,
  API_CONTENT_SECURITY_POLICY,
} from './security-headers.js';
export {
  serveConsole,
  isNavigation,
  isCleanPath,
  CONSOLE_RESERVED_PREFIXES,
  IMMUTABLE_CACHE,
  NO_CACHE,
  type ConsoleArea,
  type ConsoleLink,
  type ConsoleOptions,
  type ConsolePageConfig,
} from './console/serve-console.js';
export { kitProblems, type KitProblemCode } from './errors.js';
export { ProblemError, type ProblemErrorInit } from './problem/problem-error.js';
export { defineProblemCatalogue, type ProblemCatalogue, type ProblemDefinition } from './problem/problem-catalogue.js';
export {
  PROBLEM_MEDIA_TYPE,
  PROBLEM_TYPE_PREFIX,
  buildProblemDocument,
  problemSchema,
  type ProblemDocument,
} from './problem/problem-document.js';
export { classifyError, problemHandler, sendProblem, type ProblemReplyInit } from './http/problem-handler.js';
export type { RequestSchemaTypes, SchemaRequest, SchemaTypedApp } from './http/schema-typed-app.js';
export { toRequestViolations, type RequestViolation } from './problem/validation-problems.js';
export {
  loadConfig,
  serviceConfigLoader,
  settingsFromEnv,
  type ConfigSchema,
  type ConfigSource,
  type Environment,
  type ServiceConfigLoader,
} from './config/load-config.js';
export { ConfigError, type ConfigViolation } from './config/config-error.js';
export { deepFreeze, type DeepReadonly } from './config/deep-freeze.js';
export { REQUEST_ID_HEADER, isSaneRequestId, generateRequestId, requestIdEcho } from './request-id.js';
export { healthRoute, type HealthOptions, type HealthStatus } from './health.js';
export {
  createLogger,
  resolveLogFormat,
  LOG_FORMATS,
  REDACTED_PATHS,
  type CreateLoggerOptions,
  type LogFormat,
  type LogLevel,
} from './logger.js';
export type { Logger } from 'pino';
export {
  installGracefulShutdown,
  serviceCloser,
  type GracefulShutdownOptions,
  type SignalSource,
  type Closable,
} from './graceful-shutdown.js';
export {
  DEFAULT_MAX_JSON_DEPTH,
  measureJsonDepth,
  findForbiddenKey,
  parseJsonBody,
  useJsonBodyParser,
  type JsonBodyParserOptions,
} from './json-body-parser.js';
export { listenService, serviceUrl } from './listen-service.js';
export { closeOnce } from './close-once.js';
export {
  registerOpenApi,
  OPENAPI_DOCUMENT_PATH,
  OPENAPI_UI_PREFIX,
  type OpenApiOptions,
  type OpenApiSecurityScheme,
  type OpenApiSecurityRequirement,
} from './openapi/register-openapi.js';
export { PROBLEM_ERROR_BODY, REASON_ERROR_BODY, type ErrorBody } from './openapi/error-body.js';
export {
  errorResponse,
  errorResponses,
  ERROR_STATUS_DESCRIPTIONS,
  type OpenApiErrorResponse,
} from './openapi/error-responses.js';
export { withResponseHeaders, type OpenApiResponseHeader } from './openapi/response-headers.js';
export { createOpenApiReplyCheck, type ReplyLike } from './openapi/openapi-reply-check.js';
export { checkOpenApiCoverage, openApiPath, type OpenApiCoverage } from './openapi/openapi-coverage.js';
export { recordRoutes, registeredRoutes, type RegisteredRoute } from './openapi/route-recorder.js';
export { prometheusMetrics, DEFAULT_DURATION_BUCKETS, type PrometheusMetricsOptions } from './prometheus-metrics.js';
export { serviceLogger, type ServiceLogSettings, type ServiceStartOptions } from './service-start.js';
export {
  REQUIRED_SERVICE_SETTINGS,
  serviceSettingsProperties,
  type ServiceSettings,
} from './config/service-settings.js';
export {
  checkLeaseSettings,
  leaseSettingsProperties,
  REQUIRED_LEASE_SETTINGS,
  type LeaseSettings,
} from './config/lease-settings.js';
export { SecretCipher, SecretSealError, SECRET_KEY_BYTES, type SecretPurpose } from './secrets/secret-cipher.js';
export {
  keyFingerprint,
  SecretKeyMismatchError,
  verifySecretKey,
  type KeyCheck,
  type KeyCheckNames,
  type KeyCheckStore,
} from './secrets/secret-key-check.js';
export {
  loadSecretKeys,
  decodeSecretKey,
  writeKeyFile,
  type LoadedSecretKeys,
  type SecretKeySource,
} from './secrets/secret-key-store.js';
export {
  PasswordHasher,
  PasswordHashBusyError,
  defaultHashConcurrency,
  HASH_QUEUE_PER_RUN,
} from './secrets/password-hasher.js';
