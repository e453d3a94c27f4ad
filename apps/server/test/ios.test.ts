import type { BlockRule } from '@keyward/contract/shared';
import { blockRuleProblem } from '@keyward/domain/block-rules';
import { describe, expect, test } from 'vitest';
import { IOS_APP_BLOCK_GROUPS } from '@keyward/contract/ios';
import { IOS_BLOCK_GROUPS } from '../src/db/migrations/0005_ios_block_groups.ts';
import {
  IOS_APP_BLOCK_GROUP_IDS,
  IOS_APP_BLOCK_GROUPS_ADDED,
  IOS_GIF_RULES_ADDED,
} from '../src/db/migrations/0016_ios_app_block_groups.ts';
import { fromDbJson } from '../src/db/values.ts';
import { notificationsDelivered } from '../src/notifications/child-writes.ts';
import { newToken } from '../src/services/tokens.ts';
import { addChild, addConnectionCode, securityEvents, serverWithParents } from './fixtures.ts';
import type { TestServer } from './harness.ts';

// The iOS device API (server-behaviour §5) and the parent's iOS operations (§3.11), on the real
// database. Another parent's devices and rules are refused exactly like missing ones. The device's
// answers are in the iOS app's wire forms (contract ios.ts): synthesized enum cases.

const { server, alice, bob } = await serverWithParents();

const ipad = (overrides: Record<string, unknown> = {}) => ({
  vendorId: newToken(),
  deviceType: 'iPad',
  appVersion: '1.5.0',
  iosVersion: '17.5',
  ...overrides,
});

function ios(s: TestServer, op: string, input: unknown, token?: string) {
  return s.call(op, input, { namespace: 'ios-app', token });
}

async function connectIpad(parentId: string, device = ipad()) {
  const childId = await addChild(server, parentId);
  const code = await addConnectionCode(server, childId);
  const result = await ios(server, 'ConnectDevice', { verificationCode: code, ...device });
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return {
    childId,
    device,
    token: result.body.token as string,
    deviceId: result.body.deviceId as string,
  };
}

const blockYoutube: BlockRule = { case: 'targetContains', value: 'youtube.com' };

/** Every group of the catalogue: 0005's, then the iOS app's groups 0016 added. */
const ALL_GROUPS = [...IOS_BLOCK_GROUPS, ...IOS_APP_BLOCK_GROUPS_ADDED];
const ALL_GROUP_RULES =
  ALL_GROUPS.reduce((n, g) => n + g.rules.length, 0) + IOS_GIF_RULES_ADDED.length;

describe('the block-group catalogue', () => {
  test('every group stored, every seeded rule valid', async () => {
    expect(ALL_GROUPS.length).toBe(16);
    const groups = await server.db.selectFrom('ios_block_groups').select(['id', 'name']).execute();
    expect(groups.map((g) => g.id).sort()).toEqual(ALL_GROUPS.map((g) => g.id).sort());
    expect(new Set(groups.map((g) => g.name)).size).toBe(groups.length);
    const rows = await server.db
      .selectFrom('ios_block_rules')
      .select(['rule', 'group_id'])
      .where('group_id', 'is not', null)
      .execute();
    expect(rows.length).toBe(ALL_GROUP_RULES);
    for (const row of rows) {
      const rule = fromDbJson<BlockRule>(row.rule);
      expect(blockRuleProblem(rule), JSON.stringify(rule)).toBeUndefined();
    }
  });

  test('each of the app’s nine groups is a stored group; the new ones name whole domains', async () => {
    const stored = new Set(
      (await server.db.selectFrom('ios_block_groups').select('id').execute()).map((g) => g.id),
    );
    expect(Object.keys(IOS_APP_BLOCK_GROUP_IDS).sort()).toEqual([...IOS_APP_BLOCK_GROUPS].sort());
    const ids = Object.values(IOS_APP_BLOCK_GROUP_IDS);
    expect(new Set(ids).size).toBe(9);
    for (const id of ids) expect(stored.has(id)).toBe(true);
    expect(IOS_BLOCK_GROUPS.find((g) => g.id === IOS_APP_BLOCK_GROUP_IDS.gifs)?.name).toBe(
      'GIF and sticker search',
    );
    expect(IOS_BLOCK_GROUPS.find((g) => g.id === IOS_APP_BLOCK_GROUP_IDS.ads)?.name).toBe(
      'Ads and trackers',
    );
    const suffixes = (rule: BlockRule): string[] =>
      rule.case === 'hostnameEndsWith'
        ? [rule.value]
        : rule.case === 'both'
          ? [...suffixes(rule.a), ...suffixes(rule.b)]
          : rule.case === 'unless'
            ? [...suffixes(rule.rule), ...rule.negatedBy.flatMap(suffixes)]
            : [];
    const added = [...IOS_APP_BLOCK_GROUPS_ADDED.flatMap((g) => g.rules), ...IOS_GIF_RULES_ADDED];
    for (const suffix of added.flatMap(suffixes)) expect(suffix.startsWith('.'), suffix).toBe(true);
  });
});

describe('ConnectDevice', () => {
  test('a code connects an iPad: every group on, blockAll, the child named', async () => {
    const childId = await addChild(server, alice.adminId, { name: 'Ivy' });
    const code = await addConnectionCode(server, childId);
    const result = await ios(server, 'ConnectDevice', { verificationCode: code, ...ipad() });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ childId, childName: 'Ivy' });
    const device = await server.call('GetIOSDevice', result.body.deviceId, {
      token: alice.token,
    });
    expect(device.body.webPolicy).toBe('blockAll');
    expect(device.body.enabledBlockGroups).toHaveLength(ALL_GROUPS.length);
    expect(device.body.customBlockRules).toEqual([]);

    const again = await ios(server, 'ConnectDevice', { verificationCode: code, ...ipad() });
    expect(again.status).toBe(401);
    expect(again.body).toMatchObject({ id: '79483727', type: 'unauthorized' });
  });

  test('a wrong code is 401 79483727; a bad shape is 400', async () => {
    const wrong = await ios(server, 'ConnectDevice', { verificationCode: 1, ...ipad() });
    expect(wrong.status).toBe(401);
    expect(wrong.body.id).toBe('79483727');
    const bad = await ios(server, 'ConnectDevice', { verificationCode: 1, vendorId: 'x' });
    expect(bad.status).toBe(400);
  });

  test('the same iPad connecting again keeps its settings and retires its old token', async () => {
    const first = await connectIpad(alice.adminId);
    await server.call(
      'UpdateIOSDevice',
      {
        deviceId: first.deviceId,
        enabledBlockGroups: [],
        webPolicy: 'allowAll',
        webPolicyDomains: [],
      },
      { token: alice.token },
    );
    const otherChild = await addChild(server, alice.adminId, { name: 'Noa' });
    const code = await addConnectionCode(server, otherChild);
    const again = await ios(server, 'ConnectDevice', { verificationCode: code, ...first.device });
    expect(again.body).toMatchObject({ deviceId: first.deviceId, childName: 'Noa' });
    const old = await ios(server, 'ConnectedRules', first.device, first.token);
    expect(old.status).toBe(401);
    expect(old.body).toMatchObject({ id: '3aecf9fd', appTag: 'iosDeviceTokenNotFound' });
    const rules = await ios(server, 'ConnectedRules', first.device, again.body.token);
    expect(rules.body).toEqual({ blockRules: [], webPolicy: { allowAll: {} } });
  });
});

describe('ConnectedRules and the parent’s settings', () => {
  test('group rules plus custom rules; the policy with its domains; metadata refreshed', async () => {
    const { token, deviceId, device, childId } = await connectIpad(alice.adminId);
    const start = await ios(server, 'ConnectedRules', device, token);
    expect(start.status).toBe(200);
    expect(start.body.webPolicy).toEqual({ blockAll: {} });
    expect(start.body.blockRules).toHaveLength(ALL_GROUP_RULES);
    // 0005's system-apps group, with the app's own coding of a flow type
    expect(start.body.blockRules).toContainEqual({
      case: 'unless',
      rule: {
        case: 'both',
        a: { case: 'bundleIdContains', value: 'com.apple' },
        b: { case: 'flowTypeIs', value: { browser: {} } },
      },
      negatedBy: [
        { case: 'bundleIdContains', value: 'com.apple.mobilesafari' },
        { case: 'hostnameEndsWith', value: 'apple.com' },
        { case: 'hostnameEndsWith', value: 'icloud.com' },
      ],
    });

    const social = IOS_BLOCK_GROUPS.find((g) => g.name === 'Social media')!;
    const update = await server.call(
      'UpdateIOSDevice',
      {
        deviceId,
        enabledBlockGroups: [social.id, social.id],
        webPolicy: 'blockAllExcept',
        webPolicyDomains: ['khanacademy.org', ' ', 'KhanAcademy.org', 'wikipedia.org'],
      },
      { token: alice.token },
    );
    expect(update.body).toEqual({ success: true });
    const ruleId = await server.call(
      'UpsertBlockRule',
      { deviceId, rule: blockYoutube },
      { token: alice.token },
    );
    expect(ruleId.status).toBe(200);

    const after = await ios(server, 'ConnectedRules', { ...device, iosVersion: '18.1' }, token);
    expect(after.body.webPolicy).toEqual({
      blockAllExcept: { _0: ['khanacademy.org', 'wikipedia.org'] },
    });
    expect(after.body.blockRules).toEqual([...social.rules, blockYoutube]);

    const list = await server.call('IOSDevices', undefined, { token: alice.token });
    expect(list.body).toContainEqual({
      id: deviceId,
      childName: 'Sam',
      deviceType: 'iPad',
      osVersion: '18.1',
      childId,
    });
    const read = await server.call('GetIOSDevice', deviceId, { token: alice.token });
    expect(read.body).toMatchObject({
      enabledBlockGroups: [social.id],
      webPolicy: 'blockAllExcept',
      webPolicyDomains: ['khanacademy.org', 'wikipedia.org'],
      customBlockRules: [{ id: ruleId.body, rule: blockYoutube }],
    });
    expect(read.body.allBlockGroups).toHaveLength(ALL_GROUPS.length);
  });

  test('every web policy and rule kind in the app’s coding; the dashboard keeps its own', async () => {
    const { token, deviceId, device } = await connectIpad(alice.adminId);
    const inSafari: BlockRule = {
      case: 'both',
      a: { case: 'bundleIdContains', value: 'com.apple.mobilesafari' },
      b: { case: 'flowTypeIs', value: 'socket' },
    };
    await server.call('UpsertBlockRule', { deviceId, rule: inSafari }, { token: alice.token });
    const policies: [string, string[], object][] = [
      ['allowAll', [], { allowAll: {} }],
      ['blockAdult', [], { blockAdult: {} }],
      ['blockAdultAnd', ['roblox.com'], { blockAdultAnd: { _0: ['roblox.com'] } }],
      ['blockAllExcept', [], { blockAllExcept: { _0: [] } }],
      ['blockAll', [], { blockAll: {} }],
    ];
    for (const [webPolicy, webPolicyDomains, wire] of policies) {
      const update = await server.call(
        'UpdateIOSDevice',
        { deviceId, enabledBlockGroups: [], webPolicy, webPolicyDomains },
        { token: alice.token },
      );
      expect(update.status).toBe(200);
      const rules = await ios(server, 'ConnectedRules', device, token);
      expect(rules.body).toEqual({
        blockRules: [
          {
            case: 'both',
            a: { case: 'bundleIdContains', value: 'com.apple.mobilesafari' },
            b: { case: 'flowTypeIs', value: { socket: {} } },
          },
        ],
        webPolicy: wire,
      });
      const read = await server.call('GetIOSDevice', deviceId, { token: alice.token });
      expect(read.body).toMatchObject({
        webPolicy,
        webPolicyDomains,
        customBlockRules: [{ rule: inSafari }],
      });
    }
  });

  test('the app’s own bytes: upper-case UUIDs in the body and in X-DeviceToken', async () => {
    const { token, device } = await connectIpad(alice.adminId);
    const raw = `{"vendorId":"${device.vendorId.toUpperCase()}","deviceType":"iPhone","appVersion":"1.5.0","iosVersion":"18.1"}`;
    const result = await server.call('ConnectedRules', undefined, {
      namespace: 'ios-app',
      token: token.toUpperCase(),
      rawBody: raw,
    });
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(result.body.webPolicy).toEqual({ blockAll: {} });
    const stored = await server.db
      .selectFrom('ios_devices')
      .select(['vendor_id', 'device_type', 'ios_version'])
      .where('vendor_id', '=', device.vendorId)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({
      vendor_id: device.vendorId,
      device_type: 'iPhone',
      ios_version: '18.1',
    });
  });

  test('an unknown block group or a bad domain changes nothing', async () => {
    const { deviceId } = await connectIpad(alice.adminId);
    for (const input of [
      { enabledBlockGroups: [newToken()], webPolicy: 'allowAll', webPolicyDomains: [] },
      { enabledBlockGroups: [], webPolicy: 'blockAdultAnd', webPolicyDomains: ['not a domain'] },
    ]) {
      const result = await server.call(
        'UpdateIOSDevice',
        { deviceId, ...input },
        { token: alice.token },
      );
      expect(result.status).toBe(400);
      expect(result.body.userMessage).toBeTruthy();
    }
    const read = await server.call('GetIOSDevice', deviceId, { token: alice.token });
    expect(read.body.webPolicy).toBe('blockAll');
    expect(read.body.enabledBlockGroups).toHaveLength(ALL_GROUPS.length);
  });

  // issue 20: an address is stored as its site (the key wizard's rules), not as typed
  test('pasted addresses are stored as their domains; what is not a website is refused', async () => {
    const { deviceId, device, token } = await connectIpad(alice.adminId);
    const update = await server.call(
      'UpdateIOSDevice',
      {
        deviceId,
        enabledBlockGroups: [],
        webPolicy: 'blockAllExcept',
        webPolicyDomains: [
          'https://Wikipedia.org/wiki/Cat',
          'wikipedia.org',
          'www.khanacademy.org/',
        ],
      },
      { token: alice.token },
    );
    expect(update.status).toBe(200);
    const rules = await ios(server, 'ConnectedRules', device, token);
    expect(rules.body.webPolicy.blockAllExcept._0.sort()).toEqual([
      'khanacademy.org',
      'wikipedia.org',
    ]);
    for (const [typed, words] of [
      ['wikipedia', "'wikipedia' is not a valid website address."],
      ['10.0.0.1', "'10.0.0.1' is an IP address."],
    ]) {
      const refused = await server.call(
        'UpdateIOSDevice',
        { deviceId, enabledBlockGroups: [], webPolicy: 'blockAdultAnd', webPolicyDomains: [typed] },
        { token: alice.token },
      );
      expect(refused.status).toBe(400);
      expect(refused.body.userMessage).toContain(words);
    }
    const read = await server.call('GetIOSDevice', deviceId, { token: alice.token });
    expect(read.body.webPolicyDomains.sort()).toEqual(['khanacademy.org', 'wikipedia.org']);
  });

  test('a rule is replaced by id, refused when blank, and deleted', async () => {
    const { deviceId } = await connectIpad(alice.adminId);
    const other = await connectIpad(alice.adminId);
    const id = (
      await server.call('UpsertBlockRule', { deviceId, rule: blockYoutube }, { token: alice.token })
    ).body as string;
    const changed: BlockRule = {
      case: 'both',
      a: { case: 'bundleIdContains', value: 'com.google.ios.youtube' },
      b: { case: 'flowTypeIs', value: 'browser' },
    };
    expect(
      (
        await server.call(
          'UpsertBlockRule',
          { id, deviceId, rule: changed },
          { token: alice.token },
        )
      ).body,
    ).toBe(id);
    const blank = await server.call(
      'UpsertBlockRule',
      { deviceId, rule: { case: 'hostnameEquals', value: '  ' } },
      { token: alice.token },
    );
    expect(blank.status).toBe(400);
    expect(blank.body.userMessage).toBe('Enter the app or address to block.');
    // a rule of another device of the same parent cannot be moved through this device
    const moved = await server.call(
      'UpsertBlockRule',
      { id, deviceId: other.deviceId, rule: blockYoutube },
      { token: alice.token },
    );
    expect(moved.status).toBe(404);

    const read = await server.call('GetIOSDevice', deviceId, { token: alice.token });
    expect(read.body.customBlockRules).toEqual([{ id, rule: changed }]);
    const deleted = await server.call(
      'DeleteEntity_v2',
      { id, type: 'blockRule' },
      { token: alice.token },
    );
    expect(deleted.body).toEqual({ success: true });
    expect(
      (await server.call('GetIOSDevice', deviceId, { token: alice.token })).body.customBlockRules,
    ).toEqual([]);
    // §3.9: the deletion is a dashboard security event
    const events = await securityEvents(server, alice.adminId, 'iosBlockRuleDeleted');
    expect(events).toHaveLength(1);
    expect(events[0]!.detail).toMatch(/^rule: /);
  });
});

describe('suspension requests from an iPad', () => {
  test('the request is stored, the parent is emailed a link to the device, the iPad polls', async () => {
    const { token, deviceId } = await connectIpad(alice.adminId);
    const created = await ios(
      server,
      'CreateSuspendFilterRequest',
      { duration: 600, comment: 'school video' },
      token,
    );
    expect(created.status).toBe(200);
    const requestId = created.body as string;

    await notificationsDelivered();
    const mail = server.lastEmailTo(alice.email);
    expect(mail.template).toBe('notify-suspend-filter');
    expect(mail.links.some((link) => link.endsWith(`/ios-devices/${deviceId}`))).toBe(true);

    // the app sends the id as a bare JSON string, upper case
    expect(
      (await ios(server, 'PollFilterSuspensionDecision', requestId.toUpperCase(), token)).body,
    ).toEqual({ pending: {} });
    await server.db
      .updateTable('ios_suspend_filter_requests')
      .set({ status: 'accepted', duration: 1200, response_comment: 'ok, 20 minutes' })
      .where('id', '=', requestId)
      .execute();
    expect((await ios(server, 'PollFilterSuspensionDecision', requestId, token)).body).toEqual({
      accepted: { duration: 1200, parentComment: 'ok, 20 minutes' },
    });

    const other = await connectIpad(alice.adminId);
    expect(
      (await ios(server, 'PollFilterSuspensionDecision', requestId, other.token)).body,
    ).toEqual({ notFound: {} });
    expect((await ios(server, 'PollFilterSuspensionDecision', newToken(), token)).body).toEqual({
      notFound: {},
    });
  });

  test('a duration over 7 days, or not whole seconds, is refused; no token is 401', async () => {
    const { token } = await connectIpad(alice.adminId);
    const long = await ios(server, 'CreateSuspendFilterRequest', { duration: 8 * 86400 }, token);
    expect(long.status).toBe(400);
    const fraction = await ios(server, 'CreateSuspendFilterRequest', { duration: 600.5 }, token);
    expect(fraction.status).toBe(400);
    const anonymous = await ios(server, 'CreateSuspendFilterRequest', { duration: 60 });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.id).toBe('3aecf9fd');
  });
});

describe('another parent is refused exactly like a missing id', () => {
  test('GetIOSDevice, UpdateIOSDevice, UpsertBlockRule, DeleteEntity_v2 blockRule, IOSDevices', async () => {
    const { deviceId } = await connectIpad(alice.adminId);
    const ruleId = (
      await server.call('UpsertBlockRule', { deviceId, rule: blockYoutube }, { token: alice.token })
    ).body as string;
    const missing = newToken();
    const calls: [string, (id: string) => unknown][] = [
      ['GetIOSDevice', (id) => id],
      [
        'UpdateIOSDevice',
        (id) => ({
          deviceId: id,
          enabledBlockGroups: [],
          webPolicy: 'allowAll',
          webPolicyDomains: [],
        }),
      ],
      ['UpsertBlockRule', (id) => ({ deviceId: id, rule: blockYoutube })],
    ];
    for (const [op, input] of calls) {
      const foreign = await server.call(op, input(deviceId), { token: bob.token });
      const absent = await server.call(op, input(missing), { token: bob.token });
      expect(foreign.status, op).toBe(404);
      expect({ ...foreign.body, requestId: '' }).toEqual({ ...absent.body, requestId: '' });
    }
    const bobsDevice = await connectIpad(bob.adminId);
    for (const [foreignId, id] of [
      [ruleId, missing],
      [ruleId, ruleId],
    ]) {
      const foreign = await server.call(
        'UpsertBlockRule',
        { id: foreignId, deviceId: bobsDevice.deviceId, rule: blockYoutube },
        { token: bob.token },
      );
      const absent = await server.call(
        'UpsertBlockRule',
        { id, deviceId: bobsDevice.deviceId, rule: blockYoutube },
        { token: bob.token },
      );
      expect(foreign.status).toBe(404);
      expect({ ...foreign.body, requestId: '' }).toEqual({ ...absent.body, requestId: '' });
    }
    const foreignDelete = await server.call(
      'DeleteEntity_v2',
      { id: ruleId, type: 'blockRule' },
      { token: bob.token },
    );
    const absentDelete = await server.call(
      'DeleteEntity_v2',
      { id: missing, type: 'blockRule' },
      { token: bob.token },
    );
    expect(foreignDelete.status).toBe(404);
    expect({ ...foreignDelete.body, requestId: '' }).toEqual({
      ...absentDelete.body,
      requestId: '',
    });
    const bobsList = await server.call('IOSDevices', undefined, { token: bob.token });
    expect(bobsList.body.map((d: { id: string }) => d.id)).toEqual([bobsDevice.deviceId]);
    // Alice's rule is still there
    const read = await server.call('GetIOSDevice', deviceId, { token: alice.token });
    expect(read.body.customBlockRules).toEqual([{ id: ruleId, rule: blockYoutube }]);
  });
});
