import { BookOpenIcon, PlayCircleIcon, PlusIcon } from '@heroicons/react/24/outline';
import { LinkButton } from '../../components/ui/Button';
import { FullPageStatus } from '../../components/ui/FullPageStatus';
import { Spinner } from '../../components/ui/Spinner';
import { errorMessage } from '../../lib/errors';
import { externalLinks } from '../../lib/links';
import { useState } from 'react';
import { useRenderTime } from '../../lib/first-render';
import { ConnectionCodeDialog } from '../children/ConnectionCodeDialog';
import { useFamilyDevices } from '../devices/api';
import { inboxAlertsOf, inboxItemsOf, inboxMoreOf, inboxMoreTimeOf, useInbox } from '../inbox/api';
import { useChildrenScreenTime } from '../screen-time/api';
import { MoreTimeRequests, PauseInternetCard } from '../screen-time/ScreenTime';
import { HOME_INBOX_ITEMS } from '../inbox/inbox';
import { NeedsYou } from '../inbox/NeedsYou';
import { useDashboardWidgets } from './api';
import { Greeting } from './Greeting';
import { HomeOverview } from './HomeOverview';
import { homeSituation, nonMacDevicesByChild } from './home-situation';
import { SetupDashboard } from './SetupDashboard';

/**
 * The spec's three situations: the first child has no computer yet (setup), children with
 * computers (overview), no children (welcome). One call, DashboardWidgets, feeds all three.
 */
export default function DashboardPage({ now: nowProp }: { now?: Date }) {
  const renderTime = useRenderTime();
  const now = nowProp ?? renderTime;
  const widgets = useDashboardWidgets();
  const devices = useFamilyDevices();
  const inbox = useInbox();
  const children = useChildrenScreenTime();
  // The connection-code dialog belongs to the page, not to a situation: it stays open (and says
  // "Computer connected") when the connected device turns setup into the overview (issue 20).
  const [connecting, setConnecting] = useState<{ id: string; name: string } | null>(null);
  if (widgets.isPending) return <Spinner className="h-8 w-8" label="Loading..." />;
  if (widgets.isError) {
    if (widgets.error.type === 'loggedOut') return null; // the hook is already redirecting
    return <FullPageStatus status="failure" title="Error" message={errorMessage(widgets.error)} />;
  }
  const otherDevices = nonMacDevicesByChild(devices.data);
  const situation = homeSituation(widgets.data, otherDevices);
  if (situation.case === 'welcome') return <WelcomeDashboard now={now} />;
  const inboxItems = inboxItemsOf(inbox.data);
  const moreTime = inboxMoreTimeOf(inbox.data);
  const childList = Array.isArray(children.data) ? children.data : [];
  const needsYou = (inboxItems || childList.length > 0) && (
    <div className="space-y-6">
      {inboxItems && (
        <NeedsYou
          items={inboxItems}
          more={inboxMoreOf(inbox.data)}
          alerts={inboxAlertsOf(inbox.data)}
          now={now}
          limit={HOME_INBOX_ITEMS}
          hideWhenEmpty
        />
      )}
      {/* issue 34: requests for more time, and Pause internet for each child */}
      <MoreTimeRequests requests={moreTime} now={now} />
      <PauseInternetCard childList={childList} />
    </div>
  );
  return (
    <>
      {situation.case === 'setup' ? (
        <SetupDashboard
          child={situation.child}
          now={now}
          onConnect={() => setConnecting(situation.child)}
          needsYou={needsYou}
        />
      ) : (
        <HomeOverview
          widgets={widgets.data}
          otherDevices={otherDevices}
          now={now}
          needsYou={needsYou}
        />
      )}
      <ConnectionCodeDialog
        isOpen={connecting !== null}
        childId={connecting?.id ?? ''}
        childName={connecting?.name ?? ''}
        onClose={() => setConnecting(null)}
      />
    </>
  );
}

const resourceClasses =
  'flex items-start gap-4 rounded-xl p-4 ring-1 ring-slate-200 transition-colors hover:bg-violet-50 hover:ring-violet-300 focus-visible:outline-2 focus-visible:outline-violet-500';

/** Situation 3 of the spec: no children yet. */
function WelcomeDashboard({ now }: { now: Date }) {
  return (
    <div className="space-y-6">
      <Greeting now={now} title="Welcome to Keyward" />
      <section className="rounded-2xl bg-gradient-to-br from-violet-600 to-fuchsia-600 p-6 text-white shadow-sm">
        <h2 className="text-xl font-semibold">Let's get your first child set up</h2>
        <p className="mt-2 max-w-2xl text-violet-100">
          Keyward keeps your child's computer safe by blocking the internet except for what you
          unlock with keys. Start by adding a child, then connect their computer with the Keyward
          Mac app.
        </p>
        <div className="mt-6">
          <LinkButton to="/children/new" variant="secondary" size="lg">
            <PlusIcon className="h-5 w-5" aria-hidden="true" />
            Add a child
          </LinkButton>
        </div>
      </section>
      <div className="grid gap-4 md:grid-cols-2">
        <a
          href={externalLinks.howToVideo}
          target="_blank"
          rel="noopener noreferrer"
          className={resourceClasses}
        >
          <PlayCircleIcon className="h-8 w-8 shrink-0 text-violet-600" aria-hidden="true" />
          <span>
            <span className="block font-semibold text-slate-900">Read the how-to guide</span>
            <span className="block text-sm text-slate-500">
              How parents set up Keyward, step by step, in a few minutes.
            </span>
          </span>
        </a>
        <a
          href={externalLinks.gettingStartedGuide}
          target="_blank"
          rel="noopener noreferrer"
          className={resourceClasses}
        >
          <BookOpenIcon className="h-8 w-8 shrink-0 text-fuchsia-600" aria-hidden="true" />
          <span>
            <span className="block font-semibold text-slate-900">
              Read the getting-started guide
            </span>
            <span className="block text-sm text-slate-500">
              Step by step: children, computers, keychains and keys.
            </span>
          </span>
        </a>
      </div>
    </div>
  );
}
