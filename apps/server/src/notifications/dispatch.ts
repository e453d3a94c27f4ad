import type { RequestContext } from '../pairql/context.ts';

// Parent notifications (server-behaviour §6). The single entry point that triggers call AFTER their
// transaction has committed. It never throws: each rule is sent independently, a failing channel is
// logged at error level and neither stops the others nor fails the child's request.
//
// INTERFACE CONTRACT (shared between the requests code and the notifications code):
//   await notifyParent(ctx, { trigger: 'unlockRequestSubmitted', parentId, childId, childName,
//                             requestIds: [...] })
//   await notifyParent(ctx, { trigger: 'suspendFilterRequestSubmitted', parentId, childId, childName,
//                             requestId, durationSeconds, comment, link? })
//   await notifyParent(ctx, { trigger: 'adminChildSecurityEvent', parentId, childId, childName,
//                             event, detail? })
// The implementation builds the §6.2 texts and links itself from these fields.

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
    }
  | {
      trigger: 'adminChildSecurityEvent';
      parentId: string;
      childId: string;
      childName: string;
      event: string;
      detail: string | null;
    };

export type NotifyContext = Pick<
  RequestContext,
  'db' | 'config' | 'clock' | 'services' | 'log' | 'dashboardUrl'
>;

export async function notifyParent(
  ctx: NotifyContext,
  notification: ParentNotification,
): Promise<void> {
  // Placeholder until the notifications module lands: logs only.
  ctx.log.info({ notification }, 'parent notification (dispatch not built yet)');
}
