export type SidebarLink = { label: string; to: string; isExact?: boolean };

export const sidebarLinks: SidebarLink[] = [
  { label: 'Dashboard', to: '/', isExact: true },
  { label: 'Children', to: '/children' },
  { label: 'Computers', to: '/computers' },
  { label: 'Keychains', to: '/keychains' },
  { label: 'Security', to: '/security-events' },
  { label: 'Settings', to: '/settings' },
];

/** Dashboard needs an exact match; the others are selected by path prefix (on segment boundaries). */
export function isSidebarLinkActive(link: SidebarLink, pathname: string): boolean {
  if (link.isExact) return pathname === link.to;
  return pathname === link.to || pathname.startsWith(`${link.to}/`);
}
