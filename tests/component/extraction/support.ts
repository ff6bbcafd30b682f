import { ApiError } from '../../../src/app';
import { ExtractionFiles, type UploadedFile } from '../../../src/app/components/extraction/extraction-files';
import type { TestShell } from '../../support/render';

/** A fake of the pages' file transfers: records calls, reports half-way progress, answers as told. */
export function fakeFiles(
  shell: TestShell,
  opts: {
    uploadError?: { status: number; message: string };
    previewError?: { status: number; message: string };
    uploaded?: UploadedFile;
    holdUpload?: boolean;
  } = {},
) {
  const calls = {
    uploads: [] as { file: File; workflow: number }[],
    previews: [] as { key: string; bucket: string }[],
    webhooks: [] as { url: string; form: FormData }[],
  };
  let finishUpload: (() => void) | undefined;
  const fake: ExtractionFiles = {
    async upload(file, workflow, onProgress) {
      calls.uploads.push({ file, workflow });
      onProgress(0.5);
      await new Promise<void>((r) => {
        finishUpload = r;
        if (!opts.holdUpload) r();
      });
      if (opts.uploadError) throw new ApiError(opts.uploadError.status, opts.uploadError.message, undefined);
      onProgress(1);
      return opts.uploaded ?? { url: '/api/files/download?token=t', key: 'k-1.pdf', bucket: 'uploads' };
    },
    async preview(file) {
      calls.previews.push(file);
      if (opts.previewError) throw new ApiError(opts.previewError.status, opts.previewError.message, undefined);
      return 'blob:preview-1';
    },
    async postToWebhook(url, form) {
      calls.webhooks.push({ url, form });
    },
  };
  shell.container.replace(ExtractionFiles, fake);
  return { calls, release: () => finishUpload?.() };
}

/** A file of `size` bytes with a name and type. */
export function fileOf(name: string, type: string, size = 1200): File {
  return new File([new Uint8Array(size).fill(65)], name, { type });
}
