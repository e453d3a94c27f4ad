import { QueryClientProvider } from '@tanstack/react-query';
import { Outlet } from 'react-router';
import { Toaster } from 'sonner';
import { useContext } from 'react';
import { queryClient } from '../lib/api/query-client';
import { RenderQueryClient } from '../lib/api/render-query-client';

/**
 * react-query and the toaster, for the authenticated pages only: the public pages (/login above
 * all) do not download them.
 */
export default function DataProviders() {
  const client = useContext(RenderQueryClient) ?? queryClient;
  return (
    <QueryClientProvider client={client}>
      <Outlet />
      <Toaster position="top-right" richColors closeButton />
    </QueryClientProvider>
  );
}
