import { useEffect, useState } from 'react';

export const MOBILE_MAX_WIDTH = 768;
export const RESIZE_DEBOUNCE_MS = 250;

export function isMobileWidth(width: number): boolean {
  return width < MOBILE_MAX_WIDTH;
}

/** Below 768 px the layout switches to the slide-over sidebar; resizes are debounced 250 ms. */
export function useIsMobile(): boolean {
  const [isMobile, setIsMobile] = useState(() => isMobileWidth(window.innerWidth));
  useEffect(() => {
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
