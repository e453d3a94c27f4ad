import { useDashboardQuery } from '../../lib/api/hooks';

export const useAdmin = () => useDashboardQuery('GetAdmin', undefined);
