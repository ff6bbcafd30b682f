import { useState } from 'react';
import { Button, Caption1, Subtitle2, makeStyles, tokens } from '@fluentui/react-components';
import { Copy20Regular } from '@fluentui/react-icons/svg/copy';

/** One field of a webhook payload's JSON Schema (what the server declares for the recipe's trigger). */
export interface PayloadFieldSchema {
  type?: string;
  description?: string;
  contentEncoding?: string;
  examples?: unknown[];
}

/** GET /api/automation/recipes/:id → recipe.webhook_payload */
export interface WebhookPayloadInfo {
  schema: { title?: string; description?: string; required?: string[]; anyOf?: Array<{ required: string[] }>; properties: Record<string, PayloadFieldSchema> };
  example: Record<string, unknown>;
}

export const COPY_LABEL = 'Copy curl command';
export const COPIED_LABEL = 'Copied';

const useStyles = makeStyles({
  root: { display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: '8px', minWidth: 0 },
  title: { margin: 0 },
  muted: { color: tokens.colorNeutralForeground2, overflowWrap: 'anywhere' },
  dl: { display: 'grid', gridTemplateColumns: 'auto minmax(0, 1fr)', columnGap: '12px', rowGap: '4px', margin: 0 },
  dt: { fontFamily: tokens.fontFamilyMonospace, fontSize: tokens.fontSizeBase200 },
  dd: { margin: 0, overflowWrap: 'anywhere' },
  code: {
    margin: 0,
    padding: '8px',
    overflowX: 'auto',
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
    backgroundColor: tokens.colorNeutralBackground2,
    borderRadius: tokens.borderRadiusMedium,
    whiteSpace: 'pre-wrap',
    overflowWrap: 'anywhere',
  },
  actions: { display: 'flex', flexWrap: 'wrap', gap: '8px', alignItems: 'center' },
});

/** A value inside single quotes for a POSIX shell. */
const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** The curl command that posts the example body to the recipe's webhook. */
export function curlExample(url: string, body: Record<string, unknown>): string {
  return `curl -X POST ${shellQuote(url)} \\\n  -H 'Content-Type: application/json' \\\n  -d ${shellQuote(JSON.stringify(body, null, 2))}`;
}

/** The same call with the file itself as a multipart part (for a payload that carries a file). */
export function curlFileExample(url: string, fileName: string): string {
  return `curl -X POST ${shellQuote(url)} \\\n  -F ${shellQuote(`file=@${fileName}`)}`;
}

function typeWords(f: PayloadFieldSchema): string {
  if (f.contentEncoding === 'base64') return 'file, base64';
  return f.type === 'string' ? 'text' : (f.type ?? 'any');
}

/**
 * What a call to the recipe's webhook carries (from its trigger's JSON Schema): each field, the
 * expected JSON, and a copyable curl command with the recipe's real webhook address.
 */
export function WebhookPayload({ recipe }: { recipe: { webhook_url: string | null; webhook_payload?: WebhookPayloadInfo } | undefined }) {
  const s = useStyles();
  const [copied, setCopied] = useState<'ok' | 'failed'>();
  const url = recipe?.webhook_url;
  const payload = recipe?.webhook_payload;
  if (!url || !payload) return null;
  const required = new Set(payload.schema.required ?? []);
  // alternatives (the text, or a file): each field of one is required unless another is given
  const alternatives = payload.schema.anyOf ?? [];
  const need = (name: string) => {
    if (required.has(name)) return 'required';
    const mine = alternatives.find((a) => a.required.includes(name));
    const others = alternatives.filter((a) => a !== mine).flatMap((a) => a.required);
    return mine && others.length ? `required unless ${others.join(' or ')} is given` : 'optional';
  };
  const fields = Object.entries(payload.schema.properties);
  const curl = curlExample(url, payload.example);
  const fileField = fields.find(([, f]) => f.contentEncoding === 'base64');
  const fileName = typeof payload.example.name === 'string' ? payload.example.name : 'document.pdf';

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(curl);
      setCopied('ok');
    } catch {
      setCopied('failed');
    }
  };

  return (
    <section className={s.root} aria-labelledby="webhook-payload-title">
      <Subtitle2 as="h4" id="webhook-payload-title" className={s.title}>
        Webhook payload
      </Subtitle2>
      {payload.schema.description && <Caption1 className={s.muted}>{payload.schema.description}</Caption1>}
      {fields.length > 0 ? (
        <dl className={s.dl} aria-label="Payload fields">
          {fields.map(([name, f]) => (
            <div key={name} style={{ display: 'contents' }}>
              <dt className={s.dt}>{name}</dt>
              <dd className={s.dd}>
                <Caption1>
                  {need(name)}, {typeWords(f)}
                  {f.description ? `: ${f.description}` : ''}
                </Caption1>
              </dd>
            </div>
          ))}
        </dl>
      ) : (
        <Caption1 className={s.muted}>Any JSON fields: each becomes a field of the run.</Caption1>
      )}
      <Caption1>Expected JSON</Caption1>
      <pre className={s.code} aria-label="Expected JSON">
        {JSON.stringify(payload.example, null, 2)}
      </pre>
      <Caption1>Try it</Caption1>
      <pre className={s.code} aria-label="curl example">
        {curl}
      </pre>
      <div className={s.actions}>
        <Button size="small" icon={<Copy20Regular />} onClick={() => void copy()}>
          {copied === 'ok' ? COPIED_LABEL : COPY_LABEL}
        </Button>
        <span role="status" aria-live="polite">
          {copied === 'failed' && <Caption1 className={s.muted}>Copying is blocked here: select the command and copy it.</Caption1>}
        </span>
      </div>
      {fileField && (
        <>
          <Caption1 className={s.muted}>Or send the file itself as a multipart form:</Caption1>
          <pre className={s.code} aria-label="curl example with a file">
            {curlFileExample(url, fileName)}
          </pre>
        </>
      )}
      <Caption1 className={s.muted}>A call that does not fit gets an answer 400 naming the field.</Caption1>
    </section>
  );
}
