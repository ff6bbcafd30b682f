import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import {
  Body1,
  Button,
  Caption1,
  Card,
  Field,
  Input,
  Link,
  MessageBar,
  MessageBarBody,
  Spinner,
  Subtitle2,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { ArrowDownload16Regular, DocumentText24Regular, Search24Regular } from '@fluentui/react-icons';
import { useApi, useEnvironment } from '../../src/app';
import { EmptyState } from '../../src/app';
import { splitMarks } from './highlight';
import { userMessage } from '../../src/app';

export const EMPTY_QUERY_MESSAGE = 'Please enter a search query.';
export const NOTHING_MATCHED = 'Sorry nothing matched your search';
export const NO_FILE_MESSAGE = 'Choose a PDF, text (.txt), image (PNG or JPEG) or XML e-invoice file to add.';
export const WRONG_TYPE_MESSAGE = 'Only PDF, text (.txt), image (PNG or JPEG) and XML e-invoice files can be added to the search.';
const SEARCH_WORKFLOW = '10011';
/** How often the list asks again while a scan is being read. */
export const LIST_REFRESH_MS = 2000;

/** A document of the list, as GET /api/plugins/document-search/documents gives it. */
export interface ListedDocument {
  document: string;
  status: 'indexing' | 'searchable' | 'failed';
  progress?: number;
  message?: string;
  uploads: number;
}

interface SearchResult {
  document: string;
  documentText: string;
  documentUri: string;
}

const useStyles = makeStyles({
  root: { display: 'grid', gap: '20px', maxWidth: '900px' },
  searchForm: { display: 'grid', gap: '4px' },
  searchRow: {
    display: 'flex',
    gap: '8px',
    alignItems: 'flex-start',
    flexWrap: 'wrap',
  },
  searchButton: { marginTop: '26px' },
  grow: { flexGrow: 1, minWidth: '240px' },
  list: {
    listStyleType: 'none',
    margin: 0,
    padding: 0,
    display: 'grid',
    gap: '12px',
  },
  card: { display: 'grid', gap: '6px', padding: '14px 16px' },
  title: { display: 'flex', gap: '8px', alignItems: 'center', margin: 0 },
  titleIcon: { color: tokens.colorBrandForeground1, flexShrink: 0 },
  passage: {
    color: tokens.colorNeutralForeground2,
    lineHeight: tokens.lineHeightBase400,
  },
  mark: {
    backgroundColor: tokens.colorPaletteYellowBackground2,
    color: tokens.colorNeutralForeground1,
    borderRadius: '2px',
    padding: '0 1px',
  },
  download: {
    display: 'inline-flex',
    gap: '4px',
    alignItems: 'center',
    justifySelf: 'start',
  },
  upload: {
    display: 'grid',
    gap: '10px',
    padding: '16px',
    backgroundColor: tokens.colorNeutralBackground2,
    borderRadius: tokens.borderRadiusLarge,
  },
  uploadRow: {
    display: 'flex',
    gap: '8px',
    alignItems: 'center',
    flexWrap: 'wrap',
  },
  hint: { color: tokens.colorNeutralForeground2 },
  documents: { display: 'grid', gap: '8px' },
  docList: { listStyleType: 'none', margin: 0, padding: 0, display: 'grid', gap: '6px' },
  docRow: { display: 'flex', gap: '8px', alignItems: 'center', flexWrap: 'wrap' },
  docName: { fontWeight: tokens.fontWeightSemibold },
  failed: { color: tokens.colorPaletteRedForeground1 },
});

/** A passage with its matched words in <mark>, built as elements from text (never as HTML). */
function Passage({ text }: { text: string }) {
  const s = useStyles();
  return (
    <Body1 as="p" className={s.passage}>
      {splitMarks(text).map((piece, i) =>
        piece.marked ? (
          <mark key={i} className={s.mark}>
            {piece.text}
          </mark>
        ) : (
          <span key={i}>{piece.text}</span>
        ),
      )}
    </Body1>
  );
}

/**
 * Adds a PDF, text or image file to the user's searchable documents: upload, then index. A scan
 * (an image, a PDF with pages without text) is read by OCR on the server after the reply; the
 * list below shows it as indexing until it is searchable.
 */
function AddDocument({ onAdded }: { onAdded: () => void }) {
  const s = useStyles();
  const api = useApi();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [done, setDone] = useState<string>();

  async function add() {
    setDone(undefined);
    setError(undefined);
    if (!file) return setError(NO_FILE_MESSAGE);
    if (!/\.(pdf|txt|png|jpe?g|xml)$/i.test(file.name)) return setError(WRONG_TYPE_MESSAGE);
    setBusy(true);
    try {
      const form = new FormData();
      form.append('name', file.name);
      form.append('file', file);
      form.append('country', '');
      form.append('workflow', SEARCH_WORKFLOW);
      const stored = await api.upload<{ key: string; bucket: string }>('/api/platform/uploadworkflowfile', form);
      const indexed = await api.post<{ document: string; words?: number; indexing?: boolean; message?: string }>('/api/plugins/document-search/index', {
        key: stored.key,
        bucket: stored.bucket,
      });
      setDone(
        indexed.indexing
          ? `“${indexed.document}” is a scan: its text is being read, and it is listed below as indexing until it is searchable.`
          : `“${indexed.document}” is now searchable (${(indexed.words ?? 0).toLocaleString('en-GB')} words).${indexed.message ? ` ${indexed.message}` : ''}`,
      );
      setFile(undefined);
      if (input.current) input.current.value = '';
      onAdded();
    } catch (e) {
      setError(userMessage(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className={s.upload} aria-label="Add a document">
      <Subtitle2 as="h2" className={s.title}>
        Add a document
      </Subtitle2>
      <Caption1 className={s.hint}>
        PDF, plain-text (.txt), image (PNG or JPEG) and XML e-invoice (XRechnung, Peppol UBL, Factur-X) files are indexed. Scans are read by OCR, up to their
        first 20 pages, which takes a few seconds a page.
      </Caption1>
      <div className={s.uploadRow}>
        <input
          ref={input}
          type="file"
          aria-label="Document file"
          accept=".pdf,.txt,.png,.jpg,.jpeg,.xml,application/pdf,text/plain,image/png,image/jpeg,application/xml,text/xml"
          onChange={(e) => {
            setFile(e.target.files?.[0]);
            setError(undefined);
            setDone(undefined);
          }}
        />
        <Button onClick={add} disabled={busy}>
          Upload Document
        </Button>
        {busy && <Spinner size="tiny" label="Uploading…" />}
      </div>
      {error && (
        <MessageBar intent="error" layout="multiline">
          <MessageBarBody>{error}</MessageBarBody>
        </MessageBar>
      )}
      {done && (
        <MessageBar intent="success" layout="multiline">
          <MessageBarBody>{done}</MessageBarBody>
        </MessageBar>
      )}
    </section>
  );
}

/** The user's documents, newest first: scans being read (with their progress), refused, or searchable. */
function DocumentList({ documents, error }: { documents?: ListedDocument[]; error?: string }) {
  const s = useStyles();
  if (error) {
    return (
      <MessageBar intent="error" layout="multiline">
        <MessageBarBody>{error}</MessageBarBody>
      </MessageBar>
    );
  }
  if (!documents || documents.length === 0) return null;
  return (
    <section className={s.documents} aria-label="Your documents">
      <Subtitle2 as="h2" className={s.title}>
        Your documents
      </Subtitle2>
      <ul className={s.docList}>
        {documents.map((d, i) => (
          <li key={`${d.document}-${i}`} className={s.docRow}>
            <span className={s.docName}>{d.document}</span>
            {d.status === 'indexing' && <Spinner size="extra-tiny" label={`Indexing… ${d.progress ?? 0}% read`} labelPosition="after" />}
            {d.status === 'searchable' && (
              <Caption1>
                Searchable{d.uploads > 1 ? ` (uploaded ${d.uploads} times)` : ''}
                {d.message ? `. ${d.message}` : ''}
              </Caption1>
            )}
            {d.status === 'failed' && <Caption1 className={s.failed}>Not searchable: {d.message}</Caption1>}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The user's documents, asked again every LIST_REFRESH_MS while a scan is being read. */
function useDocuments(onSearchable: () => void) {
  const api = useApi();
  const [documents, setDocuments] = useState<ListedDocument[]>();
  const [error, setError] = useState<string>();
  const [tick, setTick] = useState(0);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  const indexing = useRef(false);
  const searchable = useRef(onSearchable);
  searchable.current = onSearchable;

  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    api
      .get<{ documents?: ListedDocument[] }>('/api/plugins/document-search/documents')
      .then((reply) => {
        if (!live) return;
        const docs = Array.isArray(reply?.documents) ? reply.documents : [];
        setDocuments(docs);
        setError(undefined);
        const stillIndexing = docs.some((d) => d.status === 'indexing');
        // a scan finished: the current search may now find it
        if (indexing.current && !stillIndexing) searchable.current();
        indexing.current = stillIndexing;
        if (stillIndexing) timer = setTimeout(() => setTick((t) => t + 1), LIST_REFRESH_MS);
      })
      .catch((e: unknown) => live && setError(userMessage(e)));
    return () => {
      live = false;
      if (timer) clearTimeout(timer);
    };
  }, [api, tick]);

  return { documents, error, reload };
}

/**
 * Workflow 10011 (spec section 2): a query box and Search; results list the document name, the
 * matching passage with its matched words marked, and 'Download Document'. An empty query is
 * stopped here; no match shows 'Sorry nothing matched your search'. Below: add a document, and the
 * list of the user's documents (a scan shows 'Indexing…' with its progress until it is searchable).
 */
export default function DocumentSearchView() {
  const s = useStyles();
  const api = useApi();
  const env = useEnvironment();
  const [query, setQuery] = useState('');
  const [inputError, setInputError] = useState<string>();
  const [error, setError] = useState<string>();
  const [loading, setLoading] = useState(false);
  const [results, setResults] = useState<SearchResult[]>();

  async function search(event?: FormEvent) {
    event?.preventDefault();
    setError(undefined);
    if (query.trim() === '') return setInputError(EMPTY_QUERY_MESSAGE);
    setInputError(undefined);
    setLoading(true);
    try {
      const reply = await api.post<{ results?: SearchResult[] }>('/api/nlp-document-store/query', { query: query.trim() });
      setResults(Array.isArray(reply?.results) ? reply.results : []);
    } catch (e) {
      setResults(undefined);
      setError(userMessage(e));
    } finally {
      setLoading(false);
    }
  }

  const href = (uri: string) => (uri.startsWith('/') ? env.apiBase + uri : uri);
  const rerun = () => (query.trim() ? void search() : undefined);
  const list = useDocuments(rerun);

  return (
    <div className={s.root}>
      <form className={s.searchForm} onSubmit={search} noValidate role="search">
        <div className={s.searchRow}>
          <Field className={s.grow} label="Search your documents" validationMessage={inputError} validationState={inputError ? 'error' : 'none'}>
            <Input
              value={query}
              onChange={(_, d) => {
                setQuery(d.value);
                if (inputError) setInputError(undefined);
              }}
              contentBefore={<Search24Regular aria-hidden />}
              placeholder="e.g. late payment fee"
            />
          </Field>
          <Button className={s.searchButton} appearance="primary" type="submit" disabled={loading}>
            Search
          </Button>
        </div>
        <Caption1 className={s.hint}>Words, "an exact phrase", OR, and -word to leave a word out; the last word also matches its beginning.</Caption1>
      </form>
      {loading && <Spinner size="small" label="Searching…" />}
      {error && (
        <MessageBar intent="error" layout="multiline">
          <MessageBarBody>{error}</MessageBarBody>
        </MessageBar>
      )}
      {results && !loading && (
        <section aria-label="Search results">
          {results.length === 0 ? (
            <EmptyState>{NOTHING_MATCHED}</EmptyState>
          ) : (
            <ul className={s.list}>
              {results.map((r, i) => (
                <li key={`${r.documentUri}-${i}`}>
                  <Card className={s.card}>
                    <Subtitle2 as="h3" className={s.title}>
                      <DocumentText24Regular className={s.titleIcon} aria-hidden />
                      {r.document}
                    </Subtitle2>
                    <Passage text={r.documentText} />
                    <Link className={s.download} href={href(r.documentUri)} download={r.document} aria-label={`Download Document ${r.document}`}>
                      <ArrowDownload16Regular aria-hidden />
                      Download Document
                    </Link>
                  </Card>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
      <AddDocument
        onAdded={() => {
          rerun();
          list.reload();
        }}
      />
      <DocumentList documents={list.documents} error={list.error} />
    </div>
  );
}
