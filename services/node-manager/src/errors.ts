import { defineProblemCatalogue, type ProblemError } from '@triad/service-kit';
import { MIN_PASSWORD_LENGTH } from './model/roles.js';

/**
 * The node manager's error catalogue. The wire shape is the spec's `{error: reason}` (not
 * problem+json): `reason` is the code without its `NM_ERR_` prefix, lower-cased
 * (`NM_ERR_USER_NOT_FOUND` -> `user_not_found`). Codes never change meaning; `docs/errors.md` lists them.
 */
export const nodeManagerProblems = defineProblemCatalogue({
  NM_ERR_UNAUTHORIZED: { status: 401, title: 'Missing or wrong credentials' },
  NM_ERR_NOT_ADMIN: { status: 400, title: 'Only an admin may do this' },
  NM_ERR_AUTHENTICATION_OFF: {
    status: 400,
    title: 'Users, roles, rights and passwords cannot change while authentication is off',
  },
  NM_ERR_FORBIDDEN: { status: 400, title: 'The current user may not do this' },
  NM_ERR_TOO_MANY_ATTEMPTS: { status: 429, title: 'Too many failed sign-ins; retry after the time given' },
  NM_ERR_SIGN_IN_BUSY: {
    status: 503,
    title: 'Too many sign-ins are being checked at once; retry after the time given',
  },
  NM_ERR_INVALID_REQUEST: { status: 400, title: 'The request body or parameters are not valid' },
  NM_ERR_INVALID_USERNAME: { status: 400, title: 'Usernames are 1-64 letters and digits' },
  NM_ERR_INVALID_PASSWORD: { status: 400, title: 'Passwords are letters and digits, 128 at most' },
  NM_ERR_PASSWORD_TOO_SHORT: {
    status: 400,
    title: `Passwords need at least ${MIN_PASSWORD_LENGTH} letters and digits; choose a longer one`,
  },
  NM_ERR_INVALID_ROLE: { status: 400, title: 'Roles are guest, user and admin' },
  NM_ERR_INVALID_RIGHTS: { status: 400, title: 'Rights are a non-empty set of read, write and execute' },
  NM_ERR_USER_NOT_FOUND: { status: 400, title: 'No such user' },
  NM_ERR_USER_EXISTS: { status: 400, title: 'A user with this name exists' },
  NM_ERR_LAST_ADMIN: { status: 400, title: 'The last admin cannot lose the admin role or be deleted' },
  NM_ERR_NODE_NOT_FOUND: { status: 404, title: 'No such node' },
  NM_ERR_NODE_FAMILY_NOT_FOUND: { status: 404, title: 'No such node family' },
  NM_ERR_BAD_NODE_FORMAT: { status: 400, title: 'Node names have the form name@host' },
  NM_ERR_NODE_EXISTS: { status: 400, title: 'A node with this name is already added' },
  NM_ERR_NODE_FAMILY_EXISTS: { status: 400, title: 'A node family with this name exists' },
  NM_ERR_PLUGIN_NOT_FOUND: { status: 404, title: 'The node has no such plugin' },
  NM_ERR_METRIC_NOT_FOUND: { status: 404, title: 'The node has no history of a metric of this name' },
  NM_ERR_ALARM_NOT_FOUND: { status: 400, title: 'No active alarm has this alarmId and alarmSrc' },
  NM_ERR_ALARM_STATE: { status: 400, title: 'The alarm is not in a state this action applies to' },
  NM_ERR_BAD_EVENT_ID: { status: 400, title: 'eid has the form {Mega,Sec,Micro}' },
  NM_ERR_BAD_PID: { status: 400, title: 'Pids have the form <0.N.S> as the node prints them, e.g. <0.123.0>' },
  NM_ERR_PROCESS_NOT_FOUND: { status: 404, title: 'The node has no process with this pid (it may have exited)' },
  NM_ERR_NODE_NOT_UP: {
    status: 409,
    title: 'The node is not UP; the explorer reads only nodes the service is connected to',
  },
  NM_ERR_EXPLORER_BUSY: {
    status: 429,
    title: 'Too many explorer calls on this node at once; retry when the ones running have answered',
  },
  NM_ERR_EXPLORER_FAILED: { status: 502, title: 'The node could not run the explorer reading; see the service log' },
  NM_ERR_NODE_UNREACHABLE: { status: 503, title: 'The node cannot be reached from this instance now; retry shortly' },
  NM_ERR_NODE_TIMEOUT: { status: 504, title: 'The node did not answer the explorer in time; retry, or ask for fewer' },
  NM_ERR_SERVICE_NOT_FOUND: {
    status: 404,
    title: 'No such service; list them at GET /api/service/service-info/explorer/node/{node_id}',
  },
  NM_ERR_BAD_SERVICE_ARGUMENTS: {
    status: 400,
    title: 'Service arguments: OrderBy is Memory, Reductions or Message Queue Length; Limit 1 to 200 (tables 1000)',
  },
  NM_ERR_REQUEST_NOT_FOUND: { status: 404, title: 'No such request, or it finished more than 60 s ago' },
  NM_ERR_CHANNEL_NOT_FOUND: {
    status: 404,
    title: 'No such notification channel; list them at GET /api/notifications/channels',
  },
  NM_ERR_SUBSCRIPTION_NOT_FOUND: {
    status: 404,
    title: 'No such subscription of yours; list them at GET /api/notifications/subscriptions',
  },
  NM_ERR_BAD_CHANNEL: {
    status: 400,
    title:
      'Channel fields by type: webhook {url, secret}, slack {url}, pagerduty {routingKey, url?}, ' +
      'email {host, port, from, to, starttls?, user?, password?, ca?}',
  },
  NM_ERR_BAD_CHANNEL_URL: {
    status: 400,
    title: 'Channel URLs are absolute http:// or https:// URLs without user name or password',
  },
  NM_ERR_BAD_EMAIL_ADDRESS: {
    status: 400,
    title: 'E-mail addresses have the form name@domain, without spaces, commas, quotes or angle brackets',
  },
  NM_ERR_SMTP_PASSWORD_NEEDS_TLS: {
    status: 400,
    title: 'An SMTP user and password are sent only over STARTTLS: set starttls to true, or leave both out',
  },
  NM_ERR_ADDRESS_REFUSED: {
    status: 400,
    title:
      'The notification address policy refuses this host (loopback, private, link-local, metadata or denied); ' +
      'TRIAD_NOTIFY_ALLOW can admit it',
  },
  NM_ERR_BODY_TOO_LARGE: { status: 413, title: 'The body exceeds the size limit' },
  NM_ERR_UNSUPPORTED_MEDIA_TYPE: { status: 415, title: 'Bodies are application/json' },
  NM_ERR_ROUTE_NOT_FOUND: { status: 404, title: 'No such endpoint' },
  NM_ERR_INTERNAL: { status: 500, title: 'Unexpected error' },
});

export type NodeManagerProblemCode = keyof typeof nodeManagerProblems.definitions;

/** The `error` member of the reply for a code: `NM_ERR_USER_NOT_FOUND` -> `user_not_found`. */
export function reasonOf(code: string): string {
  return code.replace(/^[A-Z]+_ERR_/, '').toLowerCase();
}

/** Shorthand: the catalogue error for `code`, with an optional detail for logs. */
export function nmError(code: NodeManagerProblemCode, detail?: string): ProblemError {
  return nodeManagerProblems.create(code, detail);
}
