import { useEffect, useState } from 'react';
import { useFirstRender } from './first-render';

export const MOBILE_MAX_WIDTH = 768;
export const RESIZE_DEBOUNCE_MS = 250;

export function isMobileWidth(width: number): boolean {
  return width < MOBILE_MAX_WIDTH;
}

/**
 * Below 768 px the layout switches to the slide-over sidebar; resizes are debounced 250 ms. A page
 * rendered on the server starts with the layout the server chose, then the window's (issue 30).
 */
export function useIsMobile(): boolean {
  const firstRender = useFirstRender();
  const [isMobile, setIsMobile] = useState(
    () => firstRender?.isMobile ?? isMobileWidth(window.innerWidth),
  );
  useEffect(() => {
    setIsMobile(isMobileWidth(window.innerWidth));
    let timer: ReturnType<typeof setTimeout> | undefined;
    function onResize() {
      clearTimeout(timer);
      timer = setTimeout(() => setIsMobile(isMobileWidth(window.innerWidth)), RESIZE_DEBOUNCE_MS);
    }
    window.addEventListener('resize', onResize);
    return () => {
      clearTimeout(timer);
      window.removeEventListener('resize', onResize);
    };
  }, []);
  return isMobile;
}
