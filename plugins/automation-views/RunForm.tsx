import { useRef, useState, type FormEvent } from 'react';
import { Button, Field, MessageBar, MessageBarBody, Textarea, makeStyles, useId } from '@fluentui/react-components';
import { Play20Regular } from '@fluentui/react-icons';
import { useApi } from '../../src/app';
import { uploadToRecipe } from './automation-api';

export const RUN_EMPTY = 'Choose a file or enter some text to run the workflow.';

const useStyles = makeStyles({
  form: { display: 'grid', gap: '10px', minWidth: 0 },
  file: { maxWidth: '100%' },
  actions: {
    display: 'flex',
    gap: '8px',
    flexWrap: 'wrap',
    alignItems: 'center',
  },
});

/**
 * The manual upload trigger: a file (or text, for a text trigger) posted to the recipe's
 * uploads endpoint runs the workflow; the new job's id is handed to `onQueued`.
 */
export function RunForm({ recipeId, acceptsText, onQueued }: { recipeId: number; acceptsText: boolean; onQueued(jobId: string): void }) {
  const s = useStyles();
  const api = useApi();
  const fileInput = useRef<HTMLInputElement>(null);
  const fileId = useId('run-file');
  const [file, setFile] = useState<File>();
  const [text, setText] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(undefined);
    if (!file && !text.trim()) return setError(RUN_EMPTY);
    setBusy(true);
    try {
      const r = await uploadToRecipe(api, recipeId, {
        file,
        text: text.trim() || undefined,
      });
      setFile(undefined);
      setText('');
      if (fileInput.current) fileInput.current.value = '';
      onQueued(r.job_id);
    } catch (err) {
      setError(err instanceof Error ? err.message : 'The workflow could not be run. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className={s.form} onSubmit={submit} noValidate aria-label="Run the workflow">
      {acceptsText ? (
        <Field label="Text to process">
          <Textarea value={text} onChange={(_, d) => setText(d.value)} resize="vertical" />
        </Field>
      ) : (
        <Field label={{ children: 'File to process', htmlFor: fileId }}>
          <input id={fileId} ref={fileInput} className={s.file} type="file" onChange={(e) => setFile(e.target.files?.[0] ?? undefined)} />
        </Field>
      )}
      <div className={s.actions}>
        <Button type="submit" appearance="primary" icon={<Play20Regular />} disabled={busy}>
          {busy ? 'Sending...' : 'Run now'}
        </Button>
      </div>
      {error && (
        <MessageBar layout="multiline" intent="error">
          <MessageBarBody>{error}</MessageBarBody>
        </MessageBar>
      )}
    </form>
  );
}
