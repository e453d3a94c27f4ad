import {
  ArrowRightStartOnRectangleIcon,
  BookOpenIcon,
  ChatBubbleLeftRightIcon,
  ChevronDoubleLeftIcon,
  ChevronDoubleRightIcon,
  ComputerDesktopIcon,
  Cog6ToothIcon,
  DevicePhoneMobileIcon,
  HomeIcon,
  InboxIcon,
  KeyIcon,
  ShieldCheckIcon,
  UsersIcon,
} from '@heroicons/react/24/outline';
import type { ComponentType, SVGProps } from 'react';
import { Link, useLocation } from 'react-router';
import { cx } from '../components/ui/cx';
import { Logo } from '../components/ui/Logo';
import { badgeText } from '../features/inbox/inbox';
import { externalLinks } from '../lib/links';
import { isSidebarLinkActive, sidebarLinksFor } from './sidebar-links';

type Icon = ComponentType<SVGProps<SVGSVGElement>>;

const icons: Record<string, Icon> = {
  '/': HomeIcon,
  '/inbox': InboxIcon,
  '/children': UsersIcon,
  '/computers': ComputerDesktopIcon,
  '/ios-devices': DevicePhoneMobileIcon,
  '/keychains': KeyIcon,
  '/security-events': ShieldCheckIcon,
  '/settings': Cog6ToothIcon,
};

const itemClasses = (isActive: boolean, isCollapsed: boolean) =>
  cx(
    'group flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium transition-colors',
    'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white',
    isActive ? 'bg-white/15 text-white' : 'text-violet-100 hover:bg-white/10 hover:text-white',
    isCollapsed && 'justify-center px-2',
  );

type SidebarProps = {
  isCollapsed?: boolean;
  onToggleCollapsed?: () => void;
  onNavigate?: () => void;
  /** The iOS devices link shows only when the parent has one. */
  hasIosDevices?: boolean;
  /** Requests waiting for the parent, shown as a badge on "Needs you". */
  inboxCount?: number;
};

export function Sidebar({
  isCollapsed = false,
  onToggleCollapsed,
  onNavigate,
  hasIosDevices = false,
  inboxCount = 0,
}: SidebarProps) {
  const { pathname } = useLocation();
  const label = (text: string) => (isCollapsed ? <span className="sr-only">{text}</span> : text);

  return (
    <div className="flex h-full flex-col bg-gradient-to-b from-violet-800 to-fuchsia-900 px-3 py-4">
      <div className={cx('mb-6 flex items-center px-2', isCollapsed && 'justify-center px-0')}>
        <Link to="/" onClick={onNavigate} className="rounded-lg bg-white/95 px-2 py-1">
          <Logo showName={!isCollapsed} className="[&_span]:text-lg" />
        </Link>
      </div>
      <nav aria-label="Main" className="flex flex-1 flex-col gap-1">
        {sidebarLinksFor({ hasIosDevices }).map((link) => {
          const isActive = isSidebarLinkActive(link, pathname);
          const Icon = icons[link.to] ?? HomeIcon;
          return (
            <Link
              key={link.to}
              to={link.to}
              onClick={onNavigate}
              aria-current={isActive ? 'page' : undefined}
              title={isCollapsed ? link.label : undefined}
              className={itemClasses(isActive, isCollapsed)}
            >
              <span className="relative shrink-0">
                <Icon className="h-5 w-5" aria-hidden="true" />
                {link.to === '/inbox' && inboxCount > 0 && isCollapsed && (
                  <span
                    className="absolute -top-1.5 -right-2 h-2.5 w-2.5 rounded-full bg-fuchsia-400 ring-2 ring-violet-800"
                    aria-hidden="true"
                  />
                )}
              </span>
              {label(link.label)}
              {link.to === '/inbox' && inboxCount > 0 && (
                <InboxBadge count={inboxCount} isCollapsed={isCollapsed} />
              )}
            </Link>
          );
        })}
        <div className="my-3 border-t border-white/15" />
        <a
          href={externalLinks.documentation}
          target="_blank"
          rel="noopener noreferrer"
          title={isCollapsed ? 'Documentation' : undefined}
          className={itemClasses(false, isCollapsed)}
        >
          <BookOpenIcon className="h-5 w-5 shrink-0" aria-hidden="true" />
          {label('Documentation')}
        </a>
        <a
          href={externalLinks.contactSupport}
          target="_blank"
          rel="noopener noreferrer"
          title={isCollapsed ? 'Contact support' : undefined}
          className={itemClasses(false, isCollapsed)}
        >
          <ChatBubbleLeftRightIcon className="h-5 w-5 shrink-0" aria-hidden="true" />
          {label('Contact support')}
        </a>
        <Link
          to="/logout"
          title={isCollapsed ? 'Log out' : undefined}
          className={itemClasses(false, isCollapsed)}
        >
          <ArrowRightStartOnRectangleIcon className="h-5 w-5 shrink-0" aria-hidden="true" />
          {label('Log out')}
        </Link>
      </nav>
      {onToggleCollapsed && (
        <button
          type="button"
          onClick={onToggleCollapsed}
          aria-expanded={!isCollapsed}
          className={itemClasses(false, isCollapsed)}
        >
          {isCollapsed ? (
            <ChevronDoubleRightIcon className="h-5 w-5 shrink-0" aria-hidden="true" />
          ) : (
            <ChevronDoubleLeftIcon className="h-5 w-5 shrink-0" aria-hidden="true" />
          )}
          {isCollapsed ? <span className="sr-only">Expand sidebar</span> : 'Collapse sidebar'}
        </button>
      )}
    </div>
  );
}

/** The count of waiting requests; read as "3 waiting" by a screen reader. */
function InboxBadge({ count, isCollapsed }: { count: number; isCollapsed: boolean }) {
  if (isCollapsed) return <span className="sr-only">, {count} waiting</span>;
  return (
    <span className="ml-auto rounded-full bg-white px-2 py-0.5 text-xs font-bold text-fuchsia-800">
      {badgeText(count)}
      <span className="sr-only"> waiting</span>
    </span>
  );
}
