/**
 * The device address policy of this service (docs/devices.md, "Where devices may be"): the
 * operator's allow and deny lists, and Triad's own service ports on this host, which are the
 * configured ones (`TRIAD_DEVICES_SERVICE_PORTS`, this service's port) plus the ports the services
 * started with it actually listen on, read at each check.
 */
import { networkInterfaces } from 'node:os';
import type { Server } from 'node:net';
import { AddressPolicy, parseAddressList } from '@triad/device-drivers';
import type { ConsoleLink } from '@triad/service-kit';
import { servicePorts, type TemplatesConfig } from '../config.js';

export function devicePolicy(
  config: Pick<TemplatesConfig, 'devicesAllow' | 'devicesDeny' | 'devicesServicePorts' | 'port'>,
  app?: { readonly server: Pick<Server, 'address'> },
  consoleLinks?: () => readonly ConsoleLink[],
): AddressPolicy {
  const configured = [...servicePorts(config), ...(config.port > 0 ? [config.port] : [])];
  return new AddressPolicy({
    allow: parseAddressList(config.devicesAllow).list,
    deny: parseAddressList(config.devicesDeny).list,
    ownPorts: () => {
      const ports = new Set(configured);
      const listening = app?.server.address();
      if (typeof listening === 'object' && listening !== null) ports.add(listening.port);
      for (const link of consoleLinks?.() ?? []) {
        const port = Number(new URL(link.url).port);
        if (port > 0) ports.add(port);
      }
      return ports;
    },
    ownAddresses: () =>
      Object.values(networkInterfaces()).flatMap((addresses) => (addresses ?? []).map((entry) => entry.address)),
  });
}
