import { useCallback, useEffect, useState } from 'react';
import { useFirstRender } from '../lib/first-render';

export const SIDEBAR_COLLAPSED_KEY = 'sidebar_collapsed';

const isStoredCollapsed = () => localStorage.getItem(SIDEBAR_COLLAPSED_KEY) === 'true';

/** The desktop sidebar's state, kept in local storage (a page rendered on the server starts open). */
export function useSidebarCollapsed(): [boolean, () => void] {
  const firstRender = useFirstRender();
  const [isCollapsed, setIsCollapsed] = useState(() => (firstRender ? false : isStoredCollapsed()));
  useEffect(() => setIsCollapsed(isStoredCollapsed()), []);
  const toggle = useCallback(() => {
    setIsCollapsed((was) => {
      localStorage.setItem(SIDEBAR_COLLAPSED_KEY, String(!was));
      return !was;
    });
  }, []);
  return [isCollapsed, toggle];
}
