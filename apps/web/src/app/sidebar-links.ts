export type SidebarLink = { label: string; to: string; isExact?: boolean };

export const sidebarLinks: SidebarLink[] = [
  { label: 'Dashboard', to: '/', isExact: true },
  // issue 20: everything that waits for the parent, with its count
  { label: 'Needs you', to: '/inbox' },
  { label: 'Children', to: '/children' },
  { label: 'Computers', to: '/computers' },
  { label: 'Keychains', to: '/keychains' },
  { label: 'Security', to: '/security-events' },
  { label: 'Settings', to: '/settings' },
];

/** Shown after Computers only when the parent has an iOS device. */
export const iosDevicesLink: SidebarLink = { label: 'iOS devices', to: '/ios-devices' };

export function sidebarLinksFor({ hasIosDevices }: { hasIosDevices: boolean }): SidebarLink[] {
  if (!hasIosDevices) return sidebarLinks;
  const afterComputers = sidebarLinks.findIndex((link) => link.to === '/computers') + 1;
  return [
    ...sidebarLinks.slice(0, afterComputers),
    iosDevicesLink,
    ...sidebarLinks.slice(afterComputers),
  ];
}

/** Dashboard needs an exact match; the others are selected by path prefix (on segment boundaries). */
export function isSidebarLinkActive(link: SidebarLink, pathname: string): boolean {
  if (link.isExact) return pathname === link.to;
  return pathname === link.to || pathname.startsWith(`${link.to}/`);
}
