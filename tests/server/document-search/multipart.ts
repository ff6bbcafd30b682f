import { randomBytes } from 'node:crypto';
import type { TestServer } from '../../support/server';

export type FormPart = { name: string; value: string } | { name: string; filename: string; content: Buffer; type?: string };

/** A multipart/form-data body with the parts in the order given (the order matters to the route). */
export function multipartBody(parts: FormPart[]): { body: Buffer; contentType: string } {
  const boundary = `----flowmatic${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if ('content' in p) {
      chunks.push(
        Buffer.from(
          `Content-Disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\nContent-Type: ${p.type ?? 'application/octet-stream'}\r\n\r\n`,
        ),
      );
      chunks.push(p.content, Buffer.from('\r\n'));
    } else {
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${p.name}"\r\n\r\n${p.value}\r\n`));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

export interface UploadReply {
  status: number;
  body: { url?: string; key?: string; bucket?: string; status?: string; message?: string };
}

/** POSTs `uploadworkflowfile` as the spec's client does: name, file, country, workflow. */
export async function upload(
  server: TestServer,
  token: string | undefined,
  file: { content: Buffer; filename?: string },
  workflow: string | undefined,
  opts: { workflowFirst?: boolean; name?: string } = {},
): Promise<UploadReply> {
  const filePart: FormPart = { name: 'file', filename: file.filename ?? 'upload.bin', content: file.content };
  const fields: FormPart[] = [{ name: 'name', value: opts.name ?? file.filename ?? 'upload.bin' }];
  const tail: FormPart[] = [{ name: 'country', value: 'GB' }, ...(workflow === undefined ? [] : [{ name: 'workflow', value: workflow }])];
  const parts = opts.workflowFirst ? [...fields, ...tail, filePart] : [...fields, filePart, ...tail];
  const { body, contentType } = multipartBody(parts);
  const res = await server.app.inject({
    method: 'POST',
    url: '/api/platform/uploadworkflowfile',
    payload: body,
    headers: { 'content-type': contentType, ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
  return { status: res.statusCode, body: JSON.parse(res.body) };
}
