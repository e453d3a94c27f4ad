// The audit log in a parent's words (issue 20): what each change was, never the wire's operation
// names ('InviteParent', 'DeleteActivityItems_v2') or a table's ('added co parent').

const OPERATION_WORDS: Readonly<Record<string, string>> = {
  ConfirmPendingNotificationMethod: 'Confirmed a notification method',
  ConfirmTotpEnrolment: 'Turned on the authenticator app',
  CreateDnsDevice: 'Added a device filtered by Keyward DNS',
  CreatePendingAppConnection: 'Created a connection code',
  CreatePendingNotificationMethod: 'Started adding a notification method',
  DecideFilterSuspensionRequest: 'Answered a suspension request',
  DecideMoreTimeRequest: 'Answered a request for more time',
  DeleteActivityItems_v2: 'Deleted activity',
  DeletePushSubscription: 'Turned off notifications on a device',
  DeleteEntity_v2: 'Deleted',
  DisableTotp: 'Turned off the authenticator app',
  FinishPasskeyRegistration: 'Added a passkey',
  FlagActivityItems: 'Flagged activity',
  PauseInternet: "Paused a child's internet",
  HandleCheckoutCancel: 'Cancelled a checkout',
  HandleCheckoutSuccess: 'Completed a checkout',
  InviteParent: 'Invited a co-parent',
  RemoveParent: 'Removed a co-parent',
  RemovePasskey: 'Removed a passkey',
  RequestDataExport: 'Asked for a data export',
  RequestPublicKeychain: 'Asked for a public keychain',
  ResumeInternet: "Resumed a child's internet",
  SaveDevice: 'Saved a computer',
  SaveKey: 'Saved a key',
  SaveKeychain: 'Saved a keychain',
  SaveNotification: 'Saved a notification',
  SaveScreenTime: "Changed a child's screen time",
  SavePushSubscription: 'Turned on notifications on a device',
  SaveWeeklyReport: 'Changed the weekly report',
  SaveUser: 'Saved a child',
  StartPasskeyRegistration: 'Started adding a passkey',
  StartTotpEnrolment: 'Started setting up the authenticator app',
  ToggleChildKeychain: "Changed a child's keychains",
  UpdateIOSDevice: 'Saved an iPad or iPhone',
  UpdateUnlockRequest: 'Answered an unlock request',
  UpsertBlockRule: 'Saved a block rule',
};

const ENTITY_WORDS: Readonly<Record<string, string>> = {
  coParent: 'co-parent',
  computerUser: 'computer connection',
  iosDevice: 'iPad or iPhone',
  moreTimeRequest: 'request for more time',
  pendingNotificationMethod: 'notification method (not confirmed yet)',
  signInSecurity: 'sign-in security',
};

/** 'DeleteActivityItems_v2' → 'delete activity items'; 'coParent' → 'co parent'. */
function camelWords(name: string): string {
  return name
    .replace(/_v\d+$/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase();
}

/** The change an operation made, as a parent says it: 'InviteParent' → 'Invited a co-parent'. */
export function operationWords(operation: string): string {
  const known = OPERATION_WORDS[operation];
  if (known) return known;
  const text = camelWords(operation);
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** What a change was made to: 'coParent' → 'co-parent', 'blockRule' → 'block rule'. */
export function entityWords(entityType: string): string {
  return ENTITY_WORDS[entityType] ?? camelWords(entityType);
}

/** The audited operations that have words of their own (the rest are spelled out). */
export const OPERATIONS_IN_WORDS: readonly string[] = Object.keys(OPERATION_WORDS);
