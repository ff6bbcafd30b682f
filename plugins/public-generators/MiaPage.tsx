import { useEffect, useRef, useState, type FormEvent } from 'react';
import {
  Body1,
  Button,
  Card,
  Field,
  Input,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  Spinner,
  Subtitle2,
  makeStyles,
  mergeClasses,
  tokens,
  typographyStyles,
} from '@fluentui/react-components';
import { useApi } from '../../src/app';
import { PublicFrame, errorMessage } from './ui/PublicFrame';

/** Spec section 5 and 8: shown when company name, email and url are all empty. */
export const FILL_ALL = 'Please fill out all fields!';
export const LOADING_TEXT = 'Mia is reading your website and writing your press release…';
/** How long the form takes to fade out (ms). */
export const FADE_MS = 350;
/** The e-mail template of the press release (spec section 7). */
export const MIA_TEMPLATE_ID = 14;

interface MiaFields {
  name: string;
  email: string;
  url: string;
  product_name: string;
}

/** Reply of POST /api/platform/send_to_mia (spec section 3, plus the release id). */
export interface MiaReply {
  status: string;
  id: string;
  title: string;
  paraphrase_1: string;
  paraphrase_2: string;
  log_image: string;
  image_1: string;
  image_2: string;
}

type Phase = 'form' | 'fading' | 'loading' | 'done' | 'failed';
type MailState = { state: 'none' } | { state: 'sending' } | { state: 'sent' | 'failed'; message: string };

const EMPTY: MiaFields = { name: '', email: '', url: '', product_name: '' };

const useStyles = makeStyles({
  form: {
    display: 'grid',
    gridTemplateColumns: 'minmax(0, 1fr)',
    gap: '12px',
    minWidth: 0,
    opacity: 1,
    transitionProperty: 'opacity, transform',
    transitionDuration: `${FADE_MS}ms`,
    transitionTimingFunction: 'ease-out',
    '@media (prefers-reduced-motion: reduce)': { transitionDuration: '1ms' },
  },
  fading: { opacity: 0, transform: 'translateY(-8px)', pointerEvents: 'none' },
  fields: { display: 'grid', gap: '12px', gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 260px), 1fr))' },
  actions: { display: 'flex', flexWrap: 'wrap', gap: '8px', alignItems: 'center' },
  loading: { padding: '40px 16px', display: 'grid', justifyItems: 'center', gap: '12px', textAlign: 'center' },
  result: { display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: '16px' },
  headline: { display: 'flex', gap: '16px', alignItems: 'center', flexWrap: 'wrap', minWidth: 0 },
  logo: {
    width: '96px',
    height: '96px',
    objectFit: 'contain',
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground1,
    boxShadow: tokens.shadow4,
    flexShrink: 0,
  },
  title: { ...typographyStyles.title2, margin: 0, minWidth: 0, overflowWrap: 'anywhere', flex: '1 1 200px', outlineStyle: 'none' },
  version: { display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: '8px' },
  versionTitle: { margin: 0 },
  prose: { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', margin: 0 },
  images: { display: 'grid', gap: '12px', gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 280px), 1fr))' },
  image: { width: '100%', height: 'auto', display: 'block', borderRadius: tokens.borderRadiusMedium, boxShadow: tokens.shadow4 },
});

/**
 * /mia, the press-release generator: a form (company name, email, url, product name) that fades
 * out, a loading view until Mia's reply, then the e-mail of the release is requested and the
 * title, both versions, the logo and two images are shown. Every text is rendered as text.
 */
export default function MiaPage() {
  const s = useStyles();
  const api = useApi();
  const [fields, setFields] = useState<MiaFields>(EMPTY);
  const [phase, setPhase] = useState<Phase>('form');
  const [warning, setWarning] = useState<string>();
  const [error, setError] = useState<string>();
  const [release, setRelease] = useState<MiaReply>();
  const [mail, setMail] = useState<MailState>({ state: 'none' });
  const [sentFor, setSentFor] = useState<MiaFields>(EMPTY);
  const fadeTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const resultHeading = useRef<HTMLHeadingElement>(null);

  useEffect(() => () => clearTimeout(fadeTimer.current), []);
  useEffect(() => {
    if (phase === 'done') resultHeading.current?.focus();
  }, [phase]);

  const set = (key: keyof MiaFields) => (_: unknown, data: { value: string }) => setFields((f) => ({ ...f, [key]: data.value }));

  async function requestMail(reply: MiaReply, sent: MiaFields) {
    if (!sent.email.trim()) return;
    setMail({ state: 'sending' });
    const form = new FormData();
    form.append('template_id', String(MIA_TEMPLATE_ID));
    form.append('email', sent.email.trim());
    form.append('name', sent.name.trim());
    form.append('url', sent.url.trim());
    form.append('product_name', sent.product_name.trim());
    form.append('id', reply.id);
    try {
      const answer = await api.upload<{ message?: string }>('/api/platform/apiEmailByMia', form, { auth: false });
      setMail({ state: 'sent', message: answer?.message || `The press release is on its way to ${sent.email.trim()}.` });
    } catch (e) {
      setMail({ state: 'failed', message: errorMessage(e) });
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (phase !== 'form') return;
    const sent = { ...fields };
    if (!sent.name.trim() && !sent.email.trim() && !sent.url.trim()) {
      setWarning(FILL_ALL);
      return;
    }
    setWarning(undefined);
    setError(undefined);
    setMail({ state: 'none' });
    setSentFor(sent);
    setPhase('fading');
    fadeTimer.current = setTimeout(() => setPhase((p) => (p === 'fading' ? 'loading' : p)), FADE_MS);
    try {
      const reply = await api.post<MiaReply>(
        '/api/platform/send_to_mia',
        { email: sent.email.trim(), name: sent.name.trim(), url: sent.url.trim(), product_name: sent.product_name.trim() },
        { auth: false },
      );
      clearTimeout(fadeTimer.current);
      setRelease(reply);
      setPhase('done');
      void requestMail(reply, sent);
    } catch (e) {
      clearTimeout(fadeTimer.current);
      setError(errorMessage(e));
      setPhase('failed');
    }
  }

  function startOver(keepFields: boolean) {
    if (!keepFields) setFields(EMPTY);
    setRelease(undefined);
    setError(undefined);
    setMail({ state: 'none' });
    setPhase('form');
  }

  const company = sentFor.name.trim() || 'your company';
  const product = sentFor.product_name.trim() || 'your product';

  return (
    <PublicFrame
      title="Press release generator"
      intro="Tell Mia about your company and your new product: she reads your website, writes a press release in two versions with a headline, and prepares a logo and two images for it."
    >
      {(phase === 'form' || phase === 'fading') && (
        // fading: hidden from assistive technology and, with inert, out of the tab order too (an aria-hidden
        // region must hold nothing focusable: axe's aria-hidden-focus, issue 25)
        <form
          className={mergeClasses(s.form, phase === 'fading' && s.fading)}
          onSubmit={submit}
          noValidate
          aria-label="Press release details"
          aria-hidden={phase === 'fading' || undefined}
          inert={phase === 'fading' || undefined}
        >
          <div className={s.fields}>
            <Field label="Company name">
              <Input value={fields.name} onChange={set('name')} autoComplete="organization" maxLength={120} />
            </Field>
            <Field label="Email" hint="We send the press release to this address.">
              <Input type="email" value={fields.email} onChange={set('email')} autoComplete="email" maxLength={254} />
            </Field>
            <Field label="Website URL">
              <Input type="url" value={fields.url} onChange={set('url')} placeholder="https://www.example.com" autoComplete="url" maxLength={2048} />
            </Field>
            <Field label="Product name">
              <Input value={fields.product_name} onChange={set('product_name')} maxLength={120} />
            </Field>
          </div>
          {warning && (
            <MessageBar intent="warning" role="alert" layout="multiline">
              <MessageBarBody>{warning}</MessageBarBody>
            </MessageBar>
          )}
          <div className={s.actions}>
            <Button type="submit" appearance="primary" disabled={phase !== 'form'}>
              Write my press release
            </Button>
          </div>
        </form>
      )}

      {phase === 'loading' && (
        <div className={s.loading} role="status" aria-live="polite">
          <Spinner size="large" label={LOADING_TEXT} labelPosition="below" />
        </div>
      )}

      {phase === 'failed' && (
        <div className={s.result}>
          <MessageBar intent="error" role="alert" layout="multiline">
            <MessageBarBody>
              <MessageBarTitle>Mia could not write this press release.</MessageBarTitle>
              {error}
            </MessageBarBody>
          </MessageBar>
          <div className={s.actions}>
            <Button appearance="primary" onClick={() => startOver(true)}>
              Try again
            </Button>
          </div>
        </div>
      )}

      {phase === 'done' && release && (
        <section className={s.result} aria-labelledby="mia-result-title">
          <div className={s.headline}>
            <img className={s.logo} src={release.log_image} alt={`Logo of ${company}`} />
            <h2 id="mia-result-title" className={s.title} ref={resultHeading} tabIndex={-1}>
              {release.title}
            </h2>
          </div>
          {mail.state === 'sending' && <Spinner size="tiny" label="Sending the press release by e-mail…" />}
          {(mail.state === 'sent' || mail.state === 'failed') && (
            <MessageBar intent={mail.state === 'sent' ? 'success' : 'warning'} role="status" layout="multiline">
              <MessageBarBody>{mail.state === 'sent' ? mail.message : `The e-mail was not sent: ${mail.message}`}</MessageBarBody>
            </MessageBar>
          )}
          <Card className={s.version}>
            <Subtitle2 as="h3" className={s.versionTitle}>
              Version 1
            </Subtitle2>
            <Body1 as="p" className={s.prose}>
              {release.paraphrase_1}
            </Body1>
          </Card>
          <Card className={s.version}>
            <Subtitle2 as="h3" className={s.versionTitle}>
              Version 2
            </Subtitle2>
            <Body1 as="p" className={s.prose}>
              {release.paraphrase_2}
            </Body1>
          </Card>
          <div className={s.images}>
            <img className={s.image} src={release.image_1} alt={`Image 1 for the press release: ${release.title}`} />
            <img className={s.image} src={release.image_2} alt={`Image 2 for the press release: ${product} by ${company}`} />
          </div>
          <div className={s.actions}>
            <Button appearance="primary" onClick={() => startOver(false)}>
              Write another press release
            </Button>
          </div>
        </section>
      )}
    </PublicFrame>
  );
}
