import { useDashboardQuery } from '../../lib/api/hooks';

export const useChildren = () => useDashboardQuery('GetUsers', undefined);
