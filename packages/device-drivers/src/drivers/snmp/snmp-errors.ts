/**
 * What net-snmp reports, as `DriverError`s an operator can act on. SNMP over UDP has no
 * connection: an agent that is down, a wrong address and (v1/v2c) a wrong community all look the
 * same, an unanswered request, so the timeout message names every cause. SNMPv3 agents answer a
 * wrong user or password with usmStats reports, which become `authentication` errors naming
 * what is wrong. Messages never hold a community or a password.
 */
import snmp from 'net-snmp';
import { DriverError, toDriverError } from '../../driver-error.js';
import type { SnmpSettings } from './snmp-settings.js';

interface LibraryError {
  readonly name?: unknown;
  readonly message?: unknown;
  readonly code?: unknown;
  readonly status?: unknown;
}

export function snmpDriverError(error: unknown, settings: SnmpSettings): DriverError {
  if (error instanceof DriverError) return error;
  const err = (typeof error === 'object' && error !== null ? error : {}) as LibraryError;
  const message = typeof err.message === 'string' ? err.message : String(error);
  const agent = `SNMP agent ${settings.address}:${settings.port}`;
  const user = settings.v3 === undefined ? '' : `SNMPv3 user "${settings.v3.user}"`;
  if (err.name === 'RequestTimedOutError') {
    const attempts = settings.retries + 1;
    const waited = `${attempts} attempt${attempts === 1 ? '' : 's'} of ${settings.timeoutMs} ms`;
    const causes =
      settings.v3 === undefined
        ? `the agent is down, the address or port is wrong, or it does not accept the read community ` +
          `(v${settings.version} agents silently drop requests with an unknown community)`
        : `the agent is down, the address or port is wrong, or the privacy password or algorithm ` +
          `(${settings.v3.privacyAlgorithm}) of ${user} is wrong`;
    return new DriverError('timeout', `${agent}: no answer after ${waited}: ${causes}`, { cause: error });
  }
  if (err.name === 'ResponseInvalidError') {
    if (err.code === snmp.ResponseInvalidCode.EAuthFailure)
      return new DriverError('authentication', `${agent}: ${usmProblem(message, settings, user)}`, { cause: error });
    if (err.code === snmp.ResponseInvalidCode.ECouldNotDecrypt)
      return new DriverError(
        'authentication',
        `${agent}: cannot decrypt the answer for ${user}: check the privacy password and algorithm ` +
          `(${settings.v3?.privacyAlgorithm ?? 'none'})`,
        { cause: error },
      );
    // No cause: net-snmp's message quotes both communities.
    if (err.code === snmp.ResponseInvalidCode.ECommunityNoMatch)
      return new DriverError('protocol', `${agent}: the answer carries another community than the request`);
    return new DriverError('protocol', `${agent}: invalid answer: ${message}`, { cause: error });
  }
  if (err.name === 'RequestFailedError') {
    if (err.status === snmp.ErrorStatus.AuthorizationError || err.status === snmp.ErrorStatus.NoAccess)
      return new DriverError(
        'authentication',
        settings.v3 === undefined
          ? `${agent}: the agent refuses the read community access (${message})`
          : `${agent}: the agent refuses ${user} at security level ${settings.v3.level} (${message}); ` +
              `check the user's access rights and level on the agent`,
        { cause: error },
      );
    return new DriverError('protocol', `${agent}: the agent answered with the error ${message}`, { cause: error });
  }
  if (/socket forcibly closed/i.test(message))
    return new DriverError('protocol', `${agent}: the request was cancelled`, { cause: error });
  return toDriverError(error, agent);
}

/** The usmStats report net-snmp names in `message`, in words. */
function usmProblem(message: string, settings: SnmpSettings, user: string): string {
  const v3 = settings.v3;
  if (/unknown user/i.test(message)) return `the agent does not know ${user} (usmStatsUnknownUserNames)`;
  if (/wrong digest/i.test(message))
    return (
      `wrong authentication password or algorithm (${v3?.authAlgorithm ?? 'none'}) for ${user} ` +
      `(usmStatsWrongDigests)`
    );
  if (/decryption/i.test(message))
    return (
      `wrong privacy password or algorithm (${v3?.privacyAlgorithm ?? 'none'}) for ${user} ` +
      `(usmStatsDecryptionErrors)`
    );
  if (/security level/i.test(message))
    return (
      `the agent does not allow ${user} at security level ${v3?.level ?? 'noAuthNoPriv'} ` +
      `(usmStatsUnsupportedSecLevels)`
    );
  if (/time window/i.test(message)) return `the agent's clock and ours disagree for ${user} (usmStatsNotInTimeWindows)`;
  if (/engine id/i.test(message)) return `the agent does not accept our engine ID (usmStatsUnknownEngineIDs)`;
  return `authentication of ${user} failed: ${message}`;
}

/** An error status the agent answered a request with (`noSuchName`, `tooBig`...), and the OID it names. */
export interface AgentErrorStatus {
  readonly status: snmp.ErrorStatus;
  readonly oid: string | undefined;
}

/** The agent's error status behind a failed request, or `undefined` when the failure was not an answer. */
export function agentErrorStatus(error: unknown): AgentErrorStatus | undefined {
  const cause = error instanceof DriverError ? error.cause : error;
  const err = (typeof cause === 'object' && cause !== null ? cause : {}) as LibraryError;
  if (err.name !== 'RequestFailedError' || typeof err.status !== 'number') return undefined;
  if (err.status === snmp.ErrorStatus.AuthorizationError || err.status === snmp.ErrorStatus.NoAccess) return undefined;
  // net-snmp writes "<status name>: <oid>" when the answer's error index names a varbind.
  const oid = typeof err.message === 'string' ? /: (\d+(?:\.\d+)*)$/.exec(err.message)?.[1] : undefined;
  return { status: err.status as snmp.ErrorStatus, oid };
}
