import type { ReactNode } from 'react';
import type { ServiceContainer } from '../core/di';
import { FluentProvider } from '@fluentui/react-components';
import { appTheme } from './theme';
import { ContainerContext } from './hooks';

/** Providers every screen needs: the DI container and the Fluent UI theme. */
export function Shell({ container, children }: { container: ServiceContainer; children: ReactNode }) {
  return (
    <ContainerContext.Provider value={container}>
      <FluentProvider theme={appTheme} style={{ minHeight: '100vh' }}>
        {children}
      </FluentProvider>
    </ContainerContext.Provider>
  );
}
