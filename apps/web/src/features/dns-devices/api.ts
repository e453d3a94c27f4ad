import { useDashboardQuery } from '../../lib/api/hooks';

/** Issue 33: a Keyward DNS device's page (by its computer's id); refreshed every 30 s. */
export const useDnsDevice = (computerId: string) =>
  useDashboardQuery('GetDnsDevice', computerId, { refetchInterval: 30_000 });
