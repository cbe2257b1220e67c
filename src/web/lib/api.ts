import { type ApiErrorBody, AppError, isApiErrorBody } from '../../shared/errors.ts';

// The browser's API client: same-origin JSON with the session cookie; errors become
// ApiError with the server's code and message.

/**
 * What a 402 (a plan limit reached, a read-only account) ends with: the way to upgrade. The ui
 * kit's Alert and ErrorState turn it into a link to /billing (components/ui/Card.tsx).
 */
export const UPGRADE_HINT = 'See plans';

/** An error answer of the API: the shared AppError shape (status, code, message, details). */
export class ApiError extends AppError {
  override name = 'ApiError';
  constructor(status: number, code: string, message: string, details?: unknown) {
    super(
      status,
      code,
      status === 402 && !message.endsWith(UPGRADE_HINT) ? `${message} ${UPGRADE_HINT}` : message,
      details,
    );
  }
}

/** What to show for a failed call or action: an Error's (ApiError's) own message, or a general one. */
export const errorText = (error: unknown) =>
  error instanceof Error ? error.message : 'Something went wrong. Please try again.';

type RequestOptions = Omit<RequestInit, 'body'> & {
  body?: unknown;
  query?: Record<string, string | number | undefined>;
};

export const apiRequest = async <T>(path: string, options: RequestOptions = {}): Promise<T> => {
  const { body, query, headers, ...rest } = options;
  const url = new URL(path.startsWith('/api') ? path : `/api${path}`, window.location.origin);
  for (const [k, v] of Object.entries(query ?? {}))
    if (v !== undefined && v !== '') url.searchParams.set(k, String(v));
  let response: Response;
  try {
    response = await fetch(url, {
      credentials: 'same-origin',
      ...rest,
      // FormData (file uploads) goes as multipart; the browser writes its content type.
      headers: {
        ...(body !== undefined && !(body instanceof FormData) ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: body instanceof FormData ? body : body !== undefined ? JSON.stringify(body) : undefined,
    });
  } catch {
    throw new ApiError(0, 'network_error', 'Network error. Please check your internet connection.');
  }
  const text = await response.text();
  const data: unknown = text ? JSON.parse(text) : undefined;
  if (!response.ok) {
    if (isApiErrorBody(data)) {
      const e = (data as ApiErrorBody).error;
      throw new ApiError(response.status, e.code, e.message, e.details);
    }
    throw new ApiError(
      response.status,
      'http_error',
      `The server answered ${response.status}. Please try again.`,
    );
  }
  return data as T;
};

export const api = {
  get: <T>(path: string, query?: RequestOptions['query']) => apiRequest<T>(path, { method: 'GET', query }),
  post: <T>(path: string, body?: unknown, headers?: Record<string, string>) =>
    apiRequest<T>(path, { method: 'POST', body, headers }),
  patch: <T>(path: string, body?: unknown) => apiRequest<T>(path, { method: 'PATCH', body }),
  put: <T>(path: string, body?: unknown) => apiRequest<T>(path, { method: 'PUT', body }),
  delete: <T>(path: string) => apiRequest<T>(path, { method: 'DELETE' }),
};
