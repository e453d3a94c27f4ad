import { alertCategoriesInWords } from '@keyward/domain/alert-categories';
import { securityEventSummary, securityEventWording } from '@keyward/domain/security-events';
import { minutesInWords } from '@keyward/domain/screen-time';
import { durationInWords } from '../services/mail-templates.ts';

// The words and links of parent notifications (server-behaviour §6.2). Emails render these facts
// through the notify-* templates; texts and Slack messages use `plainText`.

/** What a trigger tells the parent (notifyParent in dispatch.ts sends it). */
export type ParentNotification =
  | {
      trigger: 'unlockRequestSubmitted';
      parentId: string;
      childId: string;
      childName: string;
      /** Ids of the unlock requests of one batch (one notification per batch). */
      requestIds: string[];
    }
  | {
      trigger: 'suspendFilterRequestSubmitted';
      parentId: string;
      childId: string;
      childName: string;
      requestId: string;
      durationSeconds: number;
      comment: string | null;
      /** Dashboard path overriding the Mac default (iOS: `/ios-devices/{deviceId}`). */
      path?: string;
      /** Requests this notification stands for (absent: 1); the fields above are the latest's. */
      count?: number;
      /** Issue 34: a request for this many more minutes of screen time today (same trigger: the
       * parents who hear of requests to turn the filter off hear of requests for more time) */
      moreTimeMinutes?: number;
    }
  | {
      trigger: 'adminChildSecurityEvent';
      parentId: string;
      childId: string;
      childName: string;
      event: string;
      detail: string | null;
      /** Events this notification stands for (absent: 1); event and detail are the latest's. */
      count?: number;
    }
  | {
      // issue 24: typed lines that matched the child's alert words (grouped per window)
      trigger: 'activityAlert';
      parentId: string;
      childId: string;
      childName: string;
      /** Alerted lines this notification stands for. */
      count: number;
      /** Their categories, most serious first (alert-categories order). */
      categories: string[];
    };

/** Shown at most in one message; the link leads to the full list. */
export const MAX_LISTED_TARGETS = 5;

export interface NotificationFacts {
  notification: ParentNotification;
  /** Absolute link to the dashboard page of the event. */
  url: string;
  /** Unlock requests: what the child asked for (first MAX_LISTED_TARGETS), and how many. */
  targets: string[];
  count: number;
  /** Unlock requests: the batch's shared comment. */
  comment: string | null;
}

export function notificationUrl(
  dashboardUrl: string,
  notification: ParentNotification,
  count: number,
): string {
  const base = dashboardUrl.replace(/\/$/, '');
  const child = `${base}/children/${notification.childId}`;
  switch (notification.trigger) {
    case 'unlockRequestSubmitted':
      return count === 1 && notification.requestIds[0]
        ? `${child}/unlock-requests/${notification.requestIds[0]}`
        : `${child}/unlock-requests`;
    case 'suspendFilterRequestSubmitted':
      return notification.path
        ? `${base}/${notification.path.replace(/^\//, '')}`
        : `${child}/suspend-filter-requests/${notification.requestId}`;
    case 'adminChildSecurityEvent':
      return `${base}/security-events`;
    case 'activityAlert':
      return `${child}/activity`;
  }
}

/** The one-line message of texts and Slack (§6.2). */
export function plainText(appName: string, facts: NotificationFacts): string {
  const { notification: n, url } = facts;
  switch (n.trigger) {
    case 'unlockRequestSubmitted': {
      const what = facts.count === 1 ? 'New unlock request' : `${facts.count} new unlock requests`;
      return `[${appName}] ${what} from ${n.childName}. View the details and approve or deny at ${url}`;
    }
    case 'suspendFilterRequestSubmitted': {
      const comment = n.comment ? ` Comment: "${n.comment}".` : '';
      if (n.moreTimeMinutes !== undefined) {
        const what =
          (n.count ?? 1) === 1
            ? `${n.childName} asks for ${minutesInWords(n.moreTimeMinutes)} more screen time today.`
            : `${n.childName} asked ${n.count} times for more screen time, the latest for ${minutesInWords(n.moreTimeMinutes)}.`;
        return `[${appName}] ${what}${comment} Allow or deny at ${url}`;
      }
      const duration = durationInWords(n.durationSeconds);
      const what =
        (n.count ?? 1) === 1
          ? `New suspend filter request from ${n.childName} for ${duration}.`
          : `${n.count} new suspend filter requests from ${n.childName}, the latest for ${duration}.`;
      return `[${appName}] ${what}${comment} View the details and approve or deny at ${url}`;
    }
    case 'adminChildSecurityEvent': {
      const explanation = securityEventWording(n.event)?.explanation;
      const summary = securityEventSummary(n.event, n.detail);
      const what =
        (n.count ?? 1) === 1
          ? `Received security event: "${summary}" for child ${n.childName}.`
          : `Received ${n.count} security events for child ${n.childName}, the latest: "${summary}".`;
      return `[${appName}] ${what}${explanation ? ` ${explanation}` : ''} ${url}`;
    }
    case 'activityAlert': {
      // the categories only: what the child typed never leaves the server
      const categories = alertCategoriesInWords(n.categories);
      const what =
        n.count === 1
          ? `Alert on what ${n.childName} typed (${categories}). Review it at`
          : `${n.count} alerts on what ${n.childName} typed (${categories}). Review them at`;
      return `[${appName}] ${what} ${url}`;
    }
  }
}
