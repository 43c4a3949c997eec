import { beforeEach, expect, it } from 'vitest';
import { describeEachDatabase } from '@triad/db/testing';
import { ADMIN, resetData, useTestApp } from '../../test-support/node-manager-test-app.js';
import type { NodeManagerDatabase } from '../../repositories/node-manager-tables.js';
import type { AlarmReply } from '../../presenters/alarm-presenter.js';
import type { NodeReply } from '../../presenters/topology-presenter.js';
import type { Bookmark } from '../../repositories/bookmark-repository.js';

interface AlarmList {
  readonly alarms: AlarmReply[];
}
interface BookmarkList {
  readonly bookmarks: Bookmark[];
}
interface ErrorReply {
  readonly error: string;
}

const JSON_HEADERS = { 'content-type': 'application/json', ...ADMIN };

describeEachDatabase<NodeManagerDatabase>('node-manager alarms, bookmarks and tags', (getDb) => {
  let clock = 1_406_873_289_000;
  let nodeId = '';
  // A controllable clock: event ids, ackInfo and comment times come from it.
  const t = useTestApp(getDb, { now: () => clock, resetEachTest: false });
  beforeEach(async () => {
    clock += 3_600_000;
    await resetData(getDb(), t.core);
    nodeId = (await t.core.topology.addNode('wo_test_1@127.0.0.1', 'c')).id;
  });

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: ADMIN });
  const post = (url: string, body: unknown) =>
    t.app.inject({ method: 'POST', url, headers: JSON_HEADERS, payload: JSON.stringify(body) });
  /** The alarms a list endpoint answers. */
  const alarmsAt = async (url: string) => (await get(url)).json<AlarmList>().alarms;
  const raise = async (alarmId: string, extra: Record<string, unknown> = {}) =>
    (await t.core.alarms.raise({ alarmId, nodeId, ...extra })).alarm;

  it('lists an alarm with every field in the documented shape', async () => {
    await raise('system_memory_high_watermark', {
      additionalInformation: '<<"High total memory usage of all OS processes">>',
    });
    const [alarm] = await alarmsAt('/api/alarm');
    expect(alarm).toEqual({
      alarmId: 'system_memory_high_watermark',
      alarmType: null,
      src: { nodeId, nodeName: 'wo_test_1@127.0.0.1', custom: 'node_level', elarmServer: 'wombat' },
      eventTime: expect.any(Number) as number,
      eventId: expect.stringMatching(/^\{\d+,\d+,\d+\}$/) as string,
      severity: 'indeterminate',
      probableCause: '',
      proposedRepairAction: '',
      description: '',
      additionalInformation: '<<"High total memory usage of all OS processes">>',
      correlatedEvents: '[]',
      comments: [],
      trend: null,
      threshold: null,
      state: 'new',
      ackInfo: null,
      rawSrc: `{wo_alarm_source,"${nodeId}",'wo_test_1@127.0.0.1',\n                 node_level,wombat}`,
    });
    const [mega = NaN, sec = NaN] = (alarm?.eventId ?? '').slice(1, -1).split(',').map(Number);
    expect(alarm?.eventTime).toBe((mega * 1_000_000 + sec) * 1000);
  });

  it('lists newest first with limit 20 by default and pages backwards from eid', async () => {
    for (let i = 0; i < 25; i++) {
      clock += 1000;
      await raise(`a${i}`);
    }
    const first = await alarmsAt('/api/alarm');
    expect(first).toHaveLength(20);
    const [newest, oldest] = [first[0], first[19]];
    expect(newest?.alarmId).toBe('a24');
    expect(oldest?.alarmId).toBe('a5');
    const rest = await alarmsAt(`/api/alarm/previous/all?eid=${encodeURIComponent(oldest?.eventId ?? '')}`);
    expect(rest.map((a) => a.alarmId)).toEqual(['a4', 'a3', 'a2', 'a1', 'a0']);
    expect(await alarmsAt('/api/alarm?limit=3')).toHaveLength(3);
    expect((await get('/api/alarm?limit=0')).json<ErrorReply>()).toEqual({ error: 'invalid_request' });
    expect((await get('/api/alarm/previous/all')).json<ErrorReply>()).toEqual({ error: 'invalid_request' });
    expect((await get('/api/alarm/previous/all?eid=nonsense')).json<ErrorReply>()).toEqual({ error: 'bad_event_id' });
    const node = await alarmsAt(
      `/api/alarm/previous/node/${nodeId}?eid=${encodeURIComponent(newest?.eventId ?? '')}&limit=2`,
    );
    expect(node.map((a) => a.alarmId)).toEqual(['a23', 'a22']);
  });

  it('filters by source and by tags, and lists sources with node_level always first', async () => {
    await raise('x', { custom: 'disk', tags: ['op'] });
    await raise('y', { tags: ['dev'] });
    expect((await alarmsAt('/api/alarm?source=disk')).map((a) => a.alarmId)).toEqual(['x']);
    expect((await alarmsAt('/api/alarm?tags=dev')).map((a) => a.alarmId)).toEqual(['y']);
    expect(await alarmsAt('/api/alarm?tags=metric')).toEqual([]);
    expect((await get('/api/alarm/source')).json()).toEqual({ sources: ['node_level', 'disk'] });
    await t.core.users.setTags('admin', ['dev']);
    expect((await alarmsAt('/api/alarm')).map((a) => a.alarmId)).toEqual(['y']);
    const family = (await get(`/api/topo/node/${nodeId}`)).json<NodeReply>().node_family_id;
    expect(await alarmsAt(`/api/alarm/node-family/${family}?tags=all`)).toHaveLength(2);
    expect((await get(`/api/alarm/source/node/${nodeId}`)).json()).toEqual({ sources: ['node_level', 'disk'] });
    expect((await get('/api/alarm/node/unknown')).json<ErrorReply>()).toEqual({ error: 'node_not_found' });
  });

  it('acknowledges, unacknowledges, comments and clears by alarmId and alarmSrc', async () => {
    const alarm = await raise('node_down');
    const body = { userId: 'admin', alarmId: 'node_down', alarmSrc: alarm.rawSrc };
    expect((await post('/api/alarm/acknowledge', body)).json()).toEqual({});
    let [listed] = await alarmsAt('/api/alarm');
    expect(listed?.state).toBe('acknowledged');
    expect(listed?.ackInfo).toEqual({ user: 'admin', time: clock });
    expect((await post('/api/alarm/acknowledge', body)).json<ErrorReply>()).toEqual({ error: 'alarm_state' });
    expect((await post('/api/alarm/unacknowledge', body)).json()).toEqual({});
    expect((await post('/api/alarm/comment', { ...body, comment: 'looking' })).json()).toEqual({});
    [listed] = await alarmsAt('/api/alarm');
    expect(listed).toMatchObject({
      state: 'new',
      ackInfo: null,
      comments: [{ user: 'admin', time: clock, text: 'looking' }],
    });
    expect((await post('/api/alarm/acknowledge', { ...body, alarmSrc: 'other' })).json<ErrorReply>()).toEqual({
      error: 'alarm_not_found',
    });
    expect((await post('/api/alarm/comment', body)).json<ErrorReply>()).toEqual({ error: 'invalid_request' });
    expect((await post('/api/alarm/clear', body)).json()).toEqual({});
    expect(await alarmsAt('/api/alarm')).toEqual([]);
    expect((await post('/api/alarm/clear', body)).json<ErrorReply>()).toEqual({ error: 'alarm_not_found' });
    expect((await get('/api/topo/node-stat')).json()).toMatchObject({
      number_of_active_alarms: 0,
      number_of_new_alarms_raised_this_hour: 1,
    });
  });

  it('updates an active alarm raised again with the same id and source instead of duplicating it', async () => {
    const first = await raise('disk_almost_full', { severity: 'minor' });
    clock += 1000;
    const again = await t.core.alarms.raise({ alarmId: 'disk_almost_full', nodeId, severity: 'major' });
    expect(again.created).toBe(false);
    const alarms = await alarmsAt('/api/alarm');
    expect(alarms).toHaveLength(1);
    expect(alarms[0]).toMatchObject({ severity: 'major', eventId: expect.any(String) as string });
    expect(again.alarm.eventUs).toBe(first.eventUs);
    expect(await t.core.alarms.clear('disk_almost_full', first.rawSrc)).toBe(true);
    expect(await alarmsAt('/api/alarm')).toEqual([]);
  });

  it('shows every change in a list asked for again (cached lists are dropped on writes)', async () => {
    const first = await raise('disk_full', { tags: ['op'] });
    const ids = async () => (await alarmsAt('/api/alarm')).map((a) => `${a.alarmId}:${a.state}`);
    expect(await ids()).toEqual(['disk_full:new']);
    await post('/api/alarm/acknowledge', { userId: 'admin', alarmId: 'disk_full', alarmSrc: first.rawSrc });
    expect(await ids()).toEqual(['disk_full:acknowledged']);
    await raise('cpu_high', { tags: ['op'] });
    expect(await ids()).toEqual(['cpu_high:new', 'disk_full:acknowledged']);
    await post('/api/alarm/clear', { userId: 'admin', alarmId: 'disk_full', alarmSrc: first.rawSrc });
    expect(await ids()).toEqual(['cpu_high:new']);
  });

  it('lists again, field for field, an alarm whose stored list form is missing, and stores it anew', async () => {
    const alarm = await raise('node_down', { tags: ['op'] });
    await post('/api/alarm/acknowledge', { userId: 'admin', alarmId: 'node_down', alarmSrc: alarm.rawSrc });
    await post('/api/alarm/comment', {
      userId: 'admin',
      alarmId: 'node_down',
      alarmSrc: alarm.rawSrc,
      comment: 'on it',
    });
    const stored = (await get('/api/alarm')).json<AlarmList>();
    expect(stored.alarms[0]).toMatchObject({ state: 'acknowledged', comments: [{ text: 'on it' }] });
    // As rows written before migration 0002 are: no list form yet.
    await getDb().db.updateTable('nm_alarms').set({ list_json: null }).execute();
    t.core.alarmStore.forgetCachedReads(); // the rows changed behind the repository's back
    expect((await get('/api/alarm')).json()).toEqual(stored);
    const row = await getDb().db.selectFrom('nm_alarms').select('list_json').executeTakeFirstOrThrow();
    expect(JSON.parse(row.list_json ?? 'null')).toEqual(stored.alarms[0]);
  });

  it('builds at start-up the list form of alarms stored without one, in batches', async () => {
    for (const id of ['a1', 'a2', 'a3']) await raise(id);
    const listed = (await get('/api/alarm')).json<AlarmList>();
    await getDb().db.updateTable('nm_alarms').set({ list_json: null }).execute();
    expect(await t.core.alarmStore.presentMissing(2)).toBe(3);
    const rows = await getDb().db.selectFrom('nm_alarms').select('list_json').orderBy('event_us', 'desc').execute();
    expect(rows.map((r): unknown => JSON.parse(r.list_json ?? 'null'))).toEqual(listed.alarms);
    expect(await t.core.alarmStore.presentMissing()).toBe(0);
  });

  it('lists the custom tags that raised alarms carry among the known tags', async () => {
    await raise('disk_full', { tags: ['op', 'storage'] });
    expect((await get('/api/tags')).json()).toEqual(['alarm', 'dev', 'metric', 'op', 'storage']);
    await raise('disk_full', { tags: ['Network'] });
    await raise('cpu_high');
    expect((await get('/api/tags')).json()).toEqual(['Network', 'alarm', 'dev', 'metric', 'op', 'storage']);
  });

  it('publishes alarm changes to subscribers', async () => {
    const seen: string[] = [];
    const stop = t.core.events.subscribe((e) => seen.push(e.type === 'alarm' ? e.action : e.type));
    const alarm = await raise('x');
    await post('/api/alarm/acknowledge', { userId: 'a', alarmId: 'x', alarmSrc: alarm.rawSrc });
    stop();
    expect(seen).toEqual(['raised', 'acknowledged']);
  });

  it('keeps bookmarks as a set keyed by title and answers each verb with the full set', async () => {
    const send = (method: 'PUT' | 'POST' | 'DELETE', bookmarks: unknown) =>
      t.app.inject({ method, url: '/api/bookmark', headers: JSON_HEADERS, payload: JSON.stringify({ bookmarks }) });
    expect((await send('PUT', [{ title: 'A', url: '/a' }])).json()).toEqual({ bookmarks: [{ title: 'A', url: '/a' }] });
    expect(
      (
        await send('PUT', [
          { title: 'A', url: '/changed' },
          { title: 'B', url: '/b' },
        ])
      ).json<BookmarkList>().bookmarks,
    ).toEqual([
      { title: 'A', url: '/a' },
      { title: 'B', url: '/b' },
    ]);
    expect((await send('POST', [{ title: 'A', url: '/a2' }])).json<BookmarkList>().bookmarks[0]).toEqual({
      title: 'A',
      url: '/a2',
    });
    expect((await send('DELETE', [{ title: 'A' }])).json()).toEqual({ bookmarks: [{ title: 'B', url: '/b' }] });
    expect((await send('PUT', [{ title: 'C' }])).json<ErrorReply>()).toEqual({ error: 'invalid_request' });
    expect((await get('/api/bookmark')).json()).toEqual({ bookmarks: [{ title: 'B', url: '/b' }] });
  });

  it('knows built-in and custom tags and sets per-user tags or all', async () => {
    expect((await get('/api/tags')).json()).toEqual(['alarm', 'dev', 'metric', 'op']);
    expect((await get('/api/tags/user')).json()).toBe('all');
    const set = await post('/api/tags/user', { UserName: 'admin', tags: ['dev', 'CustomTag'] });
    expect(set.json()).toBe('ok');
    expect((await get('/api/tags/user/admin')).json()).toEqual(['dev', 'CustomTag']);
    expect((await get('/api/tags')).json()).toEqual(['CustomTag', 'alarm', 'dev', 'metric', 'op']);
    expect((await post('/api/tags/user', { UserName: 'admin', tags: 'all' })).json()).toBe('ok');
    expect((await get('/api/tags/user/admin')).json()).toBe('all');
    expect((await get('/api/tags/user/ghost')).json<ErrorReply>()).toEqual({ error: 'user_not_found' });
    expect((await post('/api/tags/user', { UserName: 'admin', tags: 'some' })).json<ErrorReply>()).toEqual({
      error: 'invalid_request',
    });
  });
});
