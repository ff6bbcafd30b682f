import { useCallback, useEffect, useState, type FormEvent } from 'react';
import {
  Body1,
  Button,
  Caption1,
  Field,
  Input,
  Spinner,
  Subtitle2,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { useApi } from '../../hooks';
import { formatDateTime, useUserZone, type ZoneOffset } from '../../date-time';
import { Notice, type NoticeValue } from '../auth/Notice';

/** A key as GET /api/v1/keys lists it (never the secret). */
export interface ApiKeyRow {
  id: number;
  name: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
}

interface CreatedKey {
  id: number;
  name: string;
  key: string;
  created_at: string;
}

export const KEYS_PATH = '/api/v1/keys';

const useStyles = makeStyles({
  tab: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL, maxWidth: '820px' },
  muted: { color: tokens.colorNeutralForeground2 },
  create: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'flex-end', flexWrap: 'wrap' },
  secret: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center', flexWrap: 'wrap' },
  secretInput: { minWidth: '0', flexGrow: 1, fontFamily: tokens.fontFamilyMonospace },
  code: {
    margin: 0,
    padding: tokens.spacingHorizontalM,
    backgroundColor: tokens.colorNeutralBackground3,
    borderRadius: tokens.borderRadiusMedium,
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
    overflowX: 'auto',
    whiteSpace: 'pre',
  },
  table: { tableLayout: 'auto' },
});

/** The shell's one date-time format, in the user's zone (issue 25). */
const when = (iso: string | null, zone: ZoneOffset | undefined) => (iso ? formatDateTime(iso, zone) : 'Never');

/** The MCP server's address on this site (the API is served from the page's own origin). */
export function mcpUrl(origin = typeof window === 'undefined' ? '' : window.location.origin): string {
  return `${origin}/mcp`;
}

/** The entry an MCP client (Claude Desktop, Cursor, VS Code, …) takes for this server. */
export function mcpClientConfig(url: string, key = 'fm_your_key'): string {
  return JSON.stringify({ mcpServers: { flowmatic: { type: 'http', url, headers: { Authorization: `Bearer ${key}` } } } }, null, 2);
}

/**
 * My Account → API keys: create a key (shown once, to copy), the live keys with when each was
 * last used, revoke one; and how to add the MCP server to an assistant and reach the REST API.
 */
export function ApiKeysTab() {
  const zone = useUserZone();
  const s = useStyles();
  const api = useApi();
  const [keys, setKeys] = useState<ApiKeyRow[] | null>(null);
  const [name, setName] = useState('');
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<NoticeValue | null>(null);
  const [copied, setCopied] = useState(false);

  const load = useCallback(async () => {
    try {
      setKeys((await api.get<{ keys: ApiKeyRow[] }>(KEYS_PATH)).keys);
    } catch (e) {
      setKeys([]);
      setNotice({ intent: 'error', text: (e as Error).message });
    }
  }, [api]);

  useEffect(() => {
    void load();
  }, [load]);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      setNotice({ intent: 'warning', text: 'Please give the key a name, e.g. "Reporting script".' });
      return;
    }
    setBusy(true);
    setNotice(null);
    setCopied(false);
    try {
      const key = await api.post<CreatedKey>(KEYS_PATH, { name: name.trim() });
      setCreated(key);
      setName('');
      await load();
    } catch (e) {
      setNotice({ intent: 'error', text: (e as Error).message });
    }
    setBusy(false);
  };

  const revoke = async (key: ApiKeyRow) => {
    setNotice(null);
    try {
      await api.request(`${KEYS_PATH}/${key.id}`, { method: 'DELETE' });
      if (created?.id === key.id) setCreated(null);
      setNotice({ intent: 'success', text: `The key "${key.name}" is revoked: calls with it are refused from now on.` });
      await load();
    } catch (e) {
      setNotice({ intent: 'error', text: (e as Error).message });
    }
  };

  const copy = async () => {
    if (!created) return;
    try {
      await navigator.clipboard.writeText(created.key);
      setCopied(true);
    } catch {
      setNotice({ intent: 'warning', text: 'The key could not be copied: select it and copy it yourself.' });
    }
  };

  const url = mcpUrl();
  return (
    <div className={s.tab}>
      <Body1 className={s.muted}>
        An API key lets a program or an AI assistant use your recipes and AI workflows as you: through the REST API under /api/v1 or the MCP server. Keep keys
        secret; revoke one you no longer use.
      </Body1>
      <Notice notice={notice} />

      <form className={s.create} onSubmit={create} aria-label="Create an API key">
        <Field label="Key name" hint="Where the key is used, e.g. Claude Desktop or Reporting script.">
          <Input value={name} onChange={(_e, d) => setName(d.value)} maxLength={100} />
        </Field>
        <Button appearance="primary" type="submit" disabled={busy}>
          {busy ? 'Creating…' : 'Create key'}
        </Button>
      </form>

      {created && (
        <section aria-label="New API key">
          <Notice notice={{ intent: 'success', title: `Key "${created.name}" created`, text: 'Copy it now: it is shown only this once.' }} />
          <div className={s.secret} style={{ marginTop: 8 }}>
            <Input className={s.secretInput} readOnly value={created.key} aria-label="Your new API key" onFocus={(e) => e.currentTarget.select()} />
            <Button onClick={copy}>{copied ? 'Copied' : 'Copy'}</Button>
            <Button appearance="subtle" onClick={() => setCreated(null)}>
              Done
            </Button>
          </div>
        </section>
      )}

      <section aria-label="Your API keys">
        <Subtitle2 as="h2" block>
          Your keys
        </Subtitle2>
        {keys === null ? (
          <Spinner size="tiny" label="Loading your keys…" />
        ) : keys.length === 0 ? (
          <Body1 className={s.muted}>You have no API keys yet.</Body1>
        ) : (
          <Table className={s.table} aria-label="API keys" size="small">
            <TableHeader>
              <TableRow>
                <TableHeaderCell>Name</TableHeaderCell>
                <TableHeaderCell>Key</TableHeaderCell>
                <TableHeaderCell>Created</TableHeaderCell>
                <TableHeaderCell>Last used</TableHeaderCell>
                <TableHeaderCell aria-label="Actions" />
              </TableRow>
            </TableHeader>
            <TableBody>
              {keys.map((k) => (
                <TableRow key={k.id}>
                  <TableCell>{k.name}</TableCell>
                  <TableCell>
                    <code>{k.prefix}…</code>
                  </TableCell>
                  <TableCell>{when(k.created_at, zone)}</TableCell>
                  <TableCell>{when(k.last_used_at, zone)}</TableCell>
                  <TableCell>
                    <Button size="small" onClick={() => void revoke(k)} aria-label={`Revoke ${k.name}`}>
                      Revoke
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </section>

      <section aria-label="Use with an AI assistant (MCP)">
        <Subtitle2 as="h2" block>
          Use with an AI assistant (MCP)
        </Subtitle2>
        <Body1 as="p" block>
          Add this site&apos;s MCP server to your assistant (Claude Desktop, Cursor, VS Code and other MCP clients) as a Streamable HTTP server:
        </Body1>
        <Body1 as="p" block>
          URL: <code data-testid="mcp-url">{url}</code>
          <br />
          Header: <code>Authorization: Bearer {created?.key ?? 'fm_…'}</code> (your key)
        </Body1>
        <pre className={s.code} aria-label="MCP client configuration">
          {mcpClientConfig(url, created?.key)}
        </pre>
        <Caption1 as="p" block className={s.muted}>
          The tools: list_combinations, list_recipes, start_recipe, stop_recipe, run_recipe, get_job, extract_invoice, analyse_emotion, search_documents,
          reconcile_invoices and analyse_financial_statement. The REST API takes the same key: see the <a href="/api/docs">API documentation</a> and its{' '}
          <a href="/api/v1/openapi.json">OpenAPI document</a>.
        </Caption1>
      </section>
    </div>
  );
}
