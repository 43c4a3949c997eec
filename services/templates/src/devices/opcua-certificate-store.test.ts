import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import { createStarterTemplate } from '@triad/device-templates';
import { startOpcuaServer, type OpcuaTestServer } from '@triad/device-drivers/testing';
import { SECRET_KEY_BYTES, SecretCipher } from '@triad/service-kit';
import type { TemplatesDatabase } from '../repositories/templates-tables.js';
import { OpcuaCertificateRepository } from '../repositories/opcua-certificate-repository.js';
import { buildTestApp } from '../test-support/templates-test-app.js';
import { DEVICE_SECRET } from './device-secrets.js';
import { OpcuaCertificateStore } from './opcua-certificate-store.js';

const sha1 = (der: Buffer) => createHash('sha1').update(der).digest('hex');

/** SHA-1 thumbprints of the client certificates the server accepted (its PKI's trusted folder). */
function acceptedByServer(server: OpcuaTestServer): string[] {
  const folder = join(server.pkiDir, 'server', 'trusted', 'certs');
  return readdirSync(folder).map((file) => {
    const bytes = readFileSync(join(folder, file));
    const text = bytes.toString('latin1');
    if (!text.includes('-----BEGIN CERTIFICATE-----')) return sha1(bytes);
    const base64 = text.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
    return sha1(Buffer.from(base64, 'base64'));
  });
}

function pemThumbprint(pem: string): string {
  return sha1(Buffer.from(pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, ''), 'base64'));
}

describeEachDatabase<TemplatesDatabase>('OPC UA certificates kept in the database across restarts', (getDb) => {
  let server: OpcuaTestServer;
  let app: FastifyInstance | undefined;
  const cipher = new SecretCipher([randomBytes(SECRET_KEY_BYTES)], DEVICE_SECRET);
  beforeAll(async () => {
    server = await startOpcuaServer();
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await server?.stop();
  });

  const productName = async (id: string) =>
    (await app!.inject(`/devices/${id}/values`))
      .json<{ values: { datapointId: string; value: unknown }[] }>()
      .values.find((v) => v.datapointId === 'productName')?.value;

  it('presents the same client certificate after a restart, its key sealed in the database', async () => {
    app = await buildTestApp(getDb(), {}, { cipher });
    const stored = await app.inject({
      method: 'POST',
      url: '/templates',
      payload: createStarterTemplate('opcua', { templateId: 'Any OPC UA' }),
    });
    expect(stored.statusCode).toBe(201);
    const created = await app.inject({
      method: 'POST',
      url: '/devices',
      payload: {
        name: 'test server',
        templateId: 'Any OPC UA',
        templateVersion: '1.0.0',
        variables: { OPCUA_EndpointUrl: server.endpointUrl },
        drivers: { 'svc-ds-drv-opcua': { securityMode: 'SignAndEncrypt', securityPolicy: 'Basic256Sha256' } },
      },
    });
    expect(created.statusCode).toBe(201);
    const { id } = created.json<{ id: string }>();
    await expect.poll(() => productName(id), { timeout: 20_000 }).toBe('Triad test server');
    const row = await getDb().db.selectFrom('opcua_client_certificates').selectAll().executeTakeFirstOrThrow();
    expect(row.private_key_sealed).toMatch(/^enc:v1:/);
    expect(JSON.stringify(row)).not.toContain('PRIVATE KEY');
    const ours = pemThumbprint(row.certificate_pem);
    expect(acceptedByServer(server)).toEqual([ours]);
    const trusted = await getDb().db.selectFrom('opcua_trusted_servers').selectAll().execute();
    expect(trusted.map((t) => [t.endpoint, t.thumbprint])).toEqual([[server.endpointUrl, sha1(server.certificate())]]);
    // Nothing the API answers carries the key.
    const device = await app.inject(`/devices/${id}`);
    expect(device.body).not.toContain('PRIVATE KEY');

    await app.close();
    app = await buildTestApp(getDb(), {}, { cipher });
    await expect.poll(() => productName(id), { timeout: 20_000 }).toBe('Triad test server');
    // The server saw no second certificate: the restarted service presented the stored one.
    expect(acceptedByServer(server)).toEqual([ours]);
    const rows = await getDb().db.selectFrom('opcua_client_certificates').select('name').execute();
    expect(rows).toEqual([{ name: 'default' }]);
  }, 60_000);

  it('refuses, after a restart, a server certificate other than the one trusted first', async () => {
    const store = new OpcuaCertificateStore({ repository: new OpcuaCertificateRepository(getDb()), cipher });
    await expect(store.trust.check(server.endpointUrl, sha1(server.certificate()))).resolves.toEqual({
      trusted: true,
    });
    await expect(store.trust.check(server.endpointUrl, 'ab'.repeat(20))).resolves.toEqual({
      trusted: false,
      expected: sha1(server.certificate()),
    });
    // A new endpoint is trusted on first use, and remembered.
    await expect(store.trust.check('opc.tcp://10.0.0.9:4840', 'cd'.repeat(20))).resolves.toEqual({ trusted: true });
    const again = new OpcuaCertificateStore({ repository: new OpcuaCertificateRepository(getDb()), cipher });
    await expect(again.trust.check('opc.tcp://10.0.0.9:4840', 'ef'.repeat(20))).resolves.toMatchObject({
      trusted: false,
    });
  });

  it('opens no stored key with another service key', async () => {
    const other = new SecretCipher([randomBytes(SECRET_KEY_BYTES)], DEVICE_SECRET);
    const store = new OpcuaCertificateStore({ repository: new OpcuaCertificateRepository(getDb()), cipher: other });
    await expect(store.keyPair()).rejects.toThrow(/OPC UA client private key/);
  });
});
