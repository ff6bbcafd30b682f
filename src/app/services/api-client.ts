import { ApiError, Http, messageOf, type HttpRequest } from './http';
import type { Session } from './session';

export interface ApiRequest extends HttpRequest {
  /** send the bearer token and treat 401 as the end of the session (default true) */
  auth?: boolean;
}

export const GENERIC_ERROR = 'Something went wrong. Please try again.';

/**
 * The API client every view uses. Authenticated calls carry `Authorization: Bearer {token}`,
 * refreshed silently; a 401 status or a reply with status_code 401 ends the session.
 * A non-2xx reply throws ApiError with the server's message.
 */
export class ApiClient {
  constructor(
    private readonly http: Http,
    private readonly session: Session,
  ) {}

  async request<T = unknown>(path: string, req: ApiRequest = {}): Promise<T> {
    const auth = req.auth ?? true;
    const headers = { ...req.headers };
    if (auth && !headers.Authorization) headers.Authorization = `Bearer ${await this.session.accessToken()}`;
    const reply = await this.http.send<T>(path, { ...req, headers });
    const statusCode = (reply.body as { status_code?: unknown } | undefined)?.status_code;
    if (auth && (reply.status === 401 || statusCode === 401 || statusCode === '401')) {
      this.session.expire('unauthorised');
      throw new ApiError(401, messageOf(reply.body, 'Your session has expired.'), reply.body);
    }
    if (reply.status < 200 || reply.status >= 300) {
      throw new ApiError(reply.status, messageOf(reply.body, GENERIC_ERROR), reply.body);
    }
    return reply.body;
  }

  get<T = unknown>(path: string, req: Omit<ApiRequest, 'method' | 'body'> = {}): Promise<T> {
    return this.request<T>(path, { ...req, method: 'GET' });
  }

  post<T = unknown>(path: string, body?: unknown, req: Omit<ApiRequest, 'method' | 'body'> = {}): Promise<T> {
    return this.request<T>(path, { ...req, method: 'POST', body });
  }

  put<T = unknown>(path: string, body?: unknown, req: Omit<ApiRequest, 'method' | 'body'> = {}): Promise<T> {
    return this.request<T>(path, { ...req, method: 'PUT', body });
  }

  upload<T = unknown>(path: string, form: FormData, req: Omit<ApiRequest, 'method' | 'form'> = {}): Promise<T> {
    return this.request<T>(path, { ...req, method: 'POST', form });
  }
}
