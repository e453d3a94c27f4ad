import { Component, type ErrorInfo, type ReactNode, useEffect } from 'react';
import { Button } from '../components/ui/Button';
import { FullPageStatus } from '../components/ui/FullPageStatus';
import { isProductionBuild } from '../lib/env';
import { GENERIC_ERROR_MESSAGE } from '../lib/errors';
import { isChunkLoadError } from '../lib/lazy-page';

export const CHUNK_FAILED_TITLE = "This page didn't load";
export const CHUNK_FAILED_MESSAGE =
  'Part of the dashboard could not be downloaded. Check your internet connection, then reload the page.';

type Props = {
  children: ReactNode;
  /** A new value (the path) clears a caught error: navigating away recovers. */
  resetKey: string;
  /** Default: reload the page. */
  onReload?: () => void;
};

type State = { error: unknown; resetKey: string; hasError: boolean };

/**
 * Around every route: a page that throws or whose chunk fails to download shows a message with
 * a Reload button instead of a blank page.
 */
export class RouteErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, resetKey: this.props.resetKey, hasError: false };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error, hasError: true };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    if (props.resetKey === state.resetKey) return null;
    return { resetKey: props.resetKey, error: null, hasError: false };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    if (!isProductionBuild()) console.error('[route] page failed', error, info.componentStack);
  }

  override render() {
    if (!this.state.hasError) return this.props.children;
    const isChunk = isChunkLoadError(this.state.error);
    const reload = this.props.onReload ?? (() => window.location.reload());
    return (
      <FullPageStatus
        status="failure"
        title={isChunk ? CHUNK_FAILED_TITLE : 'Uh-oh!'}
        message={isChunk ? CHUNK_FAILED_MESSAGE : GENERIC_ERROR_MESSAGE}
      >
        <Button onClick={reload}>Reload</Button>
        {isChunk && <ReloadWhenOnline reload={reload} />}
      </FullPageStatus>
    );
  }
}

/** A chunk that failed offline: reload by itself as soon as the browser is back online. */
function ReloadWhenOnline({ reload }: { reload: () => void }) {
  useEffect(() => {
    window.addEventListener('online', reload);
    return () => window.removeEventListener('online', reload);
  }, [reload]);
  return null;
}
