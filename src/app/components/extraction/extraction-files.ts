import { useMemo } from 'react';
import { token } from '../../../core/di';
import { useContainer } from '../../hooks';
import { ApiError } from '../../services/http';
import * as T from '../../tokens';

/** What the upload call answers (spec section 7). */
export interface UploadedFile {
  url: string;
  key: string;
  bucket: string;
}

/**
 * The file transfers of the extraction pages that the JSON API client cannot do: an upload
 * that reports its progress, the preview image (binary, behind the bearer token) and the post of
 * a file to a recipe's webhook. A token, so tests can replace it.
 */
export interface ExtractionFiles {
  /** POST /api/platform/uploadworkflowfile (name, file, country, workflow), reporting 0..1. */
  upload(file: File, workflow: number, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<UploadedFile>;
  /** An object URL of the preview image of an uploaded file (revoke it when done). */
  preview(file: { key: string; bucket: string }): Promise<string>;
  /** Posts a form to a recipe's webhook; resolves when it answered 2xx, throws otherwise. */
  postToWebhook(url: string, form: FormData): Promise<void>;
}

export const ExtractionFiles = token<ExtractionFiles>('ExtractionFiles');

const UPLOAD_PATH = '/api/platform/uploadworkflowfile';
export const NETWORK_MESSAGE = 'Could not reach the server. Check your connection and try again.';

function messageOf(body: string, fallback: string): string {
  try {
    const parsed = JSON.parse(body) as { message?: unknown };
    if (typeof parsed?.message === 'string' && parsed.message) return parsed.message;
  } catch {
    /* not JSON */
  }
  return fallback;
}

/** The country the upload form sends: the browser's region, or GB when it has none. */
export function browserCountry(): string {
  const locale = typeof navigator !== 'undefined' ? navigator.language : '';
  return /-([A-Z]{2})$/i.exec(locale)?.[1]?.toUpperCase() ?? 'GB';
}

/**
 * The browser implementation: XMLHttpRequest for the upload (fetch cannot report upload
 * progress), fetch for the rest, the session's bearer token on API calls (never on a webhook).
 * A 401 ends the session, as the API client does.
 */
export function browserExtractionFiles(deps: {
  apiBase: string;
  accessToken: () => Promise<string>;
  onUnauthorised: () => void;
  fetch?: typeof fetch;
}): ExtractionFiles {
  const doFetch = deps.fetch ?? ((...a: Parameters<typeof fetch>) => fetch(...a));
  return {
    async upload(file, workflow, onProgress, signal) {
      const token = await deps.accessToken();
      const form = new FormData();
      form.append('name', file.name);
      form.append('file', file, file.name);
      form.append('country', browserCountry());
      form.append('workflow', String(workflow));
      return new Promise<UploadedFile>((resolve, reject) => {
        const xhr = new XMLHttpRequest();
        xhr.open('POST', deps.apiBase + UPLOAD_PATH);
        xhr.setRequestHeader('Authorization', `Bearer ${token}`);
        xhr.setRequestHeader('Accept', 'application/json');
        xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
        xhr.onerror = () => reject(new ApiError(0, NETWORK_MESSAGE, undefined));
        xhr.onabort = () => reject(new DOMException('The upload was cancelled.', 'AbortError'));
        xhr.onload = () => {
          if (xhr.status === 401) deps.onUnauthorised();
          if (xhr.status < 200 || xhr.status >= 300) {
            reject(new ApiError(xhr.status, messageOf(xhr.responseText, 'The upload failed. Please try again.'), undefined));
            return;
          }
          onProgress(1);
          try {
            resolve(JSON.parse(xhr.responseText) as UploadedFile);
          } catch {
            reject(new ApiError(xhr.status, 'The server answered the upload with something unexpected.', undefined));
          }
        };
        signal?.addEventListener('abort', () => xhr.abort());
        xhr.send(form);
      });
    },

    async preview({ key, bucket }) {
      const res = await doFetch(`${deps.apiBase}/api/plugins/invoice-extraction/preview?key=${encodeURIComponent(key)}&bucket=${encodeURIComponent(bucket)}`, {
        headers: { Authorization: `Bearer ${await deps.accessToken()}` },
      }).catch(() => {
        throw new ApiError(0, NETWORK_MESSAGE, undefined);
      });
      if (res.status === 401) deps.onUnauthorised();
      if (!res.ok) throw new ApiError(res.status, messageOf(await res.text(), 'The preview could not be shown.'), undefined);
      return URL.createObjectURL(await res.blob());
    },

    async postToWebhook(url, form) {
      // a webhook is the recipe's own address: relative ones are on the API host
      const target = /^https?:\/\//i.test(url) ? url : deps.apiBase + url;
      const res = await doFetch(target, { method: 'POST', body: form });
      if (!res.ok) throw new Error(`The workflow's webhook answered ${res.status}.`);
    },
  };
}

/** The page's file transfers: a replacement bound in the container (tests), else the browser's. */
export function useExtractionFiles(): ExtractionFiles {
  const container = useContainer();
  return useMemo(() => {
    if (container.isBound(ExtractionFiles)) return container.get(ExtractionFiles);
    const session = container.get(T.Session);
    return browserExtractionFiles({
      apiBase: container.get(T.Environment).apiBase,
      accessToken: () => session.accessToken(),
      onUnauthorised: () => session.expire('unauthorised'),
    });
  }, [container]);
}
