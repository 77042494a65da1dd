import { AppProviders } from './providers';
import { AppRoutes } from './routes';

/** The whole application below the router; the entries choose the router (browser or static). */
export function App() {
  return (
    <AppProviders>
      <AppRoutes />
    </AppProviders>
  );
}
