import { useCallback, useEffect, useState } from 'react';
import { Body1, Button, Link, MessageBar, MessageBarBody, Subtitle2, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { useApi, userMessage, Panel } from '../../src/app';
import type { SetupFlow } from './use-setup-flow';

/** GET /api/plugins/connectors/sandbox: the sandbox page and the providers running on it (404: no sandbox here). */
interface SandboxInfo {
  url: string;
  providers: Array<{ provider: string; name: string }>;
}
/** GET /api/plugins/connectors/recipes/:id/targets, the part read here. */
interface Targets {
  needs: { folder: boolean };
  folder: { id: string; name: string | null } | null;
}

/** While Drive is connected but the folder is not made yet, look again this often. */
const FOLDER_POLL_MS = 2000;

const useStyles = makeStyles({
  root: { display: 'grid', gap: '8px', borderLeft: `4px solid ${tokens.colorBrandStroke1}` },
  highlighted: { boxShadow: `0 0 0 2px ${tokens.colorBrandStroke1}` },
  steps: { margin: 0, paddingLeft: '1.4em', display: 'grid', gap: '8px' },
  step: { display: 'flex', flexWrap: 'wrap', gap: '8px', alignItems: 'center' },
  done: { color: tokens.colorPaletteGreenForeground1 },
});

const andList = (names: string[]) => (names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`);

/**
 * The guided first run with sample data (issue 25), on the setup screen of a combination that
 * watches a Drive folder while the providers run on their sandbox (never in production: the
 * server answers 404 and nothing shows): 1 connect the sandbox accounts in one click, 2 put the
 * two sample invoices in the recipe's folder, 3 start (the screen's own Start Workflow, then
 * Process them for the files already there). `highlighted` when the user came from the home
 * page's "Try an automation with sample data".
 */
export function GuidedFirstRun({ flow, highlighted }: { flow: SetupFlow; highlighted: boolean }) {
  const s = useStyles();
  const api = useApi();
  const recipeId = flow.record?.recipe_id;
  const [sandbox, setSandbox] = useState<SandboxInfo | null>();
  const [targets, setTargets] = useState<Targets>();
  const [busy, setBusy] = useState<'connect' | 'samples'>();
  const [error, setError] = useState<string>();
  const [added, setAdded] = useState<string[]>();

  useEffect(() => {
    let live = true;
    api
      .get<SandboxInfo>('/api/plugins/connectors/sandbox')
      .then((info) => live && setSandbox(info))
      .catch(() => live && setSandbox(null));
    return () => {
      live = false;
    };
  }, [api]);

  const connectedIds = new Set((flow.connections ?? []).filter((c) => c.authorization_status === 'success').map((c) => c.provider));
  const driveConnected = connectedIds.has('google_drive');
  const allConnected = !!sandbox && sandbox.providers.every((p) => connectedIds.has(p.provider));
  const folderId = targets?.folder?.id;

  const readTargets = useCallback(async () => {
    if (!recipeId) return;
    try {
      setTargets(await api.get<Targets>(`/api/plugins/connectors/recipes/${recipeId}/targets`));
    } catch {
      // the panel stays as it is; the next look may answer
    }
  }, [api, recipeId]);

  useEffect(() => {
    if (!sandbox) return;
    void readTargets();
  }, [sandbox, readTargets, driveConnected]);

  // the folder is made by the setup run after Drive is connected: look until it is there
  useEffect(() => {
    if (!sandbox || !driveConnected || folderId) return;
    const t = setInterval(() => void readTargets(), FOLDER_POLL_MS);
    return () => clearInterval(t);
  }, [sandbox, driveConnected, folderId, readTargets]);

  if (!sandbox || !targets?.needs.folder) return null;

  const connect = async () => {
    setBusy('connect');
    setError(undefined);
    try {
      await api.post('/api/plugins/connectors/sandbox/connect');
      flow.refreshConnections();
    } catch (e) {
      setError(userMessage(e));
    } finally {
      setBusy(undefined);
    }
  };
  const addSamples = async () => {
    if (!recipeId) return;
    setBusy('samples');
    setError(undefined);
    try {
      const r = await api.post<{ files: Array<{ name: string }> }>(`/api/plugins/sample-data/drive-folder/${recipeId}`);
      setAdded(r.files.map((f) => f.name));
    } catch (e) {
      setError(userMessage(e));
    } finally {
      setBusy(undefined);
    }
  };

  const names = sandbox.providers.map((p) => p.name);
  return (
    <Panel className={mergeClasses(s.root, highlighted && s.highlighted)} role="region" aria-labelledby="guided-first-run-title">
      <Subtitle2 as="h2" id="guided-first-run-title">
        Try it with sample data
      </Subtitle2>
      <Body1>
        Nothing to sign up for: this server has a sandbox standing in for {andList(names)}.{' '}
        <Link href={sandbox.url} target="_blank" rel="noreferrer">
          Open the sandbox (fake Google Drive)
        </Link>
      </Body1>
      <ol className={s.steps}>
        <li className={s.step}>
          {allConnected ? (
            <Body1 className={s.done}>The sandbox accounts are connected.</Body1>
          ) : (
            <Button appearance={highlighted ? 'primary' : 'secondary'} disabled={!!busy || flow.connections === undefined} onClick={() => void connect()}>
              {busy === 'connect' ? 'Connecting...' : 'Connect the sandbox accounts'}
            </Button>
          )}
        </li>
        <li className={s.step}>
          {added ? (
            <Body1 className={s.done} role="status">
              {andList(added)} {added.length === 1 ? 'is' : 'are'} in the folder {targets.folder?.name ?? ''}.
            </Body1>
          ) : (
            <>
              <Button appearance={highlighted && allConnected ? 'primary' : 'secondary'} disabled={!!busy || !folderId} onClick={() => void addSamples()}>
                {busy === 'samples' ? 'Adding...' : 'Add sample invoices to the folder'}
              </Button>
              {driveConnected && !folderId && <Body1>Making your Drive folder...</Body1>}
            </>
          )}
        </li>
        <li className={s.step}>
          <Body1 className={flow.running ? s.done : undefined}>
            {flow.running
              ? 'The workflow is running: process the files waiting in the folder, then open the job to see what was read.'
              : 'Press Start Workflow, then Process them for the invoices already in the folder.'}
          </Body1>
        </li>
      </ol>
      {error && (
        <MessageBar intent="error" layout="multiline">
          <MessageBarBody>{error}</MessageBarBody>
        </MessageBar>
      )}
    </Panel>
  );
}
