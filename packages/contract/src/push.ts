import { z } from 'zod';

// Issue 23: the Web Push wire between the server and the dashboard's service worker
// (apps/web/build/service-worker.js): what each push message carries, and the call the service
// worker makes when the parent taps an action of a suspension request's notification. The
// service worker is plain JavaScript and does not import this; the server checks its side with it
// and the tests check both.

/** Where the service worker sends a tapped action (same origin as the dashboard's server). */
export const PUSH_DECIDE_PATH = '/push-actions/decide';

/** The actions a suspension request's notification offers. */
export const PushSuspensionAction = z.enum(['allow15', 'deny']);
export type PushSuspensionAction = z.infer<typeof PushSuspensionAction>;

/** One push message, as the service worker reads it from the push event's data (JSON). */
export const PushMessage = z.object({
  title: z.string().min(1),
  body: z.string(),
  /** one notification per trigger and child: a newer one replaces it */
  tag: z.string().min(1),
  /** the dashboard page to open, relative to the dashboard's origin */
  url: z.string().startsWith('/'),
  /** a suspension request alone in its group: decide from the notification */
  actions: z.array(z.object({ action: PushSuspensionAction, title: z.string() })).optional(),
  /** single-use, signed; stands in for a session for this one request */
  actionToken: z.string().min(1).optional(),
  decideUrl: z.literal(PUSH_DECIDE_PATH).optional(),
});
export type PushMessage = z.infer<typeof PushMessage>;

/** The service worker's body for PUSH_DECIDE_PATH. */
export const PushDecideInput = z.object({
  token: z.string().min(1).max(512),
  action: PushSuspensionAction,
});
export type PushDecideInput = z.infer<typeof PushDecideInput>;

/** Every answer of PUSH_DECIDE_PATH (2xx or not): the words of the notification that replaces the tapped one. */
export const PushDecideOutput = z.object({ message: z.string().min(1) });
export type PushDecideOutput = z.infer<typeof PushDecideOutput>;
