import { useEffect } from 'preact/hooks';
import { LocationProvider, Route, Router } from 'preact-iso';
import type { ApiClient } from '../api/api-client';
import { ApiKeyDialog } from './api-key-dialog';
import { AppContext } from './app-context';
import { NotFoundPage, PAGES } from './pages';
import { useAppServices } from './use-app-services';

/** The web app: the shared services, the router over `PAGES`, and the API-key dialog. */
export function App({ api }: { api: ApiClient }) {
  const { services, prompt } = useAppServices(api);
  // Customers read the assistant's name alone; the developer view says it is Tree Agent's.
  const name = services.view === 'customer' ? services.assistantName : services.tree?.tree.name;
  const suffix = services.view === 'customer' ? '' : ' · Tree Agent';
  useEffect(() => {
    if (name) document.title = `${name}${suffix}`;
  }, [name, suffix]);
  return (
    <AppContext.Provider value={services}>
      <LocationProvider>
        <div class="app">
          <Router>
            {[
              ...Object.entries(PAGES).map(([path, component]) => (
                <Route key={path} path={path} component={component} />
              )),
              <Route key="not-found" default component={NotFoundPage} />,
            ]}
          </Router>
        </div>
        <ApiKeyDialog prompt={prompt} />
      </LocationProvider>
    </AppContext.Provider>
  );
}
