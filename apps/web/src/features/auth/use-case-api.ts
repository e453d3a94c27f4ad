import { useDashboardMutation } from '../../lib/api/hooks';

export const useDeleteParentAccount = () => useDashboardMutation('DeleteEntity_v2');
