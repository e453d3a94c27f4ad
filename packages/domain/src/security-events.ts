// Fixed wording of security events (server-behaviour §3.9 and §6.2): the human words for each event
// name and the paragraph explaining it, for the security feed and for admin-child notifications.
// Unknown names have no wording (the feed drops them).

export interface SecurityEventWording {
  words: string;
  explanation: string;
}

const MAC_EVENTS = {
  filterSuspendedRemotely: {
    words: 'Filter suspended remotely',
    explanation:
      'The filter was suspended from the dashboard. While it is suspended, the child can reach any website or app.',
  },
  filterSuspensionGrantedByAdmin: {
    words: 'Filter suspension granted by admin',
    explanation:
      "Someone with the computer's administrator password suspended the filter on the computer itself. If that was not you, the child may know an administrator password.",
  },
  filterSuspensionExpired: {
    words: 'Filter suspension expired',
    explanation:
      'A filter suspension reached its end and the filter is protecting the computer again.',
  },
  filterSuspensionEndedEarly: {
    words: 'Filter suspension ended early',
    explanation: 'A filter suspension was ended before its time ran out; the filter is on again.',
  },
  systemExtensionChangeRequested: {
    words: 'System extension change requested',
    explanation:
      "A change to the filter's system extension was requested. The system extension is what does the filtering; turning it off or replacing it stops the filter.",
  },
  systemExtensionStateChanged: {
    words: 'System extension state changed',
    explanation:
      "The filter's system extension changed state. If it is no longer running, websites and apps are not being filtered on this computer.",
  },
  appQuit: {
    words: 'App quit',
    explanation:
      'The filter app was quit. A child with an administrator account can quit it; check that it was started again.',
  },
  appLaunched: {
    words: 'App launched',
    explanation:
      'The filter app started, for example after the computer restarted or after it was quit.',
  },
  newMacOsUserCreated: {
    words: 'New macOS user created',
    explanation:
      'A new user account was created on the computer. A new account is not filtered until the filter app is connected in it.',
  },
  macosUserExempted: {
    words: 'macOS user exempted',
    explanation: 'A user account on the computer was exempted from filtering.',
  },
  childDisconnected: {
    words: 'Child disconnected',
    explanation:
      'The filter app was disconnected from this child on the computer, so this account is no longer protected or monitored.',
  },
  appUpdateSucceeded: {
    words: 'App update succeeded',
    explanation: 'The filter app was updated to a new version.',
  },
  appUpdateFailedToReplaceSystemExtension: {
    words: 'App update failed to replace system extension',
    explanation:
      'The filter app was updated but could not replace its system extension. Filtering may not work until the computer is restarted or the app is reinstalled.',
  },
  advancedSettingsOpened: {
    words: 'Advanced settings opened',
    explanation: "The filter app's advanced settings were opened on the computer.",
  },
  systemClockOrTimeZoneChanged: {
    words: 'System clock or time zone changed',
    explanation:
      "The computer's clock or time zone was changed. Changing the time can be a way around downtime, schedules or key expirations.",
  },
  blockedAppLaunchAttempted: {
    words: 'Blocked app launch attempted',
    explanation: 'Someone tried to open an app that is blocked for this child.',
  },
} satisfies Record<string, SecurityEventWording>;

/** issue 22: Keyward for Chrome's tamper and health signals (the server names them). */
export const BROWSER_SECURITY_EVENT_NAMES = {
  extensionRemoved: 'browserExtensionRemoved',
  incognitoNotAllowed: 'browserIncognitoNotAllowed',
  filterOfflineWhileInUse: 'browserFilterOffline',
  suspensionExpired: 'browserSuspensionExpired',
  clockChanged: 'browserClockChanged',
} as const;

const BROWSER_EVENTS = {
  browserExtensionRemoved: {
    words: 'Browser filter removed',
    explanation:
      'Keyward was removed from the browser, so it is no longer filtered or monitored. Install it again, and use a managed install so the child cannot remove it.',
  },
  browserIncognitoNotAllowed: {
    words: 'Incognito windows not filtered',
    explanation:
      'Keyward is not allowed to run in incognito windows of this browser, so the child can browse there unfiltered. Allow it in the extension’s details, or turn incognito off by policy.',
  },
  browserFilterOffline: {
    words: 'Browser filter offline while in use',
    explanation:
      'The browser was being used while Keyward could not reach the server for several minutes. The last rules stayed in force, but new requests and activity could not be sent.',
  },
  browserSuspensionExpired: {
    words: 'Filter suspension expired',
    explanation: 'A filter suspension reached its end and the browser is filtered again.',
  },
  browserClockChanged: {
    words: 'Clock changed',
    explanation:
      "The computer's clock is far from the server's. Changing the time can be a way around downtime, schedules or key expirations.",
  },
} satisfies Record<
  (typeof BROWSER_SECURITY_EVENT_NAMES)[keyof typeof BROWSER_SECURITY_EVENT_NAMES],
  SecurityEventWording
>;

/** issue 33: Keyward DNS devices' signals (the server's silence job raises them). */
export const DNS_SECURITY_EVENT_NAMES = {
  deviceSilent: 'dnsDeviceSilent',
} as const;

const DNS_EVENTS = {
  dnsDeviceSilent: {
    words: 'Keyward DNS device silent for a day',
    explanation:
      'A device filtered by Keyward DNS was in use but has not asked Keyward anything for a day. It may be switched off, or the child may have removed its profile or changed its Private DNS or DNS setting, which leaves it unfiltered. Check the device.',
  },
} satisfies Record<
  (typeof DNS_SECURITY_EVENT_NAMES)[keyof typeof DNS_SECURITY_EVENT_NAMES],
  SecurityEventWording
>;

const DASHBOARD_EVENTS = {
  login: { words: 'Login', explanation: 'Someone logged in to this parent account.' },
  loginFailed: {
    words: 'Login failed',
    explanation: 'Someone tried to log in to this parent account with a wrong password.',
  },
  passwordResetRequested: {
    words: 'Password reset requested',
    explanation: 'A password reset link was requested for this parent account.',
  },
  passwordChanged: {
    words: 'Password changed',
    explanation:
      'The password of this parent account was changed, and every session was signed out.',
  },
  childAdded: { words: 'Child added', explanation: 'A child was added to this account.' },
  childDeleted: {
    words: 'Child deleted',
    explanation: "A child was deleted, with the child's computers, requests and activity.",
  },
  childComputerDeleted: {
    words: 'Child computer deleted',
    explanation: 'A computer was disconnected from a child; it is no longer filtered or monitored.',
  },
  monitoringDecreased: {
    words: 'Monitoring decreased',
    explanation:
      "A child's monitoring was reduced (keylogging, screenshots or suspension activity).",
  },
  keyCreated: {
    words: 'Key created',
    explanation: 'A key was added, unlocking a website or an app.',
  },
  keychainCreated: { words: 'Keychain created', explanation: 'A keychain was created.' },
  keychainsChanged: {
    words: 'Keychains changed',
    explanation:
      'The keychains a child holds were changed, which changes what the child can reach.',
  },
  notificationDeleted: {
    words: 'Notification deleted',
    explanation: 'A notification was deleted, so some events no longer reach you.',
  },
  blockedAppsChanged: {
    words: 'Blocked apps changed',
    explanation: 'The list of apps blocked for a child was changed.',
  },
  iosBlockRuleDeleted: {
    words: 'iOS block rule deleted',
    explanation: 'A block rule of an iPhone or iPad was deleted.',
  },
  totpEnabled: {
    words: 'Authenticator app turned on',
    explanation: 'Signing in now asks for a code from an authenticator app after the password.',
  },
  totpDisabled: {
    words: 'Authenticator app turned off',
    explanation:
      'The authenticator app was removed from sign-in, and its recovery codes no longer work.',
  },
  recoveryCodeUsed: {
    words: 'Recovery code used',
    explanation:
      'Someone signed in with a one-time recovery code instead of an authenticator code.',
  },
  passkeyAdded: {
    words: 'Passkey added',
    explanation: 'A passkey was added; it can be used to sign in to this parent account.',
  },
  passkeyRemoved: {
    words: 'Passkey removed',
    explanation: 'A passkey was removed and can no longer be used to sign in.',
  },
  dataExportRequested: {
    words: 'Data export requested',
    explanation: "A copy of all the family's data was requested; a download link is emailed.",
  },
} satisfies Record<string, SecurityEventWording>;

const ALL: Record<string, SecurityEventWording> = {
  ...MAC_EVENTS,
  ...BROWSER_EVENTS,
  ...DNS_EVENTS,
  ...DASHBOARD_EVENTS,
};

export function securityEventWording(event: string): SecurityEventWording | undefined {
  return Object.hasOwn(ALL, event) ? ALL[event] : undefined;
}

/** "<words>: <detail>" as in §6.2 (the raw name when the event is unknown). */
export function securityEventSummary(event: string, detail: string | null | undefined): string {
  const words = securityEventWording(event)?.words ?? event;
  return detail ? `${words}: ${detail}` : words;
}

/** The security feed shows the last 14 days (spec §9). */
export const SECURITY_EVENTS_WINDOW_DAYS = 14;

/** "Mountain View, California, US": the known parts of an IP location, or undefined when none. */
export function formatIpLocation(
  location: { city?: string; region?: string; countryCode?: string } | undefined,
): string | undefined {
  if (!location) return undefined;
  const parts = [location.city, location.region, location.countryCode]
    .map((part) => part?.trim())
    .filter((part): part is string => Boolean(part));
  const unique = parts.filter((part, index) => parts.indexOf(part) === index);
  return unique.length > 0 ? unique.join(', ') : undefined;
}
