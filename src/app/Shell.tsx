import type { ReactNode } from 'react';
import type { ServiceContainer } from '../core/di';
import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { ContainerContext } from './hooks';

/** Providers every screen needs: the DI container and the Fluent UI theme. */
export function Shell({ container, children }: { container: ServiceContainer; children: ReactNode }) {
  return (
    <ContainerContext.Provider value={container}>
      <FluentProvider theme={webLightTheme} style={{ minHeight: '100vh' }}>
        {children}
      </FluentProvider>
    </ContainerContext.Provider>
  );
}
