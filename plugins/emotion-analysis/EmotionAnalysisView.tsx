import { useState, type FormEvent } from 'react';
import { Body1, Button, Caption1, Field, MessageBar, MessageBarBody, Spinner, Textarea, makeStyles, tokens } from '@fluentui/react-components';
import { useApi, userMessage } from '../../src/app';
import { emotionStyle } from './emotion-style';
import { EmotionFileAnalysis } from './EmotionFileAnalysis';

export const EMPTY_TEXT_MESSAGE = 'Please enter some text to analyse.';
export const MAX_TEXT_CHARS = 20_000;
export const TOO_LONG_MESSAGE = `The text is too long to analyse at once; the limit is ${MAX_TEXT_CHARS.toLocaleString('en-GB')} characters.`;

interface EmotionItem {
  emotion: string;
  text: string;
}

const useStyles = makeStyles({
  root: { display: 'grid', gap: '16px', maxWidth: '860px' },
  form: { display: 'grid', gap: '12px' },
  actions: { display: 'flex', gap: '12px', alignItems: 'center' },
  list: { listStyleType: 'none', margin: 0, padding: 0, display: 'grid', gap: '8px' },
  item: {
    display: 'grid',
    gridTemplateColumns: '132px 1fr',
    gap: '12px',
    alignItems: 'start',
    padding: '10px 12px',
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground1,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  badge: {
    display: 'inline-flex',
    alignItems: 'center',
    gap: '6px',
    padding: '2px 10px 2px 6px',
    borderRadius: tokens.borderRadiusCircular,
    border: '1px solid transparent',
    fontWeight: tokens.fontWeightSemibold,
    justifySelf: 'start',
  },
  summary: { color: tokens.colorNeutralForeground2 },
});

/**
 * Workflow 10002 (spec section 2): a textarea and 'Get Emotion'; the reply lists each sentence
 * with its emotion, shown with that emotion's icon and colour. Empty text is stopped here with
 * a message, before anything is sent. Below it, a file (TXT, CSV, PDF, DOCX) can be analysed
 * whole: the share of each emotion and the sentences behind it (issue 25).
 */
export default function EmotionAnalysisView() {
  const s = useStyles();
  const api = useApi();
  const [text, setText] = useState('');
  const [inputError, setInputError] = useState<string>();
  const [error, setError] = useState<string>();
  const [loading, setLoading] = useState(false);
  const [results, setResults] = useState<EmotionItem[]>();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(undefined);
    if (text.trim() === '') return setInputError(EMPTY_TEXT_MESSAGE);
    if (text.length > MAX_TEXT_CHARS) return setInputError(TOO_LONG_MESSAGE);
    setInputError(undefined);
    setLoading(true);
    try {
      const reply = await api.post<{ data?: EmotionItem[] }>('/api/api/text_processing_json/', { text });
      setResults(Array.isArray(reply?.data) ? reply.data : []);
    } catch (e) {
      setResults(undefined);
      setError(userMessage(e));
    } finally {
      setLoading(false);
    }
  }

  return (
    <div className={s.root}>
      <form className={s.form} onSubmit={submit} noValidate>
        <Field
          label="Text to analyse"
          validationMessage={inputError}
          validationState={inputError ? 'error' : 'none'}
          hint="Reviews, survey answers, chats or e-mails; each sentence gets an emotion."
        >
          <Textarea
            value={text}
            onChange={(_, d) => {
              setText(d.value);
              if (inputError) setInputError(undefined);
            }}
            rows={8}
            resize="vertical"
            placeholder="Paste or type the text here…"
          />
        </Field>
        <div className={s.actions}>
          <Button appearance="primary" type="submit" disabled={loading}>
            Get Emotion
          </Button>
          {loading && <Spinner size="tiny" label="Analysing…" />}
        </div>
      </form>
      {error && (
        <MessageBar intent="error">
          <MessageBarBody>{error}</MessageBarBody>
        </MessageBar>
      )}
      {results && !loading && (
        <section aria-label="Emotions">
          {results.length === 0 ? (
            <Body1>No sentences were found in the text.</Body1>
          ) : (
            <>
              <Caption1 as="p" className={s.summary}>
                {results.length === 1 ? '1 sentence' : `${results.length} sentences`}
              </Caption1>
              <ul className={s.list}>
                {results.map((r, i) => {
                  const style = emotionStyle(r.emotion);
                  const Icon = style.icon;
                  return (
                    <li key={i} className={s.item} data-emotion={r.emotion}>
                      <span className={s.badge} style={{ color: style.color, backgroundColor: style.background, borderColor: style.border }}>
                        <Icon aria-hidden />
                        {style.label}
                      </span>
                      <Body1>{r.text}</Body1>
                    </li>
                  );
                })}
              </ul>
            </>
          )}
        </section>
      )}
      <EmotionFileAnalysis />
    </div>
  );
}
