import { useState, type FormEvent } from 'react';
import {
  Body1,
  Button,
  Card,
  CardHeader,
  Field,
  Input,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  Select,
  Spinner,
  Subtitle1,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { Dismiss24Regular } from '@fluentui/react-icons/svg/dismiss';
import { useApi, useService } from '../../src/app';
import { T } from '../../src/app';
import { EMAIL_PATTERN, PublicFrame, errorMessage } from './ui/PublicFrame';

/** The voices of spec section 2, as the server knows them. */
export const HAL_VOICES = ['Santa', 'Abraham Lincoln', 'Yoda', 'Steve Irwin', 'eminem rap'] as const;
export const RETRIEVING_TEXT = 'Retrieving info on your website';
export const GENERATING_TEXT = 'Generating pitch';

interface HalFields {
  companyName: string;
  website: string;
  email: string;
  voice: string;
}
type FieldErrors = Partial<Record<keyof HalFields, string>>;
type Phase = 'form' | 'retrieving' | 'generating' | 'done' | 'failed';

const EMPTY: HalFields = { companyName: '', website: '', email: '', voice: '' };

/** Spec section 5: company name, website, email and voice are required. */
export function validateHal(fields: HalFields): FieldErrors {
  const errors: FieldErrors = {};
  if (!fields.companyName.trim()) errors.companyName = 'Please enter your company name.';
  if (!fields.website.trim()) errors.website = 'Please enter your website.';
  if (!fields.email.trim()) errors.email = 'Please enter your email.';
  else if (!EMAIL_PATTERN.test(fields.email.trim())) errors.email = 'Please enter a valid email address.';
  if (!fields.voice) errors.voice = 'Please choose a voice.';
  return errors;
}

const useStyles = makeStyles({
  form: { display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: '12px' },
  fields: { display: 'grid', gap: '12px', gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 260px), 1fr))' },
  actions: { display: 'flex', flexWrap: 'wrap', gap: '8px' },
  progress: { padding: '40px 16px', display: 'grid', justifyItems: 'center', gap: '16px', textAlign: 'center' },
  steps: { margin: 0, padding: 0, listStyleType: 'none', display: 'grid', gap: '4px', color: tokens.colorNeutralForeground3 },
  stepDone: { color: tokens.colorPaletteGreenForeground1 },
  stepNow: { color: tokens.colorNeutralForeground1, fontWeight: tokens.fontWeightSemibold },
  pitch: { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', margin: 0 },
  card: { minWidth: 0 },
});

/**
 * /hal, the AI pitch generator: a form (company name, website, email, voice), then 'Retrieving info
 * on your website' while the site is summarised, 'Generating pitch' while the pitch is written in
 * the chosen voice, and the pitch with a close button that reloads the page.
 */
export default function HalPage() {
  const s = useStyles();
  const api = useApi();
  const navigator = useService(T.Navigator);
  const [fields, setFields] = useState<HalFields>(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [phase, setPhase] = useState<Phase>('form');
  const [error, setError] = useState<string>();
  const [pitch, setPitch] = useState('');
  const [voice, setVoice] = useState('');

  const set = (key: keyof HalFields) => (_: unknown, data: { value: string }) => {
    setFields((f) => ({ ...f, [key]: data.value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = validateHal(fields);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setError(undefined);
    setVoice(fields.voice);
    try {
      setPhase('retrieving');
      const { pageSummarization } = await api.post<{ pageSummarization: string }>(
        '/api/pitcher/page-summarization/',
        { url: fields.website.trim() },
        { auth: false },
      );
      setPhase('generating');
      const reply = await api.post<{ pitch: string }>(
        '/api/pitcher/generate',
        { companyName: fields.companyName.trim(), voice: fields.voice, companyDescription: pageSummarization, email: fields.email.trim() },
        { auth: false },
      );
      setPitch(reply.pitch);
      setPhase('done');
    } catch (e) {
      setError(errorMessage(e));
      setPhase('failed');
    }
  }

  const stepClass = (step: 'retrieving' | 'generating') =>
    phase === step ? s.stepNow : step === 'retrieving' && phase === 'generating' ? s.stepDone : undefined;

  return (
    <PublicFrame title="AI pitch generator" intro="Hal reads your website and writes a sales pitch for your company, in the voice you choose.">
      {phase === 'form' && (
        <form className={s.form} onSubmit={submit} noValidate aria-label="Pitch details">
          <div className={s.fields}>
            <Field label="Company name" required validationMessage={errors.companyName}>
              <Input value={fields.companyName} onChange={set('companyName')} autoComplete="organization" maxLength={120} />
            </Field>
            <Field label="Website" required validationMessage={errors.website}>
              <Input type="url" value={fields.website} onChange={set('website')} placeholder="https://www.example.com" autoComplete="url" maxLength={2048} />
            </Field>
            <Field label="Email" required validationMessage={errors.email}>
              <Input type="email" value={fields.email} onChange={set('email')} autoComplete="email" maxLength={254} />
            </Field>
            <Field label="Voice" required validationMessage={errors.voice}>
              <Select value={fields.voice} onChange={set('voice')}>
                <option value="" disabled>
                  Choose a voice
                </option>
                {HAL_VOICES.map((v) => (
                  <option key={v} value={v}>
                    {v}
                  </option>
                ))}
              </Select>
            </Field>
          </div>
          <div className={s.actions}>
            <Button type="submit" appearance="primary">
              Write my pitch
            </Button>
          </div>
        </form>
      )}

      {(phase === 'retrieving' || phase === 'generating') && (
        <div className={s.progress} role="status" aria-live="polite">
          <Spinner size="large" label={phase === 'retrieving' ? RETRIEVING_TEXT : GENERATING_TEXT} labelPosition="below" />
          <ol className={s.steps} aria-label="Progress">
            <li className={stepClass('retrieving')}>1. Read the website</li>
            <li className={stepClass('generating')}>2. Write the pitch in the voice of {voice}</li>
          </ol>
        </div>
      )}

      {phase === 'failed' && (
        <div className={s.form}>
          <MessageBar intent="error" role="alert" layout="multiline">
            <MessageBarBody>
              <MessageBarTitle>Hal could not write the pitch.</MessageBarTitle>
              {error}
            </MessageBarBody>
          </MessageBar>
          <div className={s.actions}>
            <Button appearance="primary" onClick={() => setPhase('form')}>
              Try again
            </Button>
          </div>
        </div>
      )}

      {phase === 'done' && (
        <Card className={s.card} aria-labelledby="hal-pitch-title">
          <CardHeader
            header={
              <Subtitle1 as="h2" id="hal-pitch-title">
                Your pitch, in the voice of {voice}
              </Subtitle1>
            }
            action={<Button appearance="subtle" icon={<Dismiss24Regular />} aria-label="Close" onClick={() => navigator.reload()} />}
          />
          <Body1 as="p" className={s.pitch}>
            {pitch}
          </Body1>
        </Card>
      )}
    </PublicFrame>
  );
}
