import type { ReactNode } from 'react';
import { Button, MessageBar, MessageBarBody, Spinner, makeStyles } from '@fluentui/react-components';
import type { SetupFlow } from './use-setup-flow';

export const useFrameStyles = makeStyles({
  root: { display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: '16px', minWidth: 0 },
  header: { display: 'flex', flexWrap: 'wrap', gap: '12px', alignItems: 'center', justifyContent: 'space-between', minWidth: 0 },
  status: { display: 'flex', flexWrap: 'wrap', gap: '8px', alignItems: 'center', marginLeft: 'auto' },
  columns: {
    display: 'grid',
    gridTemplateColumns: 'minmax(180px, 240px) minmax(0, 1fr)',
    gap: '16px',
    alignItems: 'start',
    minWidth: 0,
    '@media (max-width: 720px)': { gridTemplateColumns: 'minmax(0, 1fr)' },
  },
  tabs: { overflowX: 'auto', maxWidth: '100%' },
  detail: { display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: '12px', minWidth: 0 },
});

/**
 * What both setup views show before their data is in: a spinner while loading ('nothing renders
 * until the combination and recipe data are loaded'), and a message with a retry on failure.
 */
export function SetupFrame({ flow, children }: { flow: SetupFlow; children: () => ReactNode }) {
  if (flow.phase === 'loading') return <Spinner label="Loading your workflow..." />;
  if (flow.phase === 'error' || flow.loadError) {
    return (
      <MessageBar layout="multiline" intent={flow.phase === 'error' ? 'error' : 'warning'}>
        <MessageBarBody>
          {flow.loadError}{' '}
          {flow.phase === 'error' && (
            <Button size="small" appearance="transparent" onClick={flow.reload}>
              Try again
            </Button>
          )}
        </MessageBarBody>
      </MessageBar>
    );
  }
  return <>{children()}</>;
}
