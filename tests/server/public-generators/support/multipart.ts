import { randomBytes } from 'node:crypto';

/** A multipart/form-data body (text fields, optionally one file) for app.inject. */
export function multipart(fields: Record<string, string>, file?: { name: string; filename: string; content: string }) {
  const boundary = `----flowmatic${randomBytes(8).toString('hex')}`;
  const parts = Object.entries(fields).map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  if (file) {
    parts.push(
      `--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.filename}"\r\nContent-Type: text/plain\r\n\r\n${file.content}\r\n`,
    );
  }
  return { body: `${parts.join('')}--${boundary}--\r\n`, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
