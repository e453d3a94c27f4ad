import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import {
  type DashboardInput,
  type DashboardOperation,
  type DashboardOutput,
  type DashboardParsedInput,
  dashboard,
  dashboardOperationNames,
  isDashboardOperation,
} from '../src/dashboard.ts';
import {
  activityFeed,
  at,
  device,
  downtime,
  ids,
  key,
  keychainSummary,
  login,
  schedule,
  sharedKey,
  success,
  unlockRequest,
  user,
} from './fixtures.ts';

type Examples = {
  [Op in DashboardOperation]: { input: DashboardInput<Op>; output: DashboardOutput<Op> };
};

const pushKeys = {
  p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
  auth: 'tBHItJI5svbpez7KI4CCXg',
};

// One realistic request and response per operation; typed, so the helpers are checked too.
const examples: Examples = {
  AcceptParentInvite: { input: { token: ids.token, password: 'a long passphrase' }, output: login },
  ChildActivityInsights: {
    input: { childId: ids.child, jsTimezoneOffsetMinutes: 300 },
    output: {
      childName: 'Lily',
      keyloggingEnabled: true,
      weekStart: at,
      days: [{ date: at, numItems: 12, numAlerts: 1, numFlagged: 2 }],
      hours: Array.from({ length: 24 }, () => 0),
      topApps: [{ appName: 'Messages', numLines: 40 }],
      topRequests: [{ target: 'https://example.com', numRequests: 3 }],
      numItems: 12,
      numFlagged: 2,
      numAlerts: 1,
      alertsByCategory: [{ category: 'selfHarm', numAlerts: 1 }],
      suspendedSeconds: 600,
      falseAlerts: [{ category: 'drugs', word: 'vape', count: 2 }],
    },
  },
  ChildActivitySummaries: {
    input: { childId: ids.child, jsTimezoneOffsetMinutes: 300 },
    output: {
      childName: 'Lily',
      days: [{ date: at, numApproved: 3, numFlagged: 1, numTotal: 10 }],
    },
  },
  CombinedUsersActivityFeed: {
    input: { range: { start: '2024-03-06T05:00:00.000Z', end: '2024-03-07T04:59:59.999Z' } },
    output: [activityFeed],
  },
  DeletePushSubscription: { input: { id: ids.method }, output: success },
  GetWeeklyReport: { input: undefined, output: { isEnabled: true, timeZone: 'Europe/Paris' } },
  SaveWeeklyReport: { input: { isEnabled: false, timeZone: 'Europe/Paris' }, output: success },
  GetPushSubscriptions: {
    input: undefined,
    output: {
      vapidPublicKey: pushKeys.p256dh,
      subscriptions: [
        {
          id: ids.method,
          label: 'Chrome on Android',
          endpoint: 'https://fcm.googleapis.com/fcm/send/abc123',
          triggers: ['unlockRequestSubmitted', 'suspendFilterRequestSubmitted'],
          createdAt: at,
        },
      ],
    },
  },
  SavePushSubscription: {
    input: {
      id: ids.method,
      endpoint: 'https://fcm.googleapis.com/fcm/send/abc123',
      keys: pushKeys,
      label: 'Chrome on Android',
      triggers: ['suspendFilterRequestSubmitted'],
    },
    output: { id: ids.method },
  },
  ConfirmPendingNotificationMethod: { input: { id: ids.method, code: 123456 }, output: success },
  ConfirmTotpEnrolment: {
    input: { code: '123456' },
    output: { recoveryCodes: ['k7p2-9xq4-m3td', 'b8r5-2wvn-h6ce'] },
  },
  CreatePendingAppConnection: { input: { userId: ids.child }, output: { code: 482913 } },
  CreateDnsDevice: {
    input: { childId: ids.child, kind: 'ios', name: 'Ada’s iPhone' },
    output: {
      id: ids.child,
      dohUrl: `https://keyward.example/dns-query/${ids.child}`,
      dotHostname: `${ids.child}.dns.keyward.example`,
      appleProfileUrl: `https://keyward.example/dns-profile/${ids.child}.mobileconfig`,
    },
  },
  CreatePendingNotificationMethod: {
    input: { case: 'text', phoneNumber: '+15555550123' },
    output: { methodId: ids.method },
  },
  DashboardWidgets: {
    input: undefined,
    output: {
      children: [{ id: ids.child, name: 'Lily', status: { case: 'offline' }, numDevices: 1 }],
      childActivitySummaries: [{ id: ids.child, name: 'Lily', numUnreviewed: 12, numReviewed: 3 }],
      unlockRequests: [
        {
          id: ids.unlock,
          childId: ids.child,
          childName: 'Lily',
          target: 'khanacademy.org',
          comment: 'homework',
          createdAt: at,
        },
      ],
      recentScreenshots: [
        { id: ids.screenshot, childName: 'Lily', url: 'https://x.test/1.png', createdAt: at },
      ],
      numParentNotifications: 2,
      announcement: { id: ids.announcement, html: '<p>New!</p>' },
    },
  },
  DecideFilterSuspensionRequest: {
    input: {
      id: ids.suspension,
      decision: { case: 'accepted', durationInSeconds: 600, extraMonitoring: '@60' },
      responseComment: 'ok',
    },
    output: success,
  },
  DecideMoreTimeRequest: {
    input: {
      id: ids.suspension,
      decision: { case: 'accepted', minutes: 15 },
      responseComment: 'ok',
    },
    output: success,
  },
  DeleteActivityItems_v2: {
    input: { keystrokeLineIds: [ids.keystroke], screenshotIds: [ids.screenshot] },
    output: success,
  },
  DeleteEntity_v2: { input: { id: ids.computerUser, type: 'computerUser' }, output: success },
  DisableTotp: { input: { code: '654321' }, output: success },
  FamilyActivitySummaries: {
    input: { jsTimezoneOffsetMinutes: -120 },
    output: [{ date: at, numApproved: 0, numFlagged: 0, numTotal: 0 }],
  },
  FinishPasskeyLogin: {
    input: {
      challengeId: ids.token,
      response: { id: 'cred-1', rawId: 'cred-1', type: 'public-key', response: {} },
    },
    output: login,
  },
  FinishPasskeyRegistration: {
    input: { response: { id: 'cred-1', type: 'public-key', response: {} }, name: 'MacBook' },
    output: { passkeyId: ids.method },
  },
  FlagActivityItems: { input: [ids.screenshot, ids.keystroke], output: success },
  GetAdmin: {
    input: undefined,
    output: {
      id: ids.admin,
      email: 'parent@example.com',
      subscriptionStatus: { case: 'trialing', daysLeft: 7 },
      notifications: [
        { id: ids.notification, trigger: 'unlockRequestSubmitted', methodId: ids.method },
      ],
      verifiedNotificationMethods: [
        {
          id: ids.method,
          config: { case: 'slack', channelId: 'C123', channelName: '#kids', token: 'xoxb-…a1b2' },
        },
      ],
      hasAdminChild: false,
      monthlyPriceInDollars: 10,
    },
  },
  GetAdminKeychain: { input: ids.keychain, output: { summary: keychainSummary, keys: [key] } },
  GetAdminKeychains: {
    input: undefined,
    output: {
      keychains: [{ summary: keychainSummary, children: [ids.child], keys: [key] }],
      children: [{ id: ids.child, name: 'Lily' }],
    },
  },
  GetDataExport: {
    input: { exportId: ids.token },
    output: {
      status: 'ready',
      progress: 100,
      url: 'https://dash.example.com/data-export/abc?expires=1&signature=ff',
      expiresAt: at,
    },
  },
  GetAuditLog: {
    input: { before: at, personId: ids.admin, childId: ids.child },
    output: {
      entries: [
        {
          id: ids.notification,
          at,
          personId: ids.admin,
          personEmail: 'dana@example.com',
          operation: 'SaveUser',
          entityType: 'child',
          entityId: ids.child,
          summary: 'dana@example.com changed child Sam: screenshots enabled off → on',
          changes: [{ field: 'screenshots enabled', before: 'off', after: 'on' }],
          childId: ids.child,
        },
      ],
      nextBefore: at,
    },
  },
  GetDevice: { input: ids.mac, output: device },
  GetDevices: { input: undefined, output: [device] },
  GetIdentifiedApps: {
    input: undefined,
    output: [
      {
        id: ids.app,
        name: 'Steam',
        slug: 'steam',
        launchable: true,
        bundleIds: [{ id: ids.rule, bundleId: 'com.valvesoftware.steam' }],
        category: { id: ids.event, name: 'Games', slug: 'games' },
      },
    ],
  },
  GetFamilyDevices: {
    input: undefined,
    output: [
      {
        kind: 'mac',
        id: ids.computerUser,
        childId: ids.child,
        childName: 'Lily',
        name: 'MacBook Air',
        model: 'MacBook Air (M2, 2022)',
        path: `/computers/${ids.mac}`,
        status: { case: 'filterOn' },
        pendingRequests: 1,
      },
      {
        kind: 'ios',
        id: ids.ios,
        childId: ids.child,
        childName: 'Lily',
        name: 'iPad',
        model: 'iPad',
        path: `/ios-devices/${ids.ios}`,
        osVersion: '17.4',
        lastSeenAt: at,
        pendingRequests: 0,
      },
    ],
  },
  GetInbox: {
    input: undefined,
    output: {
      items: [
        {
          case: 'suspension',
          id: ids.token,
          childId: ids.child,
          childName: 'Lily',
          device: { kind: 'ios', id: ids.ios, name: 'iPad' },
          createdAt: at,
          requestedDurationInSeconds: 600,
          extraMonitoringOptions: {},
        },
        {
          case: 'unlock',
          id: ids.token,
          childId: ids.child,
          childName: 'Lily',
          device: { kind: 'mac', id: ids.computerUser, name: 'MacBook Air' },
          createdAt: at,
          target: 'https://example.com',
          requestComment: 'homework',
        },
      ],
      alerts: [
        {
          childId: ids.child,
          childName: 'Lily',
          count: 2,
          categories: ['selfHarm'],
          latestAt: at,
        },
      ],
    },
  },
  GetIOSDevice: {
    input: ids.ios,
    output: {
      childName: 'Lily',
      deviceType: 'iPhone',
      osVersion: '17.4',
      allBlockGroups: [{ id: ids.blockGroup, name: 'Ads' }],
      enabledBlockGroups: [ids.blockGroup],
      webPolicy: 'blockAdult',
      webPolicyDomains: [],
      customBlockRules: [{ id: ids.rule, rule: { case: 'hostnameEquals', value: 'x.com' } }],
    },
  },
  GetSelectableKeychains: {
    input: undefined,
    output: { own: [keychainSummary], public: [{ ...keychainSummary, isPublic: true }] },
  },
  GetSignInSecurity: {
    input: undefined,
    output: {
      totpEnabled: true,
      recoveryCodesLeft: 9,
      passkeys: [{ id: ids.method, name: 'MacBook', createdAt: at, lastUsedAt: at }],
    },
  },
  GetParents: {
    input: undefined,
    output: [
      { id: ids.admin, email: 'dana@example.com', role: 'owner', status: 'active' },
      { id: ids.child, email: 'sam@example.com', role: 'coParent', status: 'invited' },
    ],
  },
  GetSuspendFilterRequest: {
    input: ids.suspension,
    output: {
      id: ids.suspension,
      deviceId: ids.computerUser,
      status: 'pending',
      userName: 'Lily',
      requestedDurationInSeconds: 1800,
      requestComment: 'zoom call',
      extraMonitoringOptions: { '@60': '1.5x screenshots', '@30': '2x screenshots' },
      createdAt: at,
    },
  },
  GetUnlockRequest: { input: ids.unlock, output: unlockRequest },
  GetUnlockRequests: { input: undefined, output: [unlockRequest] },
  GetUnlockRequestsPage: {
    input: { childId: ids.child, before: `d~${at}~${ids.notification}` },
    output: { requests: [unlockRequest], nextBefore: `d~${at}~${ids.notification}` },
  },
  GetUser: { input: ids.child, output: user },
  GetScreenTime: {
    input: { childId: ids.child },
    output: {
      today: {
        date: '2026-12-07',
        weekday: 'monday',
        usedMinutes: 95,
        allowanceMinutes: 120,
        grantedMinutes: 15,
        remainingMinutes: 40,
        resetsAt: at,
      },
      week: [
        {
          date: '2026-12-07',
          weekday: 'monday',
          usedMinutes: 95,
          allowanceMinutes: 120,
          grantedMinutes: 15,
        },
      ],
      topSites: [{ site: 'www.youtube.com', minutes: 60 }],
    },
  },
  GetUserUnlockRequests: { input: ids.child, output: [unlockRequest] },
  GetUsers: { input: undefined, output: [user] },
  HandleCheckoutCancel: { input: { stripeCheckoutSessionId: 'cs_test_a1' }, output: success },
  HandleCheckoutSuccess: { input: { stripeCheckoutSessionId: 'cs_test_a1' }, output: success },
  IOSDevices: {
    input: undefined,
    output: [{ id: ids.ios, childName: 'Lily', deviceType: 'iPad', osVersion: '17.4' }],
  },
  InviteParent: { input: { email: 'sam@example.com' }, output: success },
  LatestAppVersions: {
    input: undefined,
    output: { stable: '2.7.1', beta: '2.8.0', canary: '2.8.1' },
  },
  LogEvent: { input: { eventId: 'a3f9c2d1', detail: 'clicked upgrade' }, output: success },
  Login: { input: { email: 'parent@example.com', password: 'hunter22' }, output: login },
  LoginMagicLink: { input: { token: ids.token }, output: login },
  LoginSecondFactor: { input: { challenge: ids.token, code: '123456' }, output: login },
  Logout: { input: undefined, output: success },
  RemovePasskey: { input: { id: ids.method }, output: success },
  RequestDataExport: { input: undefined, output: { exportId: ids.token } },
  RequestMagicLink: {
    input: { email: 'parent@example.com', redirect: '/children/123' },
    output: success,
  },
  RemoveParent: { input: { id: ids.child }, output: success },
  RequestPublicKeychain: {
    input: { searchQuery: 'math games', description: 'Something for 2nd grade math' },
    output: success,
  },
  ResetPassword: {
    input: { token: ids.token, password: 'new-password' },
    output: { success: false },
  },
  SaveConferenceEmail: { input: { email: 'a@b.com', source: 'booth' }, output: success },
  SaveDevice: { input: { id: ids.mac, releaseChannel: 'beta' }, output: success },
  SaveKey: {
    input: {
      isNew: true,
      id: ids.key,
      keychainId: ids.keychain,
      key: { type: 'skeleton', scope: { type: 'identifiedAppSlug', identifiedAppSlug: 'zoom' } },
      comment: 'for school',
      expiration: '2024-03-07T05:00:00Z',
    },
    output: success,
  },
  SaveKeychain: {
    input: { isNew: false, id: ids.keychain, name: 'Homework', description: 'School sites' },
    output: success,
  },
  SaveNotification: {
    input: {
      id: ids.notification,
      isNew: true,
      methodId: ids.method,
      trigger: 'adminChildSecurityEvent',
    },
    output: success,
  },
  SaveUser: {
    input: {
      id: ids.child,
      isNew: true,
      name: 'Lily',
      keyloggingEnabled: false,
      screenshotsEnabled: true,
      screenshotsResolution: 1000,
      screenshotsFrequency: 120,
      showSuspensionActivity: true,
      downtime,
      keychains: [{ id: ids.keychain, schedule }, { id: ids.key }],
      blockedApps: [{ id: ids.app, identifier: 'com.valvesoftware.steam' }],
    },
    output: success,
  },
  SecurityEventsFeed: {
    input: undefined,
    output: [
      {
        case: 'child',
        id: ids.event,
        childId: ids.child,
        childName: 'Lily',
        deviceId: ids.mac,
        deviceName: 'Study Mac',
        event: 'appQuit',
        explanation: 'The app was quit',
        createdAt: at,
      },
      {
        case: 'admin',
        id: ids.event,
        event: 'login',
        explanation: 'You logged in',
        ipAddress: '203.0.113.9',
        location: { city: 'Berlin', countryCode: 'DE' },
        createdAt: at,
      },
    ],
  },
  SendPasswordResetEmail: { input: { email: 'parent@example.com' }, output: success },
  Signup: {
    input: { email: 'parent@example.com', password: 'hunter22', gclid: 'Cj0KCQ' },
    output: {},
  },
  StartPasskeyLogin: {
    input: {},
    output: { challengeId: ids.token, options: { challenge: 'abc', rpId: 'example.com' } },
  },
  StartPasskeyRegistration: {
    input: undefined,
    output: { options: { challenge: 'abc', rp: { id: 'example.com', name: 'Keyward' } } },
  },
  StartTotpEnrolment: {
    input: undefined,
    output: {
      secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
      otpauthUrl:
        'otpauth://totp/Keyward:parent%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
    },
  },
  StripeUrl: { input: undefined, output: { url: 'https://checkout.stripe.com/c/pay/cs_1' } },
  SaveScreenTime: {
    input: {
      childId: ids.child,
      allowance: {
        monday: 120,
        tuesday: 120,
        wednesday: 120,
        thursday: 120,
        friday: 120,
        saturday: 180,
        sunday: null,
      },
      exemptKeychainIds: [ids.keychain],
    },
    output: success,
  },
  PauseInternet: { input: { childId: ids.child, minutes: 15 }, output: success },
  ResumeInternet: { input: { childId: ids.child }, output: success },
  ToggleChildKeychain: { input: { keychainId: ids.keychain, childId: ids.child }, output: success },
  UpdateIOSDevice: {
    input: {
      deviceId: ids.ios,
      enabledBlockGroups: [ids.blockGroup],
      webPolicy: 'blockAllExcept',
      webPolicyDomains: ['khanacademy.org'],
    },
    output: success,
  },
  UpdateUnlockRequest: {
    input: { id: ids.unlock, status: 'accepted', responseComment: 'sure' },
    output: success,
  },
  UpsertBlockRule: {
    input: {
      deviceId: ids.ios,
      rule: {
        case: 'unless',
        rule: { case: 'hostnameEndsWith', value: 'tiktok.com' },
        negatedBy: [
          {
            case: 'both',
            a: { case: 'flowTypeIs', value: 'browser' },
            b: { case: 'bundleIdContains', value: 'safari' },
          },
        ],
      },
    },
    output: ids.rule,
  },
  UserActivityFeed: {
    input: {
      userId: ids.child,
      range: { start: '2024-03-06T05:00:00.000Z', end: '2024-03-07T04:59:59.999Z' },
    },
    output: activityFeed,
  },
  VerifySignupEmail: { input: { token: ids.token }, output: login },
};

const rows = dashboardOperationNames.map((name) => [name, examples[name]] as const);

describe('dashboard operation table', () => {
  it('has the 52 operations of §5.1 with their exact names', () => {
    expect(dashboardOperationNames).toHaveLength(52 + 12 + 5 + 2 + 1 + 1 + 5 + 1 + 5); // + issue 12: two-factor, export, co-parents and audit log; issue 20: GetFamilyDevices, GetInbox; issue 19: GetUnlockRequestsPage; issue 24: ChildActivityInsights; issue 23: the three push-subscription operations and the weekly report's two; issue 33: CreateDnsDevice; issue 34: SaveScreenTime, PauseInternet, ResumeInternet, DecideMoreTimeRequest, GetScreenTime
    expect(Object.keys(examples).sort()).toEqual([...dashboardOperationNames].sort());
    for (const name of ['DeleteEntity_v2', 'DeleteActivityItems_v2', 'IOSDevices', 'Logout']) {
      expect(isDashboardOperation(name)).toBe(true);
    }
    for (const name of ['DeleteEntity', 'IosDevices', 'toString', 'constructor', '__proto__']) {
      expect(isDashboardOperation(name)).toBe(false);
    }
  });

  it('matches the totals of §5.1', () => {
    const defs = Object.values(dashboard);
    const none = dashboardOperationNames.filter((name) => dashboard[name].auth === 'none');
    expect(none.sort()).toEqual([
      'AcceptParentInvite',
      'FinishPasskeyLogin',
      'Login',
      'LoginMagicLink',
      'LoginSecondFactor',
      'RequestMagicLink',
      'ResetPassword',
      'SaveConferenceEmail',
      'SendPasswordResetEmail',
      'Signup',
      'StartPasskeyLogin',
      'VerifySignupEmail',
    ]);
    expect(defs.filter((def) => def.auth === 'parent')).toHaveLength(
      44 + 9 + 4 + 2 + 1 + 1 + 5 + 1 + 5,
    );
    expect(defs.filter((def) => def.input === null)).toHaveLength(13 + 4 + 1 + 2 + 2);

    const bareUuidInputs = dashboardOperationNames.filter((name) => {
      return dashboard[name].input?.safeParse(ids.child).success === true;
    });
    expect(bareUuidInputs.sort()).toEqual([
      'GetAdminKeychain',
      'GetDevice',
      'GetIOSDevice',
      'GetSuspendFilterRequest',
      'GetUnlockRequest',
      'GetUser',
      'GetUserUnlockRequests',
    ]);

    const successOutputs = dashboardOperationNames.filter(
      (name) =>
        dashboard[name].output.safeParse({ success: true }).success &&
        !dashboard[name].output.safeParse({}).success,
    );
    expect(successOutputs).toHaveLength(22 + 2 + 2 + 2 + 4); // + InviteParent, RemoveParent, DeletePushSubscription, SaveWeeklyReport; issue 34: SaveScreenTime, PauseInternet, ResumeInternet, DecideMoreTimeRequest

    const arrayOutputs = dashboardOperationNames.filter(
      (name) => dashboard[name].output.safeParse([]).success,
    );
    expect(arrayOutputs.sort()).toEqual([
      'CombinedUsersActivityFeed',
      'FamilyActivitySummaries',
      'GetDevices',
      'GetFamilyDevices',
      'GetIdentifiedApps',
      'GetParents',
      'GetUnlockRequests',
      'GetUserUnlockRequests',
      'GetUsers',
      'IOSDevices',
      'SecurityEventsFeed',
    ]);
  });

  it.each(rows)('%s: the example request and response parse', (name, example) => {
    const def = dashboard[name];
    if (def.input === null) {
      expect(example.input).toBeUndefined();
    } else {
      const input = def.input.safeParse(example.input);
      expect(input.error).toBeUndefined();
    }
    const output = def.output.safeParse(example.output);
    expect(output.error).toBeUndefined();
    // a round trip through JSON changes nothing: no Dates, no undefined, no transforms on lowercase
    expect(output.data).toEqual(JSON.parse(JSON.stringify(example.output)));
  });
});

type Case = [operation: DashboardOperation, what: 'input' | 'output', value: unknown];

const uuids = (count: number) =>
  Array.from({ length: count }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);

const rejected: Record<string, Case> = {
  'missing required key': ['Login', 'input', { email: 'a@b.com' }],
  'empty body for a non-void op': ['Login', 'input', undefined],
  'wrong scalar type': [
    'ChildActivitySummaries',
    'input',
    { childId: ids.child, jsTimezoneOffsetMinutes: '300' },
  ],
  'bad uuid in object': ['ToggleChildKeychain', 'input', { keychainId: 'abc', childId: ids.child }],
  'bad bare uuid': ['GetUser', 'input', 'not-a-uuid'],
  'uuid without dashes': ['GetUser', 'input', ids.child.replaceAll('-', '')],
  'wrong union tag': [
    'CreatePendingNotificationMethod',
    'input',
    { case: 'sms', phoneNumber: '+1555' },
  ],
  'union payload missing': ['CreatePendingNotificationMethod', 'input', { case: 'email' }],
  'wrapped union input': [
    'CreatePendingNotificationMethod',
    'input',
    { email: { email: 'a@b.com' } },
  ],
  'wrapped decision': [
    'DecideFilterSuspensionRequest',
    'input',
    { id: ids.suspension, decision: { rejected: {} } },
  ],
  'bare array over 1000': ['FlagActivityItems', 'input', uuids(1001)],
  'bare array not array': ['FlagActivityItems', 'input', { ids: [ids.child] }],
  'both delete arrays together over 1000': [
    'DeleteActivityItems_v2',
    'input',
    { keystrokeLineIds: uuids(600), screenshotIds: uuids(401) },
  ],
  'enum value unknown': ['DeleteEntity_v2', 'input', { id: ids.key, type: 'device' }],
  'name over 100': [
    'SaveKeychain',
    'input',
    { isNew: true, id: ids.keychain, name: 'x'.repeat(101) },
  ],
  'description over 2000': [
    'SaveKeychain',
    'input',
    { isNew: true, id: ids.keychain, name: 'K', description: 'x'.repeat(2001) },
  ],
  'search query over 255': [
    'RequestPublicKeychain',
    'input',
    { searchQuery: 'q'.repeat(256), description: '' },
  ],
  'gclid over 128': [
    'Signup',
    'input',
    { email: 'a@b.com', password: 'p', gclid: 'g'.repeat(129) },
  ],
  'event over 255': ['LogEvent', 'input', { eventId: 'e'.repeat(256), detail: '' }],
  'device name over 100': [
    'SaveDevice',
    'input',
    { id: ids.mac, name: 'n'.repeat(101), releaseChannel: 'stable' },
  ],
  'screenshots frequency under 10': [
    'SaveUser',
    'input',
    { ...examples.SaveUser.input, screenshotsFrequency: 9 },
  ],
  'saveUser keychains over 1000': [
    'SaveUser',
    'input',
    { ...examples.SaveUser.input, keychains: uuids(1001).map((id) => ({ id })) },
  ],
  'skeleton key with AppScope': [
    'SaveKey',
    'input',
    { ...examples.SaveKey.input, key: { type: 'skeleton', scope: { type: 'unrestricted' } } },
  ],
  'AppScope single not nested': [
    'SaveKey',
    'input',
    {
      ...examples.SaveKey.input,
      key: { ...sharedKey, scope: { type: 'single', bundleId: 'com.x' } },
    },
  ],
  'flowTypeIs other value': [
    'UpsertBlockRule',
    'input',
    { deviceId: ids.ios, rule: { case: 'flowTypeIs', value: 'dns' } },
  ],
  'deep invalid block rule': [
    'UpsertBlockRule',
    'input',
    {
      deviceId: ids.ios,
      rule: {
        case: 'both',
        a: { case: 'urlContains', value: 'a' },
        b: { case: 'both', a: { case: 'urlContains' } },
      },
    },
  ],
  'expiration not ISO': [
    'SaveKey',
    'input',
    { ...examples.SaveKey.input, expiration: '2024-03-07' },
  ],
  'expiration with offset': [
    'SaveKey',
    'input',
    { ...examples.SaveKey.input, expiration: '2024-03-07T05:00:00+01:00' },
  ],
  'wrapped subscription status': [
    'GetAdmin',
    'output',
    { ...examples.GetAdmin.output, subscriptionStatus: { trialing: { daysLeft: 7 } } },
  ],
  'null optional output (announcement)': [
    'DashboardWidgets',
    'output',
    { ...examples.DashboardWidgets.output, announcement: null },
  ],
  'null optional output (Signup admin)': ['Signup', 'output', { admin: null }],
  'null optional output (device name)': ['GetDevice', 'output', { ...device, name: null }],
  'null optional output (status date)': [
    'GetDevices',
    'output',
    [
      {
        ...device,
        users: [{ id: ids.child, name: 'L', status: { case: 'filterSuspended', resuming: null } }],
      },
    ],
  ],
  'null optional output (key comment)': [
    'GetAdminKeychain',
    'output',
    { summary: keychainSummary, keys: [{ ...key, comment: null }] },
  ],
  'null optional output (blocked apps)': ['GetUser', 'output', { ...user, blockedApps: null }],
  'wrapped activity item': [
    'UserActivityFeed',
    'output',
    { ...activityFeed, items: [{ screenshot: activityFeed.items[0] }] },
  ],
  'bare uuid output not a uuid': ['UpsertBlockRule', 'output', { id: ids.rule }],
  'array output given an object': ['GetUsers', 'output', { users: [user] }],
  'output date without Z': [
    'GetUnlockRequest',
    'output',
    { ...unlockRequest, createdAt: '2024-03-06T05:00:00' },
  ],
};

describe('dashboard schemas reject wrong shapes', () => {
  it.each(Object.entries(rejected))('%s', (_, [operation, what, value]) => {
    const schema = dashboard[operation][what];
    expect(schema).not.toBeNull();
    expect(schema?.safeParse(value).success).toBe(false);
  });
});

describe('dashboard inputs are lenient where the contract says so', () => {
  it('treats null optional inputs as absent and drops the key', () => {
    const parsed = dashboard.SaveDevice.input.parse({
      id: ids.mac,
      name: null,
      releaseChannel: 'stable',
    });
    expect(parsed).toStrictEqual({ id: ids.mac, releaseChannel: 'stable' });
    expect('name' in parsed).toBe(false);

    const saveUser = dashboard.SaveUser.input.parse({
      ...examples.SaveUser.input,
      downtime: null,
      blockedApps: [{ id: ids.app, identifier: 'x', schedule: null }],
      keychains: [{ id: ids.keychain, schedule: null }],
    });
    expect('downtime' in saveUser).toBe(false);
    expect(saveUser.blockedApps).toStrictEqual([{ id: ids.app, identifier: 'x' }]);
    expect(saveUser.keychains).toStrictEqual([{ id: ids.keychain }]);

    const decision = dashboard.DecideFilterSuspensionRequest.input.parse({
      id: ids.suspension,
      decision: { case: 'accepted', durationInSeconds: 60, extraMonitoring: null },
      responseComment: null,
    });
    expect(decision).toStrictEqual({
      id: ids.suspension,
      decision: { case: 'accepted', durationInSeconds: 60 },
    });
  });

  it('still rejects null for required input keys', () => {
    expect(
      dashboard.SaveDevice.input.safeParse({ id: ids.mac, releaseChannel: null }).success,
    ).toBe(false);
    expect(dashboard.Login.input.safeParse({ email: null, password: 'x' }).success).toBe(false);
  });

  it('strips unknown keys', () => {
    const parsed = dashboard.Login.input.parse({ email: 'a@b.com', password: 'p', extra: 1 });
    expect(parsed).toStrictEqual({ email: 'a@b.com', password: 'p' });
  });

  it('lowercases uppercase UUIDs in bodies, bare inputs and arrays', () => {
    const upper = ids.child.toUpperCase();
    expect(dashboard.GetUser.input.parse(upper)).toBe(ids.child);
    expect(dashboard.FlagActivityItems.input.parse([upper])).toEqual([ids.child]);
    expect(
      dashboard.ToggleChildKeychain.input.parse({ keychainId: ids.keychain, childId: upper }),
    ).toEqual({ keychainId: ids.keychain, childId: ids.child });
  });

  it('keeps names untrimmed and allows them empty (the server reports that)', () => {
    const parsed = dashboard.SaveKeychain.input.parse({
      isNew: true,
      id: ids.keychain,
      name: '  ',
    });
    expect(parsed.name).toBe('  ');
  });

  it('accepts the exact limits', () => {
    expect(dashboard.FlagActivityItems.input.safeParse(uuids(1000)).success).toBe(true);
    expect(
      dashboard.DeleteActivityItems_v2.input.safeParse({
        keystrokeLineIds: uuids(500),
        screenshotIds: uuids(500),
      }).success,
    ).toBe(true);
    expect(
      dashboard.SaveUser.input.safeParse({ ...examples.SaveUser.input, screenshotsFrequency: 10 })
        .success,
    ).toBe(true);
    expect(
      dashboard.SaveKeychain.input.safeParse({ isNew: true, id: ids.key, name: 'x'.repeat(100) })
        .success,
    ).toBe(true);
  });
});

describe('type helpers', () => {
  it('give void operations an undefined input and keep wire types', () => {
    expectTypeOf<DashboardInput<'GetAdmin'>>().toEqualTypeOf<undefined>();
    expectTypeOf<DashboardInput<'GetUser'>>().toEqualTypeOf<string>();
    expectTypeOf<DashboardInput<'FlagActivityItems'>>().toEqualTypeOf<string[]>();
    expectTypeOf<DashboardOutput<'UpsertBlockRule'>>().toEqualTypeOf<string>();
    expectTypeOf<DashboardOutput<'Logout'>>().toEqualTypeOf<{ success: boolean }>();
    expectTypeOf<DashboardParsedInput<'SaveDevice'>>().toEqualTypeOf<{
      id: string;
      name?: string | undefined;
      releaseChannel: 'stable' | 'beta' | 'canary';
    }>();
    expectTypeOf<DashboardOutput<'Signup'>>().toEqualTypeOf<
      z.input<typeof dashboard.Signup.output>
    >();
    expect(dashboard.GetAdmin.input).toBeNull();
  });
});

describe('IOSDevices output: the optional child id', () => {
  it('parses with and without childId; refuses a childId that is not a UUID', () => {
    const device = examples.IOSDevices.output[0];
    const withChild = [{ ...device, childId: ids.child }];
    expect(dashboard.IOSDevices.output.parse(withChild)).toEqual(withChild);
    expect(dashboard.IOSDevices.output.parse([device])).toEqual([device]);
    expect(dashboard.IOSDevices.output.safeParse([{ ...device, childId: 'Lily' }]).success).toBe(
      false,
    );
  });
});

describe('GetIOSDevice output: the optional pending suspension requests', () => {
  const base = examples.GetIOSDevice.output;
  const pending = { id: ids.suspension, createdAt: at, duration: 600, comment: 'school video' };

  it('parses with childId and pending requests, and without them (the reference shape)', () => {
    const withRequests = { ...base, childId: ids.child, pendingSuspensionRequests: [pending] };
    expect(dashboard.GetIOSDevice.output.parse(withRequests)).toEqual(withRequests);
    expect(dashboard.GetIOSDevice.output.parse(base)).toEqual(base);
    const noComment = { ...pending, comment: undefined };
    expect(
      dashboard.GetIOSDevice.output.safeParse({ ...base, pendingSuspensionRequests: [noComment] })
        .success,
    ).toBe(true);
  });

  it.each([
    [
      'a request without a duration',
      { ...base, pendingSuspensionRequests: [{ id: ids.child, createdAt: at }] },
    ],
    [
      'a request id that is not a UUID',
      { ...base, pendingSuspensionRequests: [{ ...pending, id: 'x' }] },
    ],
    ['a childId that is not a UUID', { ...base, childId: 'lily' }],
    [
      'a date that is not ISO',
      { ...base, pendingSuspensionRequests: [{ ...pending, createdAt: 'today' }] },
    ],
  ])('rejects %s', (_, value) => {
    expect(dashboard.GetIOSDevice.output.safeParse(value).success).toBe(false);
  });
});

describe('two-factor sign-in (issue 12)', () => {
  it.each(['Login', 'LoginMagicLink'] as const)(
    '%s answers a session (today) or a second-factor challenge',
    (name) => {
      const output = dashboard[name].output;
      expect(output.parse(login)).toEqual(login);
      expect(output.parse({ secondFactorChallenge: ids.token })).toEqual({
        secondFactorChallenge: ids.token,
      });
      expect(
        output.safeParse({ secondFactorChallenge: ids.token, secondFactorMethods: ['passkey'] })
          .success,
      ).toBe(true);
      expect(output.safeParse({ secondFactorChallenge: 'nope' }).success).toBe(false);
      expect(output.safeParse({ adminId: ids.admin }).success).toBe(false);
    },
  );

  it.each([
    ['a 6-digit code', '123456', true],
    ['a recovery code', 'k7p2-9xq4-m3td', true],
    ['an empty code', '', false],
    ['a number instead of a string', 123456, false],
    ['a code over 64 characters', 'x'.repeat(65), false],
  ])('LoginSecondFactor takes %s: %s', (_what, code, ok) => {
    expect(
      dashboard.LoginSecondFactor.input.safeParse({ challenge: ids.token, code }).success,
    ).toBe(ok);
  });
});

describe('co-parents and the audit log (issue 12)', () => {
  it('InviteParent needs an email; RemoveParent a UUID', () => {
    expect(dashboard.InviteParent.input.safeParse({}).success).toBe(false);
    expect(dashboard.RemoveParent.input.safeParse({ id: 'nope' }).success).toBe(false);
    expect(dashboard.RemoveParent.input.parse({ id: ids.child.toUpperCase() })).toEqual({
      id: ids.child,
    });
  });

  it('GetParents roles and statuses are closed lists', () => {
    const parent = { id: ids.admin, email: 'a@b.c', role: 'owner', status: 'active' };
    expect(dashboard.GetParents.output.safeParse([parent]).success).toBe(true);
    expect(dashboard.GetParents.output.safeParse([{ ...parent, role: 'admin' }]).success).toBe(
      false,
    );
    expect(dashboard.GetParents.output.safeParse([{ ...parent, status: 'gone' }]).success).toBe(
      false,
    );
  });

  it('GetUnlockRequestsPage: child and cursor are optional; the answer is a page', () => {
    expect(dashboard.GetUnlockRequestsPage.input.parse({})).toEqual({});
    expect(dashboard.GetUnlockRequestsPage.input.parse({ childId: null, before: null })).toEqual(
      {},
    );
    expect(
      dashboard.GetUnlockRequestsPage.input.safeParse({ before: 'x'.repeat(201) }).success,
    ).toBe(false);
    expect(dashboard.GetUnlockRequestsPage.output.safeParse({ requests: [] }).success).toBe(true);
    expect(dashboard.GetUnlockRequestsPage.output.safeParse([]).success).toBe(false);
  });

  it('GetAuditLog filters are all optional; before is an ISO date', () => {
    expect(dashboard.GetAuditLog.input.parse({})).toEqual({});
    expect(dashboard.GetAuditLog.input.parse({ before: null, personId: null })).toEqual({});
    expect(dashboard.GetAuditLog.input.safeParse({ before: 'yesterday' }).success).toBe(false);
    expect(dashboard.GetAuditLog.output.safeParse({ entries: [] }).success).toBe(true);
  });

  it('AcceptParentInvite needs a UUID token and a password', () => {
    expect(dashboard.AcceptParentInvite.auth).toBe('none');
    expect(dashboard.AcceptParentInvite.input.safeParse({ token: ids.token }).success).toBe(false);
    expect(
      dashboard.AcceptParentInvite.input.safeParse({ token: 'x', password: 'long enough pw' })
        .success,
    ).toBe(false);
  });
});
