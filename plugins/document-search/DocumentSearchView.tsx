import { useRef, useState, type FormEvent } from 'react';
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
export const NO_FILE_MESSAGE = 'Choose a PDF or text (.txt) file to add.';
export const WRONG_TYPE_MESSAGE = 'Only PDF and text (.txt) files can be added to the search.';
const SEARCH_WORKFLOW = '10011';

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

/** Adds a PDF or text file to the user's searchable documents: upload, then index. */
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
    if (!/\.(pdf|txt)$/i.test(file.name)) return setError(WRONG_TYPE_MESSAGE);
    setBusy(true);
    try {
      const form = new FormData();
      form.append('name', file.name);
      form.append('file', file);
      form.append('country', '');
      form.append('workflow', SEARCH_WORKFLOW);
      const stored = await api.upload<{ key: string; bucket: string }>('/api/platform/uploadworkflowfile', form);
      const indexed = await api.post<{ document: string; words: number }>('/api/plugins/document-search/index', { key: stored.key, bucket: stored.bucket });
      setDone(`“${indexed.document}” is now searchable (${indexed.words.toLocaleString('en-GB')} words).`);
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
      <Caption1 className={s.hint}>PDF files with a text layer and plain-text (.txt) files are indexed; scanned PDFs have no text to search.</Caption1>
      <div className={s.uploadRow}>
        <input
          ref={input}
          type="file"
          aria-label="Document file"
          accept=".pdf,.txt,application/pdf,text/plain"
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
        <MessageBar intent="error">
          <MessageBarBody>{error}</MessageBarBody>
        </MessageBar>
      )}
      {done && (
        <MessageBar intent="success">
          <MessageBarBody>{done}</MessageBarBody>
        </MessageBar>
      )}
    </section>
  );
}

/**
 * Workflow 10011 (spec section 2): a query box and Search; results list the document name, the
 * matching passage with its matched words marked, and 'Download Document'. An empty query is
 * stopped here; no match shows 'Sorry nothing matched your search'.
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
        <MessageBar intent="error">
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
      <AddDocument onAdded={() => (query.trim() ? void search() : undefined)} />
    </div>
  );
}
