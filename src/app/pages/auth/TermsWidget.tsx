import { useState } from 'react';
import {
  Body1,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Link,
  Subtitle2,
} from '@fluentui/react-components';
import { ariaDescribedByIds, type WidgetProps } from '@rjsf/utils';

const TERMS: Array<[string, string]> = [
  [
    'The free trial',
    'Your account starts with a 30-day free trial of the Flowmatic beta. No payment details are needed. At the end of the trial you can choose a plan or stop using the service.',
  ],
  [
    'Your account',
    'Keep your password private and tell us at once if you think someone else has used your account. You are responsible for what is done with your account.',
  ],
  [
    'Your data and connections',
    'You keep every right to the files and data you upload or connect. We process them only to run the workflows you start, and we store the access to your connected apps encrypted.',
  ],
  [
    'Beta service',
    'The platform is in Beta Testing mode: features may change, and the service is provided as is. Please share your feedback with us so we can improve it.',
  ],
  ['Acceptable use', 'Do not use the platform to break the law, to send spam, or to get around the limits of your plan.'],
];

/** The terms checkbox of the Register form, with a link that opens the terms in a dialog. */
export function TermsWidget({ id, value, disabled, readonly, onChange, onBlur, onFocus }: WidgetProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Checkbox
        id={id}
        checked={value === true}
        disabled={disabled || readonly}
        aria-describedby={ariaDescribedByIds(id)}
        onChange={(_e, data) => onChange(data.checked === true)}
        onBlur={() => onBlur(id, value === true)}
        onFocus={() => onFocus(id, value === true)}
        label={
          <>
            I agree to the{' '}
            <Link
              as="button"
              type="button"
              inline
              onClick={(e) => {
                e.preventDefault(); // do not toggle the checkbox through its label
                setOpen(true);
              }}
            >
              Terms and Conditions
            </Link>
          </>
        }
      />
      <Dialog open={open} onOpenChange={(_e, data) => setOpen(data.open)}>
        <DialogSurface aria-describedby={undefined}>
          <DialogBody>
            <DialogTitle>Terms and Conditions</DialogTitle>
            <DialogContent style={{ display: 'flex', flexDirection: 'column', gap: 12, maxHeight: '60vh', overflowY: 'auto' }}>
              {TERMS.map(([title, text]) => (
                <section key={title}>
                  <Subtitle2 as="h3" block style={{ margin: '0 0 4px' }}>
                    {title}
                  </Subtitle2>
                  <Body1 as="p" style={{ margin: 0 }}>
                    {text}
                  </Body1>
                </section>
              ))}
            </DialogContent>
            <DialogActions>
              <Button appearance="secondary" onClick={() => setOpen(false)}>
                Close
              </Button>
              <Button
                appearance="primary"
                onClick={() => {
                  onChange(true);
                  setOpen(false);
                }}
              >
                I agree
              </Button>
            </DialogActions>
          </DialogBody>
        </DialogSurface>
      </Dialog>
    </>
  );
}
