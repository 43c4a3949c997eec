import type { MigrationSet } from '@triad/db';
import { createTemplates } from './0001-create-templates.js';
import { createDevices } from './0002-create-devices.js';
import { createApiTokens } from './0003-create-api-tokens.js';
import { createWorkLeases } from './0004-create-work-leases.js';
import { createSecretKeyChecks } from './0005-create-secret-key-checks.js';
import { addDeviceAlarmAcknowledgement } from './0006-add-device-alarm-acknowledgement.js';
import { createDeviceHistory } from './0007-create-device-history.js';
import { createOpcuaCertificates } from './0008-create-opcua-certificates.js';

/** Bookkeeping table of the template service's migrations (services may share one database). */
export const TEMPLATES_MIGRATION_TABLE = 'templates_migrations';

/** Every migration of the template service, by name in run order. */
export const templatesMigrations: MigrationSet = Object.freeze({
  '0001_create_templates': createTemplates,
  '0002_create_devices': createDevices,
  '0003_create_api_tokens': createApiTokens,
  '0004_create_work_leases': createWorkLeases,
  '0005_create_secret_key_checks': createSecretKeyChecks,
  '0006_add_device_alarm_acknowledgement': addDeviceAlarmAcknowledgement,
  '0007_create_device_history': createDeviceHistory,
  '0008_create_opcua_certificates': createOpcuaCertificates,
});
