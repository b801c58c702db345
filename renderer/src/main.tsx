// First, so every component's own CSS comes after the shared components it builds on.
import './styles/index.css';
import { StrictMode, useSyncExternalStore } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { connectApi, type Connection } from './api';
import { ApiProvider } from './api/context';
import { App } from './App';
import { startInitialDashboard } from './queries';
import { queryKeys } from './query-keys';

const queryClient = new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false, retry: 1 } } });

// Connection state of the event stream, as a tiny external store.
let connection: Connection = 'connecting';
let wasConnected = false;
const subscribers = new Set<() => void>();
const { api } = connectApi((state) => {
  connection = state;
  for (const s of subscribers) s();
  // Events may have been missed while disconnected: after a reconnect, refetch what is on screen.
  if (state === 'open' && wasConnected) void queryClient.invalidateQueries();
  if (state === 'open') wasConnected = true;
});

// Start the first requests at once instead of one after the other: most launches have a
// project open, and its dashboard is the first thing shown — from the last run's scan
// (marked as such) until the fresh one arrives.
void queryClient.prefetchQuery({ queryKey: queryKeys.project.current(), queryFn: () => api.project.current({}) });
startInitialDashboard(api.project.dashboard({}), api.project.cachedDashboard({}));

function Root() {
  const current = useSyncExternalStore(
    (cb) => (subscribers.add(cb), () => subscribers.delete(cb)),
    () => connection,
  );
  return <App connection={current} />;
}

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <ApiProvider api={api}>
        <QueryClientProvider client={queryClient}>
          <Root />
        </QueryClientProvider>
      </ApiProvider>
    </StrictMode>,
  );
}
