import { useState } from 'react';
import { useLocation } from 'react-router-dom';
import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  MessageBar,
  MessageBarBody,
  Textarea,
} from '@fluentui/react-components';
import { useApi } from '../hooks';

const MAX = 2000;

/**
 * The Feedback dialog. A chunk of its own (the dialog, field, textarea and message bar): the tab
 * loads it on the first click, so no page's first load carries it. It stays mounted once opened,
 * so a draft survives closing and reopening, as before.
 */
export default function FeedbackDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const api = useApi();
  const location = useLocation();
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ intent: 'success' | 'error'; text: string } | null>(null);

  const send = async () => {
    setBusy(true);
    setResult(null);
    try {
      const reply = await api.post<{ message: string }>('/api/platform/feedback', { message: text.trim(), page: location.pathname });
      setResult({ intent: 'success', text: reply.message });
      setText('');
    } catch (e) {
      setResult({ intent: 'error', text: (e as Error).message });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(_e, d) => {
        onOpenChange(d.open);
        if (!d.open) setResult(null);
      }}
    >
      <DialogSurface aria-describedby={undefined}>
        <DialogBody>
          <DialogTitle>Tell us what you think</DialogTitle>
          <DialogContent style={{ display: 'grid', gap: 12 }}>
            {result && (
              <MessageBar intent={result.intent}>
                <MessageBarBody>{result.text}</MessageBarBody>
              </MessageBar>
            )}
            <Field label="Your feedback" hint={`${text.length} / ${MAX}`}>
              <Textarea
                value={text}
                maxLength={MAX}
                rows={5}
                resize="vertical"
                onChange={(_e, d) => setText(d.value)}
                placeholder="What works well, what gets in your way, what you wish it did…"
              />
            </Field>
          </DialogContent>
          <DialogActions>
            <Button appearance="secondary" onClick={() => onOpenChange(false)}>
              Close
            </Button>
            <Button appearance="primary" disabled={busy || !text.trim()} onClick={send}>
              {busy ? 'Sending…' : 'Send feedback'}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
