import type {
  DashboardInput,
  DashboardOperation,
  DashboardOutput,
} from '@keyward/contract/dashboard';
import type { PqlError, Result } from '@keyward/contract/errors';
import { useCallback, useEffect, useRef, useState } from 'react';
import { callDashboard } from './client';

export type RequestState<T> =
  | { status: 'idle' }
  | { status: 'ongoing' }
  | { status: 'succeeded'; value: T }
  | { status: 'failed'; error: PqlError };

/**
 * A lightweight call with request state, for the public pages (login, signup, ...). They stay
 * outside react-query and sonner so the /login page downloads as little JavaScript as possible.
 * Never retried. Authenticated pages use useDashboardQuery / useDashboardMutation instead.
 */
export function useDashboardCall<Op extends DashboardOperation>(op: Op) {
  const [state, setState] = useState<RequestState<DashboardOutput<Op>>>({ status: 'idle' });
  const isMounted = useRef(true);
  useEffect(() => {
    isMounted.current = true;
    return () => {
      isMounted.current = false;
    };
  }, []);

  const run = useCallback(
    async (input: DashboardInput<Op>): Promise<Result<DashboardOutput<Op>>> => {
      setState({ status: 'ongoing' });
      const result = await callDashboard(op, input);
      if (isMounted.current) {
        setState(
          result.type === 'success'
            ? { status: 'succeeded', value: result.value }
            : { status: 'failed', error: result.error },
        );
      }
      return result;
    },
    [op],
  );

  const reset = useCallback(() => setState({ status: 'idle' }), []);
  return { state, run, reset, isOngoing: state.status === 'ongoing' };
}
