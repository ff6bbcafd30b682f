import { useState } from 'react';
import { Button, Caption1 } from '@fluentui/react-components';
import { ArrowDownload16Regular } from '@fluentui/react-icons/svg/arrow-download';
import { useApi, useEnvironment } from '../../hooks';
import { userMessage } from '../../messages';

type Api = ReturnType<typeof useApi>;

/** A stored file a step produced (its output's `result_file`, or the files it passed on). */
export interface StepFileRef {
  bucket: string;
  key: string;
  name: string;
  kind: string;
  size?: number;
}

const isFileRef = (v: unknown): v is StepFileRef => {
  const f = v as StepFileRef;
  return !!f && typeof f === 'object' && typeof f.bucket === 'string' && typeof f.key === 'string' && typeof f.name === 'string' && typeof f.kind === 'string';
};

/** The files a step's output offers for download: its kept result first, then the files it passed on. */
export function stepFiles(output: unknown): StepFileRef[] {
  if (!output || typeof output !== 'object' || Array.isArray(output)) return [];
  const o = output as { result_file?: unknown; files?: unknown };
  return [...(isFileRef(o.result_file) ? [o.result_file] : []), ...(Array.isArray(o.files) ? o.files.filter(isFileRef) : [])].slice(0, 10);
}

/** GET /api/automation/jobs/:id/files/link: a short-lived, session-bound link to a file the job names. */
export const jobFileLink = (api: Api, jobId: string, f: StepFileRef) =>
  api.get<{ name: string; url: string }>(
    `/api/automation/jobs/${encodeURIComponent(jobId)}/files/link?${new URLSearchParams({ bucket: f.bucket, key: f.key })}`,
  );

/**
 * Download buttons for the files a step produced (a reconciliation's whole result as a workbook):
 * each asks the server for a fresh link at the click, so a link never outlives the session.
 */
export function StepFiles({ jobId, output }: { jobId: string; output: unknown }) {
  const api = useApi();
  const env = useEnvironment();
  const [error, setError] = useState<string>();
  const files = stepFiles(output);
  if (!files.length) return null;
  const download = async (f: StepFileRef) => {
    setError(undefined);
    try {
      const { url } = await jobFileLink(api, jobId, f);
      const a = document.createElement('a');
      a.href = url.startsWith('/') ? env.apiBase + url : url;
      a.download = f.name;
      document.body.appendChild(a);
      a.click();
      a.remove();
    } catch (e) {
      setError(userMessage(e, 'The file could not be downloaded. Please try again.'));
    }
  };
  return (
    <div>
      {files.map((f) => (
        <Button key={`${f.bucket}/${f.key}`} size="small" icon={<ArrowDownload16Regular />} onClick={() => void download(f)}>
          Download {f.name}
        </Button>
      ))}
      {error && (
        <Caption1 as="p" role="alert">
          {error}
        </Caption1>
      )}
    </div>
  );
}
