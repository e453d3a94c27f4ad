import type {
  AdminNotification,
  AdminNotificationTrigger,
  GetAdminOutput,
  VerifiedNotificationMethod,
} from '@keyward/contract/shared';
import { isMethodDeletable } from '@keyward/domain/notifications';
import {
  BellAlertIcon,
  ChatBubbleLeftRightIcon,
  DevicePhoneMobileIcon,
  EnvelopeIcon,
  PlusIcon,
} from '@heroicons/react/24/outline';
import { type Dispatch, useEffect, useId, useReducer, useRef, useState } from 'react';
import { Badge } from '../../components/ui/Badge';
import { Button } from '../../components/ui/Button';
import { Card } from '../../components/ui/Card';
import { cx } from '../../components/ui/cx';
import { DeleteModal } from '../../components/ui/DeleteModal';
import { EmptyState } from '../../components/ui/EmptyState';
import { Modal } from '../../components/ui/Modal';
import { errorMessage, toPqlError } from '../../lib/errors';
import {
  useDeleteNotification,
  useDeleteNotificationMethod,
  usePushSubscriptions,
  useSaveNotification,
} from './api';
import { methodTarget, METHOD_TYPE_LABELS, methodLabel } from './method-display';
import { NewNotificationMethodDrawer } from './NewNotificationMethodDrawer';
import { ThisDeviceSection } from './ThisDeviceSection';
import {
  type NotificationCardsEvent,
  type NotificationDraft,
  initialNotificationCards,
  isEditing,
  notificationCardsReducer,
  TRIGGER_LABELS,
  triggerOptions,
  triggerReachRows,
  visibleNotifications,
} from './notification-cards';
import { closedMethodForm, notificationMethodFormReducer } from './notification-method-form';
import { newId } from '../../lib/new-id';

const METHOD_ICONS = {
  email: EnvelopeIcon,
  text: DevicePhoneMobileIcon,
  slack: ChatBubbleLeftRightIcon,
} as const;

/** Settings' notification methods and notifications, with the slide-in and 'One more step!'. */
export function NotificationSettings({ admin }: { admin: GetAdminOutput }) {
  const [methodForm, dispatchMethodForm] = useReducer(
    notificationMethodFormReducer,
    closedMethodForm,
  );
  const [cards, dispatchCards] = useReducer(notificationCardsReducer, initialNotificationCards);
  const methods = admin.verifiedNotificationMethods;

  function newNotification(methodId: string) {
    dispatchCards({ type: 'newNotificationClicked', id: newId(), methodId });
  }

  const confirmedMethodId =
    methodForm.phase === 'verified' ? methodForm.pendingMethodId : undefined;

  return (
    <>
      <NotificationMethodsSection
        admin={admin}
        onAddMethod={() => dispatchMethodForm({ type: 'createClicked' })}
        onCreateNotification={newNotification}
      />
      <NotificationsSection
        admin={admin}
        cards={cards}
        dispatch={dispatchCards}
        onNewNotification={() => {
          const first = methods[0];
          if (first) newNotification(first.id);
        }}
      />
      <NewNotificationMethodDrawer state={methodForm} dispatch={dispatchMethodForm} />
      <Modal
        isOpen={confirmedMethodId !== undefined}
        title="One more step!"
        onClose={() => dispatchMethodForm({ type: 'cancelClicked' })}
        icon={
          <span className="flex h-10 w-10 items-center justify-center rounded-full bg-violet-100">
            <BellAlertIcon className="h-6 w-6 text-violet-600" aria-hidden="true" />
          </span>
        }
        actions={
          <>
            <Button
              variant="secondary"
              onClick={() => dispatchMethodForm({ type: 'cancelClicked' })}
            >
              Not now
            </Button>
            <Button
              onClick={() => {
                if (confirmedMethodId) newNotification(confirmedMethodId);
                dispatchMethodForm({ type: 'cancelClicked' });
              }}
            >
              Create notification
            </Button>
          </>
        }
      >
        Your notification method is confirmed. Now create a notification to choose which requests
        are sent to it.
      </Modal>
    </>
  );
}

function NotificationMethodsSection({
  admin,
  onAddMethod,
  onCreateNotification,
}: {
  admin: GetAdminOutput;
  onAddMethod: () => void;
  onCreateNotification: (methodId: string) => void;
}) {
  const deleteMethod = useDeleteNotificationMethod();
  const [toDelete, setToDelete] = useState<VerifiedNotificationMethod | null>(null);

  async function confirmDelete() {
    if (!toDelete) return;
    try {
      await deleteMethod.mutateAsync({ type: 'parentVerifiedNotificationMethod', id: toDelete.id });
    } catch {
      // the error toast has told the parent
    }
    setToDelete(null);
  }

  const methods = admin.verifiedNotificationMethods;
  return (
    <Card className="mt-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 className="text-lg font-semibold text-slate-900">Notification methods</h2>
          <p className="text-sm text-slate-500">Where Keyward can reach you.</p>
        </div>
        <Button variant="secondary" size="sm" onClick={onAddMethod}>
          <PlusIcon className="h-4 w-4" aria-hidden="true" />
          Add method
        </Button>
      </div>
      {methods.length === 0 ? (
        <p className="mt-4 text-sm text-slate-500">
          No notification methods yet. Add an email address, a phone number or a Slack channel.
        </p>
      ) : (
        <ul className="mt-4 divide-y divide-slate-100">
          {methods.map((method) => {
            const Icon = METHOD_ICONS[method.config.case];
            const isInUse = admin.notifications.some(
              (notification) => notification.methodId === method.id,
            );
            const isDeletable = isMethodDeletable(method, admin.notifications, admin.email);
            const label = methodTarget(method.config);
            return (
              <li
                key={method.id}
                className="flex flex-wrap items-center gap-x-3 gap-y-2 py-3"
                aria-label={methodLabel(method.config)}
              >
                <Icon className="h-5 w-5 shrink-0 text-violet-600" aria-hidden="true" />
                <span className="min-w-0 flex-1">
                  <span className="block truncate text-sm font-medium text-slate-900">{label}</span>
                  <span className="block text-xs text-slate-500">
                    {METHOD_TYPE_LABELS[method.config.case]}
                  </span>
                </span>
                {!isInUse && <Badge>Not in use</Badge>}
                <span className="flex gap-1">
                  {!isInUse && (
                    <Button
                      variant="ghost"
                      size="sm"
                      onClick={() => onCreateNotification(method.id)}
                      aria-label={`Create a notification for ${label}`}
                    >
                      <PlusIcon className="h-4 w-4" aria-hidden="true" />
                      Notification
                    </Button>
                  )}
                  {isDeletable && (
                    <Button
                      variant="dangerGhost"
                      size="sm"
                      onClick={() => setToDelete(method)}
                      aria-label={`Delete ${label}`}
                    >
                      Delete
                    </Button>
                  )}
                </span>
              </li>
            );
          })}
        </ul>
      )}
      <ThisDeviceSection hasAdminChild={admin.hasAdminChild} />
      <DeleteModal
        isOpen={toDelete !== null}
        type="notification method"
        isDeleting={deleteMethod.isPending}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setToDelete(null)}
      />
    </Card>
  );
}

/** Issue 32: which triggers reach which method, as the server sends them (fallbacks included). */
function WhoIsTold({ admin }: { admin: GetAdminOutput }) {
  const push = usePushSubscriptions();
  const methodLabels = new Map<string, string>(
    admin.verifiedNotificationMethods.map((method) => [method.id, methodLabel(method.config)]),
  );
  const rules: { trigger: AdminNotificationTrigger; methodId: string }[] = [...admin.notifications];
  for (const subscription of push.data?.subscriptions ?? []) {
    methodLabels.set(subscription.id, `Push: ${subscription.label}`);
    for (const trigger of subscription.triggers) rules.push({ trigger, methodId: subscription.id });
  }
  const rows = triggerReachRows({
    triggers: triggerOptions(admin.hasAdminChild),
    rules,
    methodLabels,
    accountEmail: admin.email,
  });
  return (
    <section aria-labelledby="who-is-told" className="mt-6 border-t border-slate-100 pt-4">
      <h3 id="who-is-told" className="text-sm font-semibold text-slate-900">
        Who is told
      </h3>
      <dl className="mt-2 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]">
        {rows.map((row) => (
          <div key={row.trigger} className="contents">
            <dt className="font-medium text-slate-700">{row.label}</dt>
            <dd
              className={cx('break-words', row.withoutRule ? 'text-amber-700' : 'text-slate-600')}
            >
              {row.reaches}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function NotificationsSection({
  admin,
  cards,
  dispatch,
  onNewNotification,
}: {
  admin: GetAdminOutput;
  cards: ReturnType<typeof notificationCardsReducer>;
  dispatch: Dispatch<NotificationCardsEvent>;
  onNewNotification: () => void;
}) {
  const deleteNotification = useDeleteNotification();
  const [toDelete, setToDelete] = useState<AdminNotification | null>(null);
  const notifications = visibleNotifications(admin.notifications, cards);
  const hasMethods = admin.verifiedNotificationMethods.length > 0;

  async function confirmDelete() {
    if (!toDelete) return;
    try {
      await deleteNotification.mutateAsync({ type: 'parentNotification', id: toDelete.id });
    } catch {
      // the error toast has told the parent
    }
    setToDelete(null);
  }

  const newButton = (
    <Button size="sm" onClick={onNewNotification} disabled={!hasMethods}>
      <PlusIcon className="h-4 w-4" aria-hidden="true" />
      New notification
    </Button>
  );
  return (
    <Card className="mt-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 className="text-lg font-semibold text-slate-900">Notifications</h2>
          <p className="text-sm text-slate-500">What Keyward tells you, and where.</p>
        </div>
        {notifications.length > 0 && newButton}
      </div>
      <div className="mt-4">
        {notifications.length === 0 ? (
          <EmptyState
            icon={<BellAlertIcon className="h-10 w-10" aria-hidden="true" />}
            title="No notifications"
            description="Get started by creating a custom notification"
            action={
              <>
                {newButton}
                {!hasMethods && (
                  <p className="mt-2 text-xs text-slate-500">Add a notification method first.</p>
                )}
              </>
            }
          />
        ) : (
          <ul className="grid gap-4 lg:grid-cols-2">
            {notifications.map((notification) => (
              <li key={notification.id}>
                <NotificationCard
                  admin={admin}
                  notification={notification}
                  draft={cards.drafts[notification.id]}
                  isEditing={isEditing(cards, notification.id)}
                  isSaving={cards.savingId === notification.id}
                  isHighlighted={cards.highlightedId === notification.id}
                  dispatch={dispatch}
                  onDelete={() => setToDelete(notification)}
                />
              </li>
            ))}
          </ul>
        )}
      </div>
      <WhoIsTold admin={admin} />
      <DeleteModal
        isOpen={toDelete !== null}
        type="notification"
        isDeleting={deleteNotification.isPending}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setToDelete(null)}
      />
    </Card>
  );
}

function NotificationCard({
  admin,
  notification,
  draft,
  isEditing,
  isSaving,
  isHighlighted,
  dispatch,
  onDelete,
}: {
  admin: GetAdminOutput;
  notification: NotificationDraft;
  draft: NotificationDraft | undefined;
  isEditing: boolean;
  isSaving: boolean;
  isHighlighted: boolean;
  dispatch: Dispatch<NotificationCardsEvent>;
  onDelete: () => void;
}) {
  const card = useRef<HTMLElement>(null);
  const methodSelectId = useId();
  const triggerSelectId = useId();
  const titleId = useId();
  const saveNotification = useSaveNotification();
  const [error, setError] = useState<string | undefined>();

  useEffect(() => {
    if (isHighlighted) card.current?.scrollIntoView?.({ behavior: 'smooth', block: 'center' });
  }, [isHighlighted]);

  const shown = draft ?? notification;
  const method = admin.verifiedNotificationMethods.find((m) => m.id === shown.methodId);
  const title = TRIGGER_LABELS[shown.trigger];

  async function save() {
    if (!draft) return;
    dispatch({ type: 'saveClicked', id: draft.id });
    setError(undefined);
    try {
      await saveNotification.mutateAsync({
        id: draft.id,
        isNew: draft.isNew,
        methodId: draft.methodId,
        trigger: draft.trigger,
      });
      dispatch({ type: 'saveSucceeded', id: draft.id });
    } catch (failure) {
      setError(errorMessage(toPqlError(failure)));
      dispatch({ type: 'saveFailed', id: draft.id });
    }
  }

  return (
    <article
      ref={card}
      aria-labelledby={titleId}
      data-highlighted={isHighlighted || undefined}
      className={cx(
        'h-full rounded-xl p-4 ring-1 transition-shadow',
        isHighlighted ? 'bg-violet-50 ring-2 ring-violet-400' : 'bg-white ring-slate-200',
      )}
    >
      <h3 id={titleId} className="font-semibold text-slate-900">
        {notification.isNew ? 'New notification' : title}
      </h3>
      {isEditing && draft ? (
        <div className="mt-3 space-y-3">
          <div>
            <label
              htmlFor={triggerSelectId}
              className="mb-1 block text-sm font-medium text-slate-700"
            >
              Notify me about
            </label>
            <select
              id={triggerSelectId}
              value={draft.trigger}
              disabled={isSaving}
              onChange={(event) =>
                dispatch({
                  type: 'triggerChanged',
                  id: draft.id,
                  trigger: event.target.value as AdminNotificationTrigger,
                })
              }
              className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-violet-500 focus:ring-2 focus:ring-violet-500/30 focus:outline-none"
            >
              {triggerOptions(admin.hasAdminChild, notification.trigger).map((trigger) => (
                <option key={trigger} value={trigger}>
                  {TRIGGER_LABELS[trigger]}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label
              htmlFor={methodSelectId}
              className="mb-1 block text-sm font-medium text-slate-700"
            >
              Send to
            </label>
            <select
              id={methodSelectId}
              value={draft.methodId}
              disabled={isSaving}
              onChange={(event) =>
                dispatch({ type: 'methodChanged', id: draft.id, methodId: event.target.value })
              }
              className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-violet-500 focus:ring-2 focus:ring-violet-500/30 focus:outline-none"
            >
              {admin.verifiedNotificationMethods.map((option) => (
                <option key={option.id} value={option.id}>
                  {methodLabel(option.config)}
                </option>
              ))}
            </select>
          </div>
          {error && (
            <p role="alert" className="text-sm text-red-700">
              {error}
            </p>
          )}
          <div className="flex justify-end gap-2">
            <Button
              variant="secondary"
              size="sm"
              disabled={isSaving}
              onClick={() => dispatch({ type: 'cancelClicked', id: draft.id })}
            >
              Cancel
            </Button>
            <Button size="sm" isLoading={isSaving} onClick={() => void save()}>
              Save
            </Button>
          </div>
        </div>
      ) : (
        <>
          <p className="mt-1 text-sm text-slate-600">
            Sent to {method ? methodLabel(method.config) : 'a removed method'}
          </p>
          <div className="mt-3 flex justify-end gap-2">
            <Button variant="dangerGhost" size="sm" onClick={onDelete}>
              Delete
            </Button>
            <Button
              variant="secondary"
              size="sm"
              onClick={() => dispatch({ type: 'editClicked', notification })}
            >
              Edit
            </Button>
          </div>
        </>
      )}
    </article>
  );
}
