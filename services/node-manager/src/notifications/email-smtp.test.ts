import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import { waitFor } from '@triad/device-drivers/testing';
import type { NodeManagerDatabase } from '../repositories/node-manager-tables.js';
import { ADMIN, resetData, useTestApp } from '../test-support/node-manager-test-app.js';
import {
  AIOSMTPD_INSTALL,
  aiosmtpdAvailable,
  startSmtpServer,
  type SmtpTestServer,
} from '../test-support/smtp-test-server.js';

const JSON_HEADERS = { 'content-type': 'application/json', ...ADMIN };
const SMTP_USER = 'triad';
const SMTP_PASSWORD = 'smtp-Secret-4711';

interface Attempt {
  readonly ok: boolean;
  readonly reply: string | null;
  readonly error: string | null;
}

/** A real SMTP server, or (absent) a skip saying what to install; with TRIAD_REQUIRE_SERVICES=1 (CI) a failure. */
function describeWithSmtp(title: string, body: () => void): void {
  if (aiosmtpdAvailable()) {
    describe(title, body);
    return;
  }
  const reason = `python3-aiosmtpd not found: ${AIOSMTPD_INSTALL}`;
  if (process.env['TRIAD_REQUIRE_SERVICES'] === '1') {
    describe(title, () => {
      it('requires python3-aiosmtpd because TRIAD_REQUIRE_SERVICES=1', () => {
        throw new Error(reason);
      });
    });
    return;
  }
  describe.skip(`${title} (skipped: ${reason})`, body);
}

describeWithSmtp('e-mail notifications through a real SMTP server (STARTTLS, AUTH)', () => {
  let smtp: SmtpTestServer;
  beforeAll(async () => {
    smtp = await startSmtpServer(SMTP_USER, SMTP_PASSWORD);
  });
  afterAll(async () => {
    await smtp?.close();
  });

  describeEachDatabase<NodeManagerDatabase>('node manager', (getDb) => {
    const t = useTestApp(getDb, {
      overrides: { notifyAllow: '127.0.0.1', notifyTimeoutMs: 5_000 },
      resetEachTest: false,
    });
    let nodeId = '';
    beforeEach(async () => {
      await resetData(getDb(), t.core);
      nodeId = (await t.core.topology.addNode('mail_1@127.0.0.1', 'c')).id;
    });

    const emailChannel = async (extra: Record<string, unknown>) => {
      const body = {
        type: 'email',
        host: '127.0.0.1',
        port: smtp.port,
        user: SMTP_USER,
        password: SMTP_PASSWORD,
        from: 'triad@example.com',
        to: ['ops@example.com', 'oncall@example.com'],
        ca: smtp.ca,
        ...extra,
      };
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/notifications/channels',
        headers: JSON_HEADERS,
        payload: JSON.stringify(body),
      });
      expect(response.statusCode, response.body).toBe(200);
      const { id } = response.json<{ id: string }>();
      const subscribed = await t.app.inject({
        method: 'POST',
        url: '/api/notifications/subscriptions',
        headers: JSON_HEADERS,
        payload: JSON.stringify({ channelId: id }),
      });
      expect(subscribed.statusCode).toBe(200);
      return id;
    };
    const attemptsOf = async (channelId: string) => {
      const reply = await t.app.inject({
        method: 'GET',
        url: `/api/notifications/deliveries?channelId=${channelId}`,
        headers: ADMIN,
      });
      expect(reply.body).not.toContain(SMTP_PASSWORD);
      return reply.json<{ deliveries: { status: string; attempts: Attempt[] }[] }>().deliveries;
    };
    const deliver = async () => {
      await t.core.notifications.enqueuer.idle();
      await t.core.notifications.worker.runOnce();
    };

    it('mails a raise, an acknowledgement and a clear over STARTTLS after AUTH', async () => {
      const before = smtp.messages().length;
      const channelId = await emailChannel({});
      const { alarm } = await t.core.alarms.raise({
        alarmId: 'smtp_alarm',
        nodeId,
        severity: 'major',
        description: 'Mailbox is full',
      });
      await t.core.alarms.acknowledge({ alarmId: alarm.alarmId, alarmSrc: alarm.rawSrc, user: 'admin' });
      await t.core.alarms.clearByUser({ alarmId: alarm.alarmId, alarmSrc: alarm.rawSrc, user: 'admin' });
      await deliver();
      const deliveries = await attemptsOf(channelId);
      expect(deliveries.map((d) => d.status)).toEqual(['delivered', 'delivered', 'delivered']);
      expect(deliveries[0]!.attempts[0]!.reply).toMatch(/^250 /);
      // The server prints each mail as it accepts it; the pipe may bring the lines a moment later.
      await waitFor(() => smtp.messages().length >= before + 3, 5_000, 'the three mails');
      const mails = smtp.messages().slice(before);
      expect(mails).toHaveLength(3);
      for (const mail of mails) {
        expect(mail).toMatchObject({ from: 'triad@example.com', tls: true, authenticated: true });
        expect([...mail.to].sort()).toEqual(['oncall@example.com', 'ops@example.com']);
      }
      // Long headers arrive folded over several lines.
      const subjects = mails.map((mail) => /^Subject: (.*)$/m.exec(mail.data.replace(/\r?\n(?=[ \t])/g, ''))?.[1]);
      subjects.sort();
      expect(subjects).toEqual([
        '[Triad] [MAJOR] smtp_alarm acknowledged by admin on mail_1@127.0.0.1: Mailbox is full',
        '[Triad] [MAJOR] smtp_alarm cleared on mail_1@127.0.0.1: Mailbox is full',
        '[Triad] [MAJOR] smtp_alarm raised on mail_1@127.0.0.1: Mailbox is full',
      ]);
      expect(mails.map((mail) => mail.data).join('\n')).not.toContain(SMTP_PASSWORD);
    });

    it("records the server's refusal of a wrong password, without the password", async () => {
      const channelId = await emailChannel({ password: 'wrong-password-1' });
      await t.core.alarms.raise({ alarmId: 'smtp_denied', nodeId, severity: 'minor' });
      await deliver();
      const [delivery] = await attemptsOf(channelId);
      expect(delivery!.status).toBe('pending');
      expect(delivery!.attempts[0]).toMatchObject({ ok: false, reply: expect.stringMatching(/^535 /) as string });
      expect(JSON.stringify(delivery)).not.toContain('wrong-password-1');
    });

    it('refuses a server whose certificate it cannot verify', async () => {
      // No `ca`: the throwaway CA that signed the server's certificate is not trusted.
      const channelId = await emailChannel({ ca: undefined });
      await t.core.alarms.raise({ alarmId: 'smtp_untrusted', nodeId, severity: 'minor' });
      await deliver();
      const [delivery] = await attemptsOf(channelId);
      expect(delivery!.attempts[0]!.ok).toBe(false);
      expect(delivery!.attempts[0]!.error).toMatch(/certificate/i);
    });
  });
});
