import type { EnvironmentInfo } from '../../core/environment';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const NETWORK_ERROR_MESSAGE = 'Could not reach the server. Check your connection and try again.';

export interface HttpRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  /** multipart upload: sent as is, without a JSON content type */
  form?: FormData;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface HttpResponse<T = unknown> {
  status: number;
  body: T;
}

/** fetch against the environment's API base; JSON in and out; never throws on HTTP status. */
export class Http {
  constructor(
    private readonly env: Pick<EnvironmentInfo, 'apiBase'>,
    private readonly fetchImpl: typeof fetch = (...a) => fetch(...a),
  ) {}

  async send<T = unknown>(path: string, req: HttpRequest = {}): Promise<HttpResponse<T>> {
    const headers: Record<string, string> = { Accept: 'application/json', ...req.headers };
    let body: BodyInit | undefined;
    if (req.form) body = req.form;
    else if (req.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(req.body);
    }
    let res: Response;
    try {
      res = await this.fetchImpl(this.env.apiBase + path, { method: req.method ?? 'GET', headers, body, signal: req.signal });
    } catch (e) {
      if ((e as Error)?.name === 'AbortError') throw e;
      throw new ApiError(0, NETWORK_ERROR_MESSAGE, undefined);
    }
    const text = await res.text();
    let parsed: unknown = undefined;
    if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = { message: text.slice(0, 200) };
      }
    }
    return { status: res.status, body: parsed as T };
  }
}

/** The message a reply carries, or a fallback. */
export function messageOf(body: unknown, fallback: string): string {
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    for (const k of ['message', 'detail', 'error']) if (typeof b[k] === 'string' && b[k]) return b[k] as string;
  }
  return fallback;
}
