// Live statuses on the home, children and computers pages (issue 9): what one open dashboard costs
// the server per minute if it polls, against a server-sent event stream that pushes a change.
//   npx tsx scripts/measure-live-status.ts
// Runs the real server in-process (app.inject) on a fresh SQLite database with a family like the
// demo's: 2 children, 3 Macs online, 1,000 activity items, 3 pending unlock requests.
// Polling: the page re-reads DashboardWidgets (home) or GetUsers (children) every 5 s = 12 calls a
// minute. SSE: the server would have to re-read the same statuses every 5 s per open stream
// (presence ages out after 100 s without any write, so there is no event to listen to; across
// instances a heartbeat lands on any one of them) and send only changes plus a keep-alive comment
// every 25 s.
import { randomUUID } from 'node:crypto';
import { computerUserStatuses } from '../apps/server/src/devices/status.ts';
import { toDbBool, toDbJson, toDbTime } from '../apps/server/src/db/values.ts';
import { ownedComputerUsersByChild } from '../apps/server/src/operations/ownership.ts';
import { createTestServer } from '../apps/server/test/harness.ts';

const MINUTE_CALLS = 12;
const MINUTES = 5;

const server = await createTestServer();
const parent = await server.signUpVerifiedParent();
const now = server.clock.now();
const iso = (ms: number) => toDbTime(new Date(now.getTime() - ms));
const computerUserIds: string[] = [];
for (const [childIndex, name] of ['Sam', 'Kim'].entries()) {
  const childId = randomUUID();
  await server.db
    .insertInto('children')
    .values({
      id: childId,
      parent_id: parent.adminId,
      name,
      keylogging_enabled: 1,
      screenshots_enabled: 1,
      screenshots_resolution: 1000,
      screenshots_frequency: 60,
      show_suspension_activity: 0,
      downtime: null,
      created_at: iso(childIndex),
      updated_at: iso(0),
    })
    .execute();
  for (let mac = 0; mac < (childIndex === 0 ? 1 : 2); mac += 1) {
    const computerId = randomUUID();
    const computerUserId = randomUUID();
    await server.db
      .insertInto('computers')
      .values({
        id: computerId,
        parent_id: parent.adminId,
        custom_name: `${name}'s Mac ${mac}`,
        model_identifier: 'MacBookAir10,1',
        serial_number: `SER${randomUUID().slice(0, 8)}`,
        app_release_channel: 'stable',
        filter_version: null,
        os_version: null,
        created_at: iso(0),
        updated_at: iso(0),
      })
      .execute();
    await server.db
      .insertInto('computer_users')
      .values({
        id: computerUserId,
        child_id: childId,
        computer_id: computerId,
        app_version: '2.4.0',
        username: name.toLowerCase(),
        full_username: name,
        numeric_id: 501 + mac,
        is_admin: toDbBool(false),
        created_at: iso(0),
        updated_at: iso(0),
      })
      .execute();
    await server.db
      .insertInto('device_presence')
      .values({
        computer_user_id: computerUserId,
        last_seen_at: iso(0),
        filter_state: toDbJson({ case: 'on' }),
        connection_id: null,
        instance_id: null,
      })
      .execute();
    computerUserIds.push(computerUserId);
  }
}
for (let i = 0; i < 1000; i += 1) {
  const computerUserId = computerUserIds[i % computerUserIds.length]!;
  if (i % 2 === 0) {
    await server.db
      .insertInto('screenshots')
      .values({
        id: randomUUID(),
        computer_user_id: computerUserId,
        ios_device_id: null,
        object_key: `test-screenshots/${computerUserId}/${i}--x.jpg`,
        width: 1280,
        height: 800,
        filter_suspended: 0,
        flagged: null,
        created_at: iso(i * 60_000),
        deleted_at: null,
        // stored: a screenshot counts once its image is (issue 19)
        upload_started_at: iso(i * 60_000),
        uploaded_at: iso(i * 60_000),
      })
      .execute();
  } else {
    await server.db
      .insertInto('keystroke_lines')
      .values({
        id: randomUUID(),
        computer_user_id: computerUserId,
        app_name: i % 3 === 0 ? 'Notes' : 'Safari',
        line: 'some typed text',
        filter_suspended: 0,
        flagged: null,
        created_at: iso(i * 60_000),
        deleted_at: null,
      })
      .execute();
  }
}
for (let i = 0; i < 3; i += 1) {
  await server.db
    .insertInto('unlock_requests')
    .values({
      id: randomUUID(),
      computer_user_id: computerUserIds[0]!,
      status: 'pending',
      app_bundle_id: 'com.apple.Safari',
      url: null,
      hostname: `site${i}.example.com`,
      ip_address: null,
      request_comment: 'please',
      response_comment: null,
      created_at: iso(i * 1000),
      updated_at: iso(i * 1000),
    })
    .execute();
}

async function measure(label: string, calls: number, run: () => Promise<number>) {
  for (let i = 0; i < 5; i += 1) await run(); // warm up
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  let bytes = 0;
  for (let i = 0; i < calls; i += 1) bytes += await run();
  const cpu = process.cpuUsage(cpuBefore);
  const perMinute = (value: number) => (value / calls) * MINUTE_CALLS;
  return {
    label,
    cpuMsPerMinute: perMinute((cpu.user + cpu.system) / 1000),
    wallMsPerCall: (performance.now() - started) / calls,
    requestsPerMinute: label.startsWith('SSE') ? 0 : MINUTE_CALLS,
    bytesPerMinute: perMinute(bytes),
  };
}

const headersBytes = (headers: Record<string, unknown>) =>
  Object.entries(headers).reduce((sum, [k, v]) => sum + k.length + String(v).length + 4, 0);
const REQUEST_OVERHEAD = 420; // request line + typical browser headers of one POST, measured in Chromium

const poll = (op: string) => async () => {
  const response = await server.app.inject({
    method: 'POST',
    url: `/pairql/dashboard/${op}`,
    headers: { 'content-type': 'application/json', 'x-admintoken': parent.token },
  });
  if (response.statusCode !== 200) throw new Error(`${op}: ${response.statusCode}`);
  return REQUEST_OVERHEAD + headersBytes(response.headers) + response.rawPayload.length;
};

// One SSE tick: the family's computer users and their statuses, compared with the last ones sent.
let lastSent = '';
let ticks = 0;
const sseTick = async () => {
  ticks += 1;
  const rows = await ownedComputerUsersByChild(server.db, parent.adminId);
  const statuses = await computerUserStatuses(
    server.db,
    rows.map((row) => row.computerUserId),
    server.clock.now(),
  );
  const payload = JSON.stringify([...statuses]);
  let bytes = 0;
  // one status change a minute (generous), and a keep-alive comment every 25 s (5 ticks)
  if (payload !== lastSent || ticks % MINUTE_CALLS === 0) bytes += `data: ${payload}\n\n`.length;
  if (ticks % 5 === 0) bytes += ': keep-alive\n\n'.length;
  lastSent = payload;
  return bytes;
};

const results = [
  await measure(
    'polling DashboardWidgets (home)',
    MINUTE_CALLS * MINUTES,
    poll('DashboardWidgets'),
  ),
  await measure('polling GetUsers (children page)', MINUTE_CALLS * MINUTES, poll('GetUsers')),
  await measure('SSE: server-side status check every 5 s', MINUTE_CALLS * MINUTES, sseTick),
];
console.table(
  results.map((r) => ({
    what: r.label,
    'server CPU ms/min': r.cpuMsPerMinute.toFixed(1),
    'ms per call': r.wallMsPerCall.toFixed(2),
    'requests/min': r.requestsPerMinute,
    'bytes/min': Math.round(r.bytesPerMinute),
  })),
);
await server.close();
