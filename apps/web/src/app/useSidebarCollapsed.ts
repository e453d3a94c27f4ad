import { useCallback, useState } from 'react';

export const SIDEBAR_COLLAPSED_KEY = 'sidebar_collapsed';

export function useSidebarCollapsed(): [boolean, () => void] {
  const [isCollapsed, setIsCollapsed] = useState(
    () => localStorage.getItem(SIDEBAR_COLLAPSED_KEY) === 'true',
  );
  const toggle = useCallback(() => {
    setIsCollapsed((was) => {
      localStorage.setItem(SIDEBAR_COLLAPSED_KEY, String(!was));
      return !was;
    });
  }, []);
  return [isCollapsed, toggle];
}
