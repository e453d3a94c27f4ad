import type { InboxItem } from '@keyward/contract/shared';

export const EMMA_ID = 'aa11bb22-cc33-4d44-8e55-667788990011';
export const NOAH_ID = 'bb22cc33-dd44-4e55-8f66-778899001122';
export const MAC_ID = 'cc33dd44-ee55-4f66-8077-889900112233';
export const IPAD_ID = 'dd44ee55-ff66-4077-8188-990011223344';

const isoMinutesAgo = (minutes: number, now = Date.now()) =>
  new Date(now - minutes * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** A pending suspension request (or an unlock request with `target`). */
export function itemOf({
  id,
  childName = 'Emma',
  minutesAgo = 1,
  target,
  onIpad = false,
  comment,
}: {
  id: string;
  childName?: string;
  minutesAgo?: number;
  target?: string;
  onIpad?: boolean;
  comment?: string;
}): InboxItem {
  const base = {
    id,
    childId: childName === 'Emma' ? EMMA_ID : NOAH_ID,
    childName,
    device: onIpad
      ? { kind: 'ios' as const, id: IPAD_ID, name: 'iPad' }
      : { kind: 'mac' as const, id: MAC_ID, name: 'MacBook Air' },
    createdAt: isoMinutesAgo(minutesAgo),
    ...(comment ? { requestComment: comment } : {}),
  };
  return target === undefined
    ? {
        case: 'suspension',
        ...base,
        requestedDurationInSeconds: 600,
        extraMonitoringOptions: onIpad ? {} : { k: 'Keylogging' },
      }
    : { case: 'unlock', ...base, target };
}
