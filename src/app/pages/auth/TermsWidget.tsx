import { Suspense, lazy, useState } from 'react';
import { Checkbox, Link } from '@fluentui/react-components';
import { ariaDescribedByIds, type WidgetProps } from '@rjsf/utils';

// the dialog (Fluent's Dialog, its portal and motion) loads when the link is first used
const TermsDialog = lazy(() => import(/* webpackChunkName: "terms-dialog" */ './TermsDialog'));

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
      {open && (
        <Suspense fallback={null}>
          <TermsDialog
            onClose={() => setOpen(false)}
            onAgree={() => {
              onChange(true);
              setOpen(false);
            }}
          />
        </Suspense>
      )}
    </>
  );
}
