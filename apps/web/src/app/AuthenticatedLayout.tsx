import { Bars3Icon, XMarkIcon } from '@heroicons/react/24/outline';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { cx } from '../components/ui/cx';
import { Logo } from '../components/ui/Logo';
import { badgeText } from '../features/inbox/inbox';
import { useInboxCount } from '../features/inbox/useInboxCount';
import { useIosDevices } from '../features/ios-devices/api';
import { useFocusTrap } from '../lib/focus-trap';
import { ReachabilityProvider, useReachability } from '../lib/server-reachability';
import { PageSuspense } from './PageSuspense';
import { ReachabilityBanner } from './ReachabilityBanner';
import { Sidebar } from './Sidebar';
import { useIsMobile } from '../lib/useIsMobile';
import { useSidebarCollapsed } from './useSidebarCollapsed';

export default function AuthenticatedLayout() {
  const isMobile = useIsMobile();
  const [isCollapsed, toggleCollapsed] = useSidebarCollapsed();
  const [isSlideOverOpen, setIsSlideOverOpen] = useState(false);
  const { pathname } = useLocation();
  const iosDevices = useIosDevices();
  const hasIosDevices = Array.isArray(iosDevices.data) && iosDevices.data.length > 0;
  const reachability = useReachability(useQueryClient());
  const inboxCount = useInboxCount();

  // Leaving mobile width, or navigating, closes the slide-over.
  useEffect(() => {
    if (!isMobile) setIsSlideOverOpen(false);
  }, [isMobile]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: close on every path change
  useEffect(() => setIsSlideOverOpen(false), [pathname]);

  const slideOver = useRef<HTMLDivElement>(null);
  useFocusTrap(slideOver, { isOpen: isSlideOverOpen, onEscape: () => setIsSlideOverOpen(false) });

  return (
    <ReachabilityProvider value={reachability}>
      <div className="flex min-h-full">
        <a
          href="#main-content"
          className="sr-only z-50 rounded-lg bg-white px-4 py-2 font-semibold text-violet-800 shadow-lg focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus-visible:outline-2 focus-visible:outline-violet-500"
        >
          Skip to content
        </a>
        {isMobile ? (
          <>
            <header className="fixed inset-x-0 top-0 z-30 flex h-14 items-center gap-3 border-b border-slate-200 bg-white/95 px-4 backdrop-blur">
              <button
                type="button"
                onClick={() => setIsSlideOverOpen(true)}
                aria-label="Open menu"
                aria-expanded={isSlideOverOpen}
                aria-controls="mobile-sidebar"
                className="-ml-2 rounded-lg p-2 text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-violet-500"
              >
                <Bars3Icon className="h-6 w-6" aria-hidden="true" />
              </button>
              <Link to="/" aria-label="Keyward dashboard">
                <Logo className="[&_span]:text-lg" />
              </Link>
              {inboxCount > 0 && (
                <Link
                  to="/inbox"
                  className="ml-auto inline-flex items-center gap-1.5 rounded-full bg-fuchsia-700 px-3 py-1 text-sm font-semibold text-white focus-visible:outline-2 focus-visible:outline-violet-500"
                >
                  Needs you
                  <span className="rounded-full bg-white px-1.5 text-xs font-bold text-fuchsia-800">
                    {badgeText(inboxCount)}
                  </span>
                </Link>
              )}
            </header>
            {isSlideOverOpen && (
              <div
                ref={slideOver}
                className="fixed inset-0 z-40"
                role="dialog"
                aria-modal="true"
                aria-label="Menu"
              >
                <div
                  className="absolute inset-0 bg-slate-900/50"
                  aria-hidden="true"
                  onClick={() => setIsSlideOverOpen(false)}
                />
                <div id="mobile-sidebar" className="relative flex h-full w-72 max-w-[85%] flex-col">
                  <Sidebar
                    onNavigate={() => setIsSlideOverOpen(false)}
                    hasIosDevices={hasIosDevices}
                    inboxCount={inboxCount}
                  />
                  <button
                    type="button"
                    onClick={() => setIsSlideOverOpen(false)}
                    aria-label="Close menu"
                    className="absolute top-4 -right-12 rounded-full bg-white/10 p-2 text-white focus-visible:outline-2 focus-visible:outline-white"
                  >
                    <XMarkIcon className="h-6 w-6" aria-hidden="true" />
                  </button>
                </div>
              </div>
            )}
          </>
        ) : (
          <aside
            className={cx(
              'sticky top-0 h-screen shrink-0 transition-[width] duration-200',
              isCollapsed ? 'w-20' : 'w-64',
            )}
          >
            <Sidebar
              isCollapsed={isCollapsed}
              onToggleCollapsed={toggleCollapsed}
              hasIosDevices={hasIosDevices}
              inboxCount={inboxCount}
            />
          </aside>
        )}
        <main
          id="main-content"
          tabIndex={-1}
          className={cx(
            'min-w-0 flex-1 px-4 pb-10 focus:outline-none sm:px-8',
            isMobile ? 'pt-20' : 'pt-8',
          )}
        >
          <div className="mx-auto max-w-6xl">
            <ReachabilityBanner reachability={reachability} />
            <PageSuspense>
              <Outlet />
            </PageSuspense>
          </div>
        </main>
      </div>
    </ReachabilityProvider>
  );
}
