import { QueryClientProvider } from '@tanstack/react-query';
import { Outlet } from 'react-router';
import { Toaster } from 'sonner';
import { queryClient } from '../lib/api/query-client';

/**
 * react-query and the toaster, for the authenticated pages only: the public pages (/login above
 * all) do not download them.
 */
export default function DataProviders() {
  return (
    <QueryClientProvider client={queryClient}>
      <Outlet />
      <Toaster position="top-right" richColors closeButton />
    </QueryClientProvider>
  );
}
