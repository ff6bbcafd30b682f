import { useEffect, useId, useState, type FormEvent } from 'react';
import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Field, Input, Spinner } from '@fluentui/react-components';

/** The dialog's texts (the server's own message shows when the password is wrong). */
export const ConfirmPasswordText = {
  title: 'Confirm it is you',
  intro: (email: string) =>
    `To change your e-mail address to ${email}, enter your current password. We will send a link to the new address; the current one stays in force until you open it.`,
  label: 'Current password',
  required: 'Enter your current password.',
  confirm: 'Change e-mail',
  cancel: 'Cancel',
} as const;

export interface ConfirmPasswordDialogProps {
  /** the new address; the dialog is open while it is set */
  newEmail: string | null;
  /** sends the update with the password; resolves to an error sentence to show, or null when done */
  onConfirm(password: string): Promise<string | null>;
  onCancel(): void;
}

/**
 * Asks for the current password before an e-mail change (issue 7, item 2): a stolen session
 * alone cannot move the account to another address. The password is sent once and not kept.
 */
export function ConfirmPasswordDialog({ newEmail, onConfirm, onCancel }: ConfirmPasswordDialogProps) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const inputId = useId();
  const open = newEmail !== null;

  useEffect(() => {
    if (!open) {
      setPassword('');
      setError(null);
      setBusy(false);
    }
  }, [open]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!password) {
      setError(ConfirmPasswordText.required);
      return;
    }
    setBusy(true);
    const problem = await onConfirm(password);
    setBusy(false);
    if (problem) setError(problem);
  };

  return (
    <Dialog open={open} modalType="modal" onOpenChange={(_, d) => !d.open && !busy && onCancel()}>
      <DialogSurface>
        <form onSubmit={submit} noValidate>
          <DialogBody>
            <DialogTitle>{ConfirmPasswordText.title}</DialogTitle>
            <DialogContent style={{ display: 'grid', gap: 12 }}>
              <p style={{ margin: 0, overflowWrap: 'anywhere' }}>{newEmail ? ConfirmPasswordText.intro(newEmail) : ''}</p>
              <Field label={ConfirmPasswordText.label} validationMessage={error ?? undefined} validationState={error ? 'error' : 'none'}>
                <Input
                  id={inputId}
                  type="password"
                  autoComplete="current-password"
                  value={password}
                  onChange={(_, d) => {
                    setPassword(d.value);
                    if (error) setError(null);
                  }}
                />
              </Field>
            </DialogContent>
            <DialogActions>
              <Button appearance="secondary" type="button" onClick={onCancel} disabled={busy}>
                {ConfirmPasswordText.cancel}
              </Button>
              <Button appearance="primary" type="submit" disabled={busy} icon={busy ? <Spinner size="tiny" /> : undefined}>
                {ConfirmPasswordText.confirm}
              </Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
