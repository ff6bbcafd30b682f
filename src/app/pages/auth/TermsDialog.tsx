import { Body1, Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Subtitle2 } from '@fluentui/react-components';

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

/** The terms of the Register form in a dialog: Close, or I agree (which ticks the box). */
export default function TermsDialog({ onClose, onAgree }: { onClose: () => void; onAgree: () => void }) {
  return (
    <Dialog
      open
      onOpenChange={(_e, data) => {
        if (!data.open) onClose();
      }}
    >
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
            <Button appearance="secondary" onClick={onClose}>
              Close
            </Button>
            <Button appearance="primary" onClick={onAgree}>
              I agree
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
