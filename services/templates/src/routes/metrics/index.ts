import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ProblemError } from '@triad/service-kit';
import type { AccessPolicy } from '../../policies/access-policy.js';
import type { TrapReceiverStats } from '@triad/device-drivers';
import { presentTrapMetrics } from '../../presenters/trap-metrics-presenter.js';
import {
  presentDeviceMetrics,
  type MetricsDevice,
  type MetricsHistoryStats,
} from '../../presenters/device-metrics-presenter.js';

export interface MetricsRoutesOptions {
  /** Renders the process and HTTP metrics (service-kit `prometheusMetrics`' `exportTo`). */
  readonly serviceMetrics: () => Promise<string>;
  /** The devices collected here with their current values. */
  readonly devices: () => Iterable<MetricsDevice>;
  readonly history: () => MetricsHistoryStats | undefined;
  /** The SNMP trap receiver's counts (`triad_snmp_notifications_total`); undefined while it is off. */
  readonly snmpTraps?: () => TrapReceiverStats | undefined;
  readonly maxSeries: number;
  /** Device values are shown only to a request that may read devices. */
  readonly access: Pick<AccessPolicy, 'require'>;
}

/**
 * `GET /metrics`: the process and HTTP metrics, then the current device values collected by this
 * instance (`presentDeviceMetrics`) when the request may read devices (`TRIAD_DEVICES_READ_ACCESS=open`,
 * or a bearer token of scope read or more, e.g. Prometheus' `authorization` setting); without
 * that right the answer holds the rest, so a scrape never fails for it.
 */
export function metricsRoutes(app: FastifyInstance, options: MetricsRoutesOptions, done: (error?: Error) => void) {
  app.get(
    '/metrics',
    {
      logLevel: 'warn',
      schema: {
        tags: ['health'],
        operationId: 'getMetrics',
        summary: 'Prometheus metrics',
        description:
          'Process metrics, HTTP request counts and durations by route and status, and, for a caller who may ' +
          'read devices, `triad_device_value{device,name,set,datapoint,row}`: the current numeric and boolean ' +
          '(0/1) device values collected by this instance (at most TRIAD_DEVICE_METRICS_MAX_SERIES); and, with ' +
          'TRIAD_SNMP_TRAP_PORT set, `triad_snmp_notifications_total{outcome}` (taken, unknown_source, ' +
          'wrong_credentials, too_large, rate_limited, malformed). In the Prometheus text exposition format 0.0.4.',
        security: [],
        response: {
          200: { description: 'The metrics', content: { 'text/plain': { schema: { type: 'string' } } } },
        },
      },
    },
    async (request, reply) => {
      const service = await options.serviceMetrics();
      const devices = (await mayReadDevices(options.access, request))
        ? presentDeviceMetrics(options.devices(), options.maxSeries, options.history())
        : '';
      const traps = presentTrapMetrics(options.snmpTraps?.());
      return reply.type('text/plain; version=0.0.4; charset=utf-8').send(service + traps + devices);
    },
  );
  done();
}

async function mayReadDevices(access: Pick<AccessPolicy, 'require'>, request: FastifyRequest): Promise<boolean> {
  try {
    await access.require(request, 'read', 'devices');
    return true;
  } catch (error) {
    if (error instanceof ProblemError) return false;
    throw error;
  }
}
