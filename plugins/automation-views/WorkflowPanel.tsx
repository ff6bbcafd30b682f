import type { ReactNode } from 'react';
import { Badge, Body1, Button, Caption1, MessageBar, MessageBarBody, Spinner, Subtitle2, makeStyles, tokens } from '@fluentui/react-components';
import { Panel } from '../../src/app';
import { Play20Regular } from '@fluentui/react-icons/svg/play';
import { Stop20Regular } from '@fluentui/react-icons/svg/stop';
import { TEXT, connectToStartText, panelState, setupAllowsStart, startStopLabel, type PanelState } from './setup-rules';
import type { SetupFlow } from './use-setup-flow';
import { WebhookPayload } from './WebhookPayload';
import { WaitingFiles } from './WaitingFiles';
import { formatInZone, type ZoneOffset } from './time-zone';

const useStyles = makeStyles({
  root: { display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: '12px', minWidth: 0 },
  panel: { padding: '16px', display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: '8px', justifyItems: 'start' },
  title: { margin: 0 },
  muted: { color: tokens.colorNeutralForeground2 },
  card: { padding: '12px 16px', display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: '8px' },
  dl: { display: 'grid', gridTemplateColumns: 'auto minmax(0, 1fr)', columnGap: '12px', rowGap: '4px', margin: 0 },
  dt: { color: tokens.colorNeutralForeground3 },
  dd: { margin: 0, overflowWrap: 'anywhere' },
  code: { fontFamily: tokens.fontFamilyMonospace, fontSize: tokens.fontSizeBase200, overflowWrap: 'anywhere' },
});

/** 'Stop Workflow' while running, 'Start Workflow' when stopped, 'Loading...' while unknown or busy. */
export function StartStopButton({ flow }: { flow: Pick<SetupFlow, 'running' | 'busy' | 'setRun'> }) {
  const label = startStopLabel(flow.running, flow.busy);
  const unknown = flow.running === undefined || flow.busy;
  return (
    <Button
      appearance={flow.running ? 'secondary' : 'primary'}
      icon={unknown ? <Spinner size="tiny" /> : flow.running ? <Stop20Regular /> : <Play20Regular />}
      disabled={unknown}
      onClick={() => void flow.setRun(!flow.running)}
    >
      {label}
    </Button>
  );
}

const PANEL: Record<Exclude<PanelState, 'running'>, (missing: readonly string[]) => { title: string; body: string }> = {
  'lets-get-started': () => ({ title: TEXT.letsGetStarted, body: 'Connect the accounts this combination needs; the page checks again every 10 seconds.' }),
  'connect-to-start': (missing) => ({
    title: connectToStartText(missing),
    body: `This workflow's steps use ${missing.length > 1 ? 'these accounts' : 'this account'}: connect ${missing.length > 1 ? 'them' : 'it'} on the Connections tab or with 'Setup Connections for Workflows', then press Start Workflow.`,
  }),
  'getting-ready': () => ({ title: TEXT.gettingReady, body: 'Your recipe is being prepared. This page updates by itself.' }),
  stopped: () => ({
    title: TEXT.stopped,
    body: 'Nothing runs until you press Start Workflow. Messages sent while it is stopped are refused; files added to a watched folder wait, and on Start you choose whether to process or skip them.',
  }),
};

/**
 * The workflow panel (spec section 4, Panels) above the selected item's detail: one of the three
 * panels ('Connect Google Sheets to start' while a connection the steps need is missing), the
 * start/stop button once setup allows a start and every needed connection is made, the last start/stop error
 * ('Connector not found. …') and the recipe's status card.
 */
export function WorkflowPanel({ flow, zone, children }: { flow: SetupFlow; zone: ZoneOffset | undefined; children?: ReactNode }) {
  const s = useStyles();
  const health = flow.triggerHealth;
  const state = panelState(flow.authorised, flow.status, flow.running, flow.missing);
  const checking = flow.connections === undefined;
  const panel = state === 'running' || checking ? undefined : PANEL[state](flow.missing);
  return (
    <div className={s.root}>
      {checking && <Spinner size="tiny" label="Checking your connections..." />}
      {panel && (
        <Panel className={s.panel} role="status">
          <Subtitle2 as="h3" className={s.title}>
            {panel.title}
          </Subtitle2>
          <Body1 className={s.muted}>{panel.body}</Body1>
          {state === 'getting-ready' && <Spinner size="tiny" />}
        </Panel>
      )}
      {setupAllowsStart(flow.status) && flow.authorised && (flow.running || !flow.missing.length) && (
        <div>
          <StartStopButton flow={flow} />
        </div>
      )}
      {health && !health.working && (
        <MessageBar layout="multiline" intent="error" data-testid="trigger-health">
          <MessageBarBody>The trigger is not working{health.reason ? `: ${health.reason}` : '.'}</MessageBarBody>
        </MessageBar>
      )}
      <WaitingFiles engine={flow.engine} running={flow.running} version={flow.jobsVersion} onProcessed={flow.refresh} />
      {flow.actionError && (
        <MessageBar layout="multiline" intent="error">
          <MessageBarBody>{flow.actionError}</MessageBarBody>
        </MessageBar>
      )}
      {children}
      <RecipeCard flow={flow} zone={zone} />
    </div>
  );
}

/** The recipe detail card: running or stopped, job counts, its webhook and e-mail address. */
export function RecipeCard({ flow, zone }: { flow: SetupFlow; zone: ZoneOffset | undefined }) {
  const s = useStyles();
  const e = flow.engine;
  return (
    <Panel className={s.card} aria-labelledby="recipe-card-title">
      <Subtitle2 as="h3" id="recipe-card-title" className={s.title}>
        Recipe
      </Subtitle2>
      <div>
        <Badge appearance="filled" shape="rounded" color={flow.running ? 'success' : 'informative'}>
          {flow.running === undefined ? TEXT.loading : flow.running ? 'Active' : 'Inactive'}
        </Badge>
      </div>
      <dl className={s.dl}>
        <dt className={s.dt}>Name</dt>
        <dd className={s.dd}>{flow.record?.name ?? '–'}</dd>
        <dt className={s.dt}>Succeeded jobs</dt>
        <dd className={s.dd} data-testid="succeeded-count">
          {flow.succeeded}
        </dd>
        <dt className={s.dt}>Failed jobs</dt>
        <dd className={s.dd} data-testid="failed-count">
          {flow.failed}
        </dd>
        <dt className={s.dt}>Updated</dt>
        <dd className={s.dd}>{formatInZone(flow.record?.updated_at, zone)}</dd>
        {e?.webhook_url && (
          <>
            <dt className={s.dt}>Webhook</dt>
            <dd className={s.dd}>
              <Caption1 className={s.code}>{e.webhook_url}</Caption1>
            </dd>
          </>
        )}
        {e?.inbound_email && e.steps.some((st) => st.kind === 'trigger' && st.provider === 'manual_email') && (
          <>
            <dt className={s.dt}>E-mail to</dt>
            <dd className={s.dd}>
              <Caption1 className={s.code}>{e.inbound_email}</Caption1>
            </dd>
          </>
        )}
      </dl>
      <WebhookPayload recipe={flow.engine} />
    </Panel>
  );
}
