import type { DashboardWidgetsOutput } from '@keyward/contract/shared';
import {
  GiftIcon,
  InformationCircleIcon,
  MegaphoneIcon,
  SparklesIcon,
  XMarkIcon,
} from '@heroicons/react/24/outline';
import { useState } from 'react';
import { AnnouncementText } from './announcement-html';
import { useDismissAnnouncement } from './api';

type Announcement = NonNullable<DashboardWidgetsOutput['announcement']>;

const icons = {
  megaphone: MegaphoneIcon,
  info: InformationCircleIcon,
  sparkles: SparklesIcon,
  gift: GiftIcon,
} as const;

/** The operator's announcement with Learn more and Dismiss (remembered by the server). */
export function AnnouncementBanner({ announcement }: { announcement: Announcement }) {
  const dismiss = useDismissAnnouncement();
  const [dismissedId, setDismissedId] = useState<string>();
  if (dismissedId === announcement.id) return null;
  const Icon = icons[(announcement.icon ?? '') as keyof typeof icons] ?? MegaphoneIcon;
  return (
    <section
      aria-label="Announcement"
      className="flex flex-col gap-3 rounded-2xl bg-gradient-to-r from-violet-600 to-fuchsia-600 p-4 text-white shadow-sm sm:flex-row sm:items-center"
    >
      <Icon className="h-6 w-6 shrink-0 text-violet-100" aria-hidden="true" />
      <p className="min-w-0 flex-1 text-sm">
        <AnnouncementText html={announcement.html} />
      </p>
      <div className="flex shrink-0 items-center gap-2">
        {announcement.learnMoreUrl && (
          <a
            href={announcement.learnMoreUrl}
            target="_blank"
            rel="noopener noreferrer"
            className="rounded-lg bg-white px-3 py-1.5 text-sm font-semibold text-violet-700 hover:bg-violet-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
          >
            Learn more<span className="sr-only"> about this announcement</span>
          </a>
        )}
        <button
          type="button"
          onClick={() => {
            setDismissedId(announcement.id);
            dismiss.mutate(
              { type: 'announcement', id: announcement.id },
              { onError: () => setDismissedId(undefined) },
            );
          }}
          className="inline-flex items-center gap-1 rounded-lg px-3 py-1.5 text-sm font-semibold text-white ring-1 ring-white/60 hover:bg-white/10 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
        >
          <XMarkIcon className="h-4 w-4" aria-hidden="true" />
          Dismiss
        </button>
      </div>
    </section>
  );
}
