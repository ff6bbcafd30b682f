import { useRef, useState, type DragEvent } from 'react';
import {
  Accordion,
  AccordionHeader,
  AccordionItem,
  AccordionPanel,
  Body1,
  Button,
  Caption1,
  MessageBar,
  MessageBarBody,
  ProgressBar,
  Subtitle2,
  makeStyles,
  mergeClasses,
  tokens,
} from '@fluentui/react-components';
import { ArrowUpload24Regular } from '@fluentui/react-icons/svg/arrow-upload';
import { MAX_DOCUMENT_BYTES, useApi, userMessage } from '../../src/app';
import { emotionStyle } from './emotion-style';

export const FILE_ROUTE = '/api/plugins/emotion-analysis/file';
export const FILE_ACCEPT = '.txt,.csv,.pdf,.docx,text/plain,text/csv,application/pdf,application/vnd.openxmlformats-officedocument.wordprocessingml.document';
export const MAX_FILE_MB = MAX_DOCUMENT_BYTES / (1024 * 1024);
export const WRONG_FILE_TYPE_MESSAGE = 'This file type is not supported: choose a TXT, CSV, PDF or DOCX file.';
export const EMPTY_FILE_MESSAGE = 'The chosen file is empty: choose a file with some text in it.';
export const FILE_TOO_LARGE_MESSAGE = `The file is larger than the ${MAX_FILE_MB} MB limit.`;
/** Sentences listed under an emotion before 'Show all'. */
export const FIRST_SENTENCES = 50;

interface Labelled {
  emotion: string;
  text: string;
}

/** The server's reply (plugins/emotion-analysis/file-analysis.ts FileAnalysis). */
export interface FileAnalysisReply {
  file: { name: string; kind: string };
  read: string;
  notices: string[];
  sentences: Labelled[];
  shares: { emotion: string; count: number; percent: number }[];
  capped: boolean;
}

/** Why a chosen file cannot be sent, or undefined; the server decides the type by content and checks again. */
export function checkTextFile(file: File): string | undefined {
  if (!/\.(txt|csv|tsv|pdf|docx)$/i.test(file.name)) return WRONG_FILE_TYPE_MESSAGE;
  if (file.size === 0) return EMPTY_FILE_MESSAGE;
  if (file.size > MAX_DOCUMENT_BYTES) return FILE_TOO_LARGE_MESSAGE;
  return undefined;
}

const useStyles = makeStyles({
  root: { display: 'grid', gap: '12px' },
  zone: {
    display: 'grid',
    justifyItems: 'start',
    gap: '8px',
    padding: '16px',
    borderRadius: tokens.borderRadiusMedium,
    border: `2px dashed ${tokens.colorNeutralStroke1}`,
    backgroundColor: tokens.colorNeutralBackground2,
  },
  zoneActive: { border: `2px dashed ${tokens.colorBrandStroke1}`, backgroundColor: tokens.colorBrandBackground2 },
  hint: { color: tokens.colorNeutralForeground2 },
  tight: { margin: 0 },
  hiddenInput: { display: 'none' },
  shares: { listStyleType: 'none', margin: 0, padding: 0, display: 'grid', gap: '8px' },
  // label, bar and numbers on one line; at phone widths the numbers wrap under the bar
  share: { display: 'flex', flexWrap: 'wrap', columnGap: '12px', rowGap: '4px', alignItems: 'center' },
  track: {
    flex: '1 1 120px',
    height: '14px',
    borderRadius: tokens.borderRadiusSmall,
    backgroundColor: tokens.colorNeutralBackground3,
    overflow: 'hidden',
  },
  numbers: { flex: '0 0 auto' },
  bar: { height: '100%', borderRadius: tokens.borderRadiusSmall },
  label: { display: 'inline-flex', alignItems: 'center', gap: '6px', fontWeight: tokens.fontWeightSemibold, flex: '0 0 112px' },
  sentences: { margin: 0, paddingLeft: '20px', display: 'grid', gap: '4px' },
});

const sentencesWord = (n: number) => (n === 1 ? '1 sentence' : `${n.toLocaleString('en-GB')} sentences`);

/** One emotion's sentences, the first FIRST_SENTENCES at once and the rest on request. */
function EmotionSentences({ sentences }: { sentences: Labelled[] }) {
  const s = useStyles();
  const [all, setAll] = useState(false);
  const shown = all ? sentences : sentences.slice(0, FIRST_SENTENCES);
  return (
    <>
      <ol className={s.sentences}>
        {shown.map((r, i) => (
          <li key={i}>
            <Body1>{r.text}</Body1>
          </li>
        ))}
      </ol>
      {!all && sentences.length > FIRST_SENTENCES && (
        <Button appearance="subtle" onClick={() => setAll(true)}>
          Show all {sentences.length.toLocaleString('en-GB')} sentences
        </Button>
      )}
    </>
  );
}

/** The share of each emotion (bars with their numbers as text), then each emotion's sentences. */
export function FileAnalysisResult({ result }: { result: FileAnalysisReply }) {
  const s = useStyles();
  const total = result.sentences.length;
  return (
    <section aria-label="Emotions in the file" className={s.root}>
      <Subtitle2 as="h3" className={s.tight}>
        {result.file.name}: {sentencesWord(total)}
      </Subtitle2>
      <Caption1 as="p" className={mergeClasses(s.hint, s.tight)}>
        {result.read}
      </Caption1>
      {result.notices.map((notice, i) => (
        // the cap's notice comes last: a warning, since part of the file was left out
        <MessageBar key={notice} intent={result.capped && i === result.notices.length - 1 ? 'warning' : 'info'}>
          <MessageBarBody>{notice}</MessageBarBody>
        </MessageBar>
      ))}
      <ul className={s.shares} aria-label="Share of each emotion">
        {result.shares.map((share) => {
          const style = emotionStyle(share.emotion);
          const Icon = style.icon;
          return (
            <li key={share.emotion} className={s.share} data-emotion={share.emotion}>
              <span className={s.label}>
                <Icon aria-hidden style={{ color: style.color }} />
                {style.label}
              </span>
              <div className={s.track} aria-hidden>
                <div className={s.bar} style={{ width: `${share.percent}%`, backgroundColor: style.color }} />
              </div>
              <Body1 className={s.numbers}>
                {share.percent}% ({share.count.toLocaleString('en-GB')} of {sentencesWord(total)})
              </Body1>
            </li>
          );
        })}
      </ul>
      <Accordion multiple collapsible aria-label="Sentences by emotion">
        {result.shares.map((share) => (
          <AccordionItem key={share.emotion} value={share.emotion}>
            <AccordionHeader>
              {emotionStyle(share.emotion).label}: {sentencesWord(share.count)}
            </AccordionHeader>
            <AccordionPanel>
              <EmotionSentences sentences={result.sentences.filter((r) => r.emotion === share.emotion)} />
            </AccordionPanel>
          </AccordionItem>
        ))}
      </Accordion>
    </section>
  );
}

/**
 * Analyse a file: a drop zone with a 'Choose a file' button (TXT, CSV, PDF or DOCX, up to the
 * upload limit), a progress bar while the server reads and labels it, then the result.
 */
export function EmotionFileAnalysis() {
  const s = useStyles();
  const api = useApi();
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [busy, setBusy] = useState<string>();
  const [error, setError] = useState<string>();
  const [result, setResult] = useState<FileAnalysisReply>();

  async function analyse(file: File | undefined) {
    if (!file || busy) return;
    setError(undefined);
    const refusal = checkTextFile(file);
    if (refusal) return setError(refusal);
    setResult(undefined);
    setBusy(file.name);
    try {
      const form = new FormData();
      form.append('file', file, file.name);
      setResult(await api.upload<FileAnalysisReply>(FILE_ROUTE, form));
    } catch (e) {
      setError(userMessage(e));
    } finally {
      setBusy(undefined);
      if (input.current) input.current.value = '';
    }
  }

  function drop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    void analyse(event.dataTransfer.files?.[0]);
  }

  return (
    <section className={s.root} aria-labelledby="emotion-file-title">
      <Subtitle2 as="h2" id="emotion-file-title" className={s.tight}>
        Analyse a file
      </Subtitle2>
      <div
        className={mergeClasses(s.zone, dragging && s.zoneActive)}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={drop}
        data-testid="emotion-file-drop"
      >
        <Body1>Drop a file here, or choose one. Every sentence is labelled with an emotion.</Body1>
        <Caption1 id="emotion-file-hint" className={s.hint}>
          TXT, CSV (a column of texts), PDF with a text layer or Word (DOCX), up to {MAX_FILE_MB} MB; the first 5,000 sentences are analysed.
        </Caption1>
        <input
          ref={input}
          className={s.hiddenInput}
          type="file"
          accept={FILE_ACCEPT}
          aria-label="File to analyse"
          tabIndex={-1}
          onChange={(e) => void analyse(e.target.files?.[0])}
        />
        <Button icon={<ArrowUpload24Regular />} aria-describedby="emotion-file-hint" disabled={busy !== undefined} onClick={() => input.current?.click()}>
          Choose a file
        </Button>
      </div>
      <div aria-live="polite">
        {busy && (
          <>
            <ProgressBar thickness="large" aria-label={`Reading and analysing ${busy}`} />
            <Caption1 className={s.hint}>Reading and analysing {busy}…</Caption1>
          </>
        )}
      </div>
      {error && (
        <MessageBar intent="error">
          <MessageBarBody>{error}</MessageBarBody>
        </MessageBar>
      )}
      {result && !busy && <FileAnalysisResult result={result} />}
    </section>
  );
}
