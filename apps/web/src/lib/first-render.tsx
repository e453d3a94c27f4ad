import { createContext, type ReactNode, useContext, useEffect, useState } from 'react';

/**
 * Issue 30: what the server assumed when it rendered a signed-in page (http/signed-in-page.ts on
 * the server, src/entry-server.tsx here), sent with the page. The browser's first render, which
 * hydrates that HTML, must be the same render, so for that one render the app reads these instead
 * of the browser (the viewport, the stored sidebar state, the clock); once hydrated, the app reads
 * the browser again and re-renders what differs. Null in every other render.
 */
export type FirstRender = {
  /** The render's clock, ISO 8601. */
  now: string;
  /** The layout the server chose (the phone's slide-over sidebar or the desktop one). */
  isMobile: boolean;
};

const FirstRenderContext = createContext<FirstRender | null>(null);

/** Provides `value` to the first render only: after it has committed, the browser's own values. */
export function FirstRenderProvider({
  value,
  keep = false,
  children,
}: {
  value: FirstRender | null;
  /** The server's render, which never commits. */
  keep?: boolean;
  children: ReactNode;
}) {
  const [current, setCurrent] = useState(value);
  useEffect(() => {
    if (!keep) setCurrent(null);
  }, [keep]);
  return <FirstRenderContext.Provider value={current}>{children}</FirstRenderContext.Provider>;
}

export function useFirstRender(): FirstRender | null {
  return useContext(FirstRenderContext);
}

/** The time to render with: the server's during hydration, else now. */
export function useRenderTime(): Date {
  const firstRender = useFirstRender();
  return firstRender ? new Date(firstRender.now) : new Date();
}
