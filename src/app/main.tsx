import 'reflect-metadata/lite';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { createShellContainer, startPlugins } from './container';
import { discoverPlugins } from './plugin-context';
import { Shell } from './Shell';
import { AppRoutes } from './routes';
import { installEnvironmentScripts } from './environment-scripts';

const container = createShellContainer({ plugins: discoverPlugins() });
installEnvironmentScripts(container);
startPlugins(container);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Shell container={container}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </Shell>
  </StrictMode>,
);
