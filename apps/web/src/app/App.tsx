import { BrowserRouter, useRoutes } from 'react-router';
import { Providers } from './Providers';
import { routes } from './routes';

export function AppRoutes() {
  return useRoutes(routes);
}

export function App() {
  return (
    <Providers>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </Providers>
  );
}
