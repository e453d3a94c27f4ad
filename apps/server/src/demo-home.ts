import { createAnnouncements } from './announcements.ts';
import type { Db } from './db/database.ts';
import { addMs, HOUR, MINUTE, toDbTime } from './db/values.ts';
import { newToken } from './services/tokens.ts';

// The demo family's part of the home page and the security feed (issue 9): an announcement, and
// security events of both kinds from several places — the Macs report theirs through the device
// API's LogSecurityEvent; the dashboard's own events come from the seeding's operations (child
// added, keychain and key created…) plus two sign-ins from public IPs, so the feed shows locations.

type Call = (path: string, input: unknown, headers?: Record<string, string>) => Promise<unknown>;

const MAC_EVENTS: { serialNumber: string; event: string; detail?: string }[] = [
  { serialNumber: 'DEMOC02AIR01', event: 'appLaunched', detail: 'after a restart' },
  {
    serialNumber: 'DEMOC02AIR01',
    event: 'systemClockOrTimeZoneChanged',
    detail: 'time zone set to Pacific/Honolulu',
  },
  { serialNumber: 'DEMOC02IMAC1', event: 'blockedAppLaunchAttempted', detail: 'Discord' },
  { serialNumber: 'DEMOC02IMAC1', event: 'advancedSettingsOpened' },
];

export async function seedDemoHome(
  call: Call,
  db: Db,
  options: {
    parentEmail: string;
    dashboardUrl: string;
    macTokens: Map<string, string>;
    now: Date;
  },
): Promise<void> {
  await createAnnouncements(db, options.now, {
    html: '<b>New:</b> the security feed now shows where each sign-in came from.',
    icon: 'sparkles',
    learnMoreUrl: `${options.dashboardUrl}/getting-started#how-to`,
    to: { emails: [options.parentEmail] },
  });

  for (const { serialNumber, event, detail } of MAC_EVENTS) {
    const token = options.macTokens.get(serialNumber);
    if (!token) throw new Error(`Demo seeding: no token for the computer ${serialNumber}`);
    const computerUser = await db
      .selectFrom('computer_users as cu')
      .innerJoin('computers as c', 'c.id', 'cu.computer_id')
      .select('cu.id')
      .where('c.serial_number', '=', serialNumber)
      .executeTakeFirstOrThrow();
    await call(
      'macos-app/LogSecurityEvent',
      { deviceId: computerUser.id, event, ...(detail ? { detail } : {}) },
      { 'x-usertoken': token },
    );
  }

  const parent = await db
    .selectFrom('parents')
    .select('id')
    .where('email', '=', options.parentEmail)
    .executeTakeFirstOrThrow();
  const signIns = [
    { event: 'loginFailed', detail: 'incorrect password', ip: '81.2.69.160', ago: 26 * HOUR },
    { event: 'login', detail: 'using email/password', ip: '8.8.8.8', ago: 26 * HOUR - 2 * MINUTE },
  ];
  await db
    .insertInto('security_events')
    .values(
      signIns.map((signIn) => ({
        id: newToken(),
        parent_id: parent.id,
        computer_user_id: null,
        event: signIn.event,
        detail: signIn.detail,
        ip_address: signIn.ip,
        created_at: toDbTime(addMs(options.now, -signIn.ago)),
      })),
    )
    .execute();
}
