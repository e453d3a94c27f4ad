import { useDashboardCall } from '../../lib/api/useDashboardCall';

// Issue 12: the second step of signing in (public: the person has no session yet).
export const useLoginSecondFactor = () => useDashboardCall('LoginSecondFactor');
