import { prepareFirstScreen } from './routes';

// Imported first by main.tsx: the first route's chunks and reads start before React renders.
prepareFirstScreen(window.location.pathname);
