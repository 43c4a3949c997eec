/**
 * The node manager's refusals in people's words (decision 0036): its `{error: reason}` codes
 * mapped to a sentence that says what happened and what to do. A reason missing here shows the
 * API's own title-like text, never the bare code.
 */
const SENTENCES: Readonly<Record<string, string>> = {
  unauthorized: 'The username or password is wrong, or your session ended. Sign in again.',
  not_admin: 'Only an admin may do this. Sign in as an admin, or ask one to do it.',
  forbidden: 'Your user may not do this: its role or rights do not allow it. Ask an admin for the right.',
  authentication_off:
    'Users, roles and passwords cannot change while the node manager runs without sign-in. ' +
    'Turn authentication on first.',
  too_many_attempts: 'Too many failed sign-ins. Wait a minute, then try again with the right password.',
  sign_in_busy: 'The node manager is checking many sign-ins at once. Try again in a few seconds.',
  invalid_request: 'The node manager did not understand the request. Reload the page and try again.',
  invalid_username: 'A username is 1 to 64 letters and digits, with no spaces or other signs. Change it and try again.',
  invalid_password: 'A password is letters and digits only, 128 at most. Change it and try again.',
  password_too_short: 'The password is too short: use at least 8 letters and digits.',
  invalid_role: 'Choose one of the roles guest, user or admin.',
  invalid_rights: 'Give the user at least one of the rights read, write and execute.',
  user_not_found: 'That user no longer exists; someone may have deleted it. The list shows the users there are now.',
  user_exists: 'A user with this name exists already. Choose another username.',
  last_admin: 'This is the last admin: give another user the admin role first, then change or delete this one.',
  node_not_found: 'That node is no longer managed; someone may have removed it. The list shows the nodes there are.',
  node_family_not_found: 'That node family does not exist (any more). Choose one from the list.',
  bad_node_format: 'A node name has the form name@host, for example app@server1. Correct it and add the node again.',
  node_exists: 'This node is managed already. It is in the list of nodes.',
  node_family_exists: 'A node family with this name exists already. Choose another name.',
  plugin_not_found: 'The node has no plugin of this name (any more). Reload the node page.',
  metric_not_found: 'The node has no history of this metric yet. It appears after the next sample.',
  alarm_not_found: 'That alarm is no longer active: someone cleared it. The list shows the active alarms.',
  alarm_state: 'The alarm changed meanwhile (someone acknowledged or cleared it). The list shows its state now.',
  bad_event_id: 'That page of alarms no longer exists. Go back to the newest alarms.',
  channel_not_found: 'That notification channel no longer exists; someone may have deleted it. Reload the page.',
  subscription_not_found: 'That subscription no longer exists; someone may have deleted it. Reload the page.',
  bad_channel:
    'The channel misses a field its type needs, or has one it does not take. Check the fields and try again.',
  bad_channel_url: 'Enter an absolute http:// or https:// URL without a user name or password in it.',
  bad_email_address: 'Each address has the form name@domain, without spaces, commas, quotes or angle brackets.',
  smtp_password_needs_tls: 'A password is sent only over STARTTLS: turn STARTTLS on, or leave user and password out.',
  address_refused:
    'The node manager may not send to this host: it is loopback, private, link-local or denied. ' +
    'Use a public address, or have the host admitted with TRIAD_NOTIFY_ALLOW.',
  body_too_large: 'That is too large for the node manager. Shorten it and try again.',
  internal: 'The node manager failed unexpectedly. Try again; if it persists, its log says why.',
};

/**
 * The sentence for a node manager reply body `{error: reason}`; undefined when the body carries
 * no reason. An unknown reason becomes "The node manager refused this (reason)." so a new code
 * still reads as a sentence.
 */
export function operatorMessage(body: unknown): string | undefined {
  const reason: unknown = typeof body === 'object' && body !== null ? Reflect.get(body, 'error') : undefined;
  if (typeof reason !== 'string' || reason === '') return undefined;
  return SENTENCES[reason] ?? `The node manager refused this (${reason.replaceAll('_', ' ')}).`;
}
