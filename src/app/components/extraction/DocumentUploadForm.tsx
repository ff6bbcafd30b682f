import { useRef, useState, type ReactNode } from 'react';
import { Button, Caption1, Field, ProgressBar, makeStyles, tokens } from '@fluentui/react-components';
import { ArrowUpload20Regular } from '@fluentui/react-icons/svg/arrow-upload';
import { DocumentArrowUp20Regular } from '@fluentui/react-icons/svg/document-arrow-up';
import { useExtractionFiles, type UploadedFile } from './extraction-files';
import { checkDocumentFile, DOCUMENT_ACCEPT, INVOICE_ACCEPT } from './file-checks';
import { userMessage } from '../../messages';

export const NO_FILE_MESSAGE = 'Please choose a file first.';

const useStyles = makeStyles({
  root: { display: 'grid', gap: '12px' },
  row: { display: 'flex', flexWrap: 'wrap', gap: '12px', alignItems: 'center' },
  input: {
    maxWidth: '100%',
    padding: '6px',
    borderRadius: tokens.borderRadiusMedium,
    border: `1px solid ${tokens.colorNeutralStroke1}`,
    backgroundColor: tokens.colorNeutralBackground1,
    fontFamily: tokens.fontFamilyBase,
    fontSize: tokens.fontSizeBase300,
    '::file-selector-button': {
      marginRight: '12px',
      padding: '4px 12px',
      borderRadius: tokens.borderRadiusMedium,
      border: `1px solid ${tokens.colorNeutralStroke1}`,
      backgroundColor: tokens.colorNeutralBackground3,
      cursor: 'pointer',
    },
  },
  progress: { display: 'grid', gap: '4px', maxWidth: '420px' },
  muted: { color: tokens.colorNeutralForeground3 },
});

export interface UploadState {
  file?: File;
  uploaded?: UploadedFile;
}

/**
 * The file pick and 'Upload {noun}' of the extraction pages: checks the file (type, size,
 * empty) before sending, shows the upload's progress, and reports the chosen file and the
 * uploaded key/bucket. `children` are the page's next buttons ('Process …'), on the same row.
 * `eInvoices` takes XML e-invoices besides PDF, PNG and JPEG (the invoice page).
 */
export function DocumentUploadForm(props: {
  workflow: number;
  noun: string;
  busy?: boolean;
  eInvoices?: boolean;
  onChange: (state: UploadState) => void;
  onError: (message: string | undefined) => void;
  children?: ReactNode;
}) {
  const s = useStyles();
  const files = useExtractionFiles();
  const [file, setFile] = useState<File>();
  const [uploaded, setUploaded] = useState<UploadedFile>();
  const [progress, setProgress] = useState<number>();
  const [fieldError, setFieldError] = useState<string>();
  const abort = useRef<AbortController>(undefined);

  function choose(next: File | undefined) {
    abort.current?.abort();
    setFile(next);
    setUploaded(undefined);
    setProgress(undefined);
    const problem = next ? checkDocumentFile(next, undefined, props.eInvoices) : undefined;
    setFieldError(problem);
    props.onError(undefined);
    props.onChange({ file: problem ? undefined : next });
  }

  async function upload() {
    props.onError(undefined);
    if (!file) return setFieldError(NO_FILE_MESSAGE);
    const problem = checkDocumentFile(file, undefined, props.eInvoices);
    if (problem) return setFieldError(problem);
    const controller = new AbortController();
    abort.current = controller;
    setProgress(0);
    try {
      const result = await files.upload(file, props.workflow, setProgress, controller.signal);
      setUploaded(result);
      props.onChange({ file, uploaded: result });
    } catch (e) {
      if ((e as Error)?.name === 'AbortError') return;
      props.onError(userMessage(e));
    } finally {
      if (abort.current === controller) setProgress(undefined);
    }
  }

  const uploading = progress !== undefined;
  const noun = props.noun.toLowerCase();
  return (
    <div className={s.root}>
      <Field
        label={`${props.noun} file`}
        hint={props.eInvoices ? 'PDF, PNG or JPEG, or an XML e-invoice (XRechnung, Peppol UBL, Factur-X), up to 10 MB.' : 'PDF, PNG or JPEG, up to 10 MB.'}
        validationMessage={fieldError}
        validationState={fieldError ? 'error' : 'none'}
      >
        {(fieldProps) => (
          <input
            {...fieldProps}
            className={s.input}
            type="file"
            accept={props.eInvoices ? INVOICE_ACCEPT : DOCUMENT_ACCEPT}
            disabled={uploading || props.busy}
            onChange={(e) => choose(e.target.files?.[0])}
          />
        )}
      </Field>
      <div className={s.row}>
        <Button icon={<ArrowUpload20Regular />} onClick={upload} disabled={uploading || props.busy}>
          Upload {props.noun}
        </Button>
        {props.children}
      </div>
      {uploading && (
        <div className={s.progress}>
          <ProgressBar value={progress} max={1} thickness="large" aria-label={`Uploading the ${noun}`} />
          <Caption1 aria-live="polite">Uploading… {Math.round((progress ?? 0) * 100)}%</Caption1>
        </div>
      )}
      {uploaded && !uploading && (
        <Caption1 className={s.muted} aria-live="polite">
          <DocumentArrowUp20Regular aria-hidden style={{ verticalAlign: 'middle', marginRight: 4 }} />
          {file?.name} uploaded.
        </Caption1>
      )}
    </div>
  );
}
