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
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { PersonFeedback20Regular } from '@fluentui/react-icons';
import { useApi } from '../hooks';

const useStyles = makeStyles({
  tab: {
    position: 'fixed',
    right: 0,
    top: '50%',
    transform: 'translateY(-50%) rotate(180deg)',
    writingMode: 'vertical-rl',
    zIndex: 10,
    padding: '14px 8px',
    minWidth: 'auto',
    borderRadius: `0 ${tokens.borderRadiusMedium} ${tokens.borderRadiusMedium} 0`,
    boxShadow: tokens.shadow8,
    // on a phone: a small button in the bottom-right corner instead of a tab on the edge
    '@media (max-width: 768px)': {
      top: 'auto',
      bottom: '12px',
      right: '12px',
      transform: 'none',
      writingMode: 'horizontal-tb',
      padding: '8px 12px',
      borderRadius: tokens.borderRadiusCircular,
    },
  },
});

const MAX = 2000;

/** The Beta feedback tab on the right edge of every signed-in page. */
export function FeedbackTab() {
  const s = useStyles();
  const api = useApi();
  const location = useLocation();
  const [open, setOpen] = useState(false);
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
        setOpen(d.open);
        if (!d.open) setResult(null);
      }}
    >
      <Button className={s.tab} appearance="primary" icon={<PersonFeedback20Regular />} onClick={() => setOpen(true)}>
        Feedback
      </Button>
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
              <Textarea value={text} maxLength={MAX} rows={5} resize="vertical" onChange={(_e, d) => setText(d.value)} placeholder="What works well, what gets in your way, what you wish it did…" />
            </Field>
          </DialogContent>
          <DialogActions>
            <Button appearance="secondary" onClick={() => setOpen(false)}>
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
